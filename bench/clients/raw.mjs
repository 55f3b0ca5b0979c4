// The "raw" client: a bare JSON-RPC loop over the child's pipes, with no checks, no timers and
// no validation. It is the practical limit that a real client can approach but not pass.
import { spawn } from "node:child_process";

export const name = "raw";

const PROTOCOL_VERSION = "2025-11-25";

export async function connect(target) {
  if (target.command === undefined) throw new Error("the raw client speaks stdio only");
  const child = spawn(target.command, target.args ?? [], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let nextId = 0;
  let rest = "";
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
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) {
      if (line === "") continue;
      const msg = JSON.parse(line);
      const call = pending.get(msg.id);
      if (call === undefined) continue;
      pending.delete(msg.id);
      if (msg.error !== undefined) call.reject(new Error(`raw: ${msg.error.code} ${msg.error.message}`));
      else call.resolve(msg.result);
    }
  });

  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });

  const close = async () => {
    if (exited) return;
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exit;
    clearTimeout(timer);
  };

  try {
    const init = await request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "bench-raw", version: "1.0.0" },
    });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    return {
      protocolVersion: init.protocolVersion,
      call: (tool, args) => request("tools/call", { name: tool, arguments: args }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
