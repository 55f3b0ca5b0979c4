// The bare loop of the probes over stdio: JSON-RPC over the child's pipes with no checks, no
// timers and no validation, the practical floor a real client can approach but not pass.
// Unlike bench/clients/raw.mjs it frames lines on Buffers (a partial line is kept as a list of
// chunks and joined once), so a 10 MB message costs one copy and not one per 64 KB chunk: the
// floor for a big result must not be a quadratic one.
import { spawn } from "node:child_process";

const PROTOCOL_VERSION = "2025-11-25";

/**
 * The server gets the same few variables as both libraries give theirs (the official client's
 * default list), not this process's whole environment: a variable such as NODE_EXTRA_CA_CERTS
 * changes how long a Node server takes to start, and the floor must start the same server.
 */
function serverEnvironment() {
  const env = {};
  for (const key of ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

export async function connect(target, { onLog } = {}) {
  const child = spawn(target.command, target.args ?? [], { stdio: ["pipe", "pipe", "inherit"], env: serverEnvironment() });
  const pending = new Map();
  let nextId = 0;
  let parts = [];
  let partBytes = 0;
  let exited = false;

  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const exit = new Promise((resolve) => child.once("exit", resolve)).then(() => {
    exited = true;
    failAll(new Error("raw: the server exited"));
  });
  child.on("error", failAll);

  const receive = (line) => {
    const msg = JSON.parse(line);
    if (msg.method !== undefined) {
      if (msg.method === "notifications/message") onLog?.(msg.params);
      return;
    }
    const call = pending.get(msg.id);
    if (call === undefined) return;
    pending.delete(msg.id);
    if (msg.error !== undefined) call.reject(new Error(`raw: ${msg.error.code} ${msg.error.message}`));
    else call.resolve(msg.result);
  };
  child.stdout.on("data", (chunk) => {
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      let line;
      if (parts.length === 0) line = chunk.toString("utf8", start, newline);
      else {
        parts.push(chunk.subarray(start, newline));
        line = Buffer.concat(parts, partBytes + newline - start).toString("utf8");
        parts = [];
        partBytes = 0;
      }
      if (line !== "") receive(line);
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      partBytes += chunk.length - start;
    }
  });

  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });

  const close = async () => {
    if (exited) return;
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exit;
    clearTimeout(timer);
  };

  try {
    await request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "bench-raw", version: "1.0.0" },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    return { call: (tool, args) => request("tools/call", { name: tool, arguments: args }), close };
  } catch (error) {
    await close();
    throw error;
  }
}
