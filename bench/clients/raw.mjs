// The "raw" client: a bare JSON-RPC loop, with no checks, no timers and no validation. It is the
// practical limit that a real client can approach but not pass. Over stdio it writes to the
// child's pipes; over Streamable HTTP it POSTs on `node:http` with a keep-alive agent
// (raw-http.mjs).
//
// connect(target, { era }): legacy runs `initialize`; modern (2026-07-28) sends no handshake,
// only the `_meta` envelope on every request (and over HTTP the headers that mirror it), and
// answers MRTR input requests by hand: every elicitation is accepted with { ok: true }.
import { spawn } from "node:child_process";
import { httpRequester } from "./raw-http.mjs";

export const name = "raw";

const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "bench-raw", version: "1.0.0" };
const CAPABILITIES = { elicitation: { form: {} } };
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
};
const ACCEPT = { action: "accept", content: { ok: true } };
const MAX_ROUNDS = 10;

export async function connect(target, { era = "legacy" } = {}) {
  const peer = target.url !== undefined ? httpRequester(target) : stdioRequester(target);
  try {
    return era === "modern" ? await modern(peer) : await legacy(peer);
  } catch (error) {
    await peer.close();
    throw error;
  }
}

async function legacy(peer) {
  const init = await peer.request("initialize", { protocolVersion: LEGACY, capabilities: CAPABILITIES, clientInfo: CLIENT_INFO });
  peer.started(init.protocolVersion);
  await peer.notify("notifications/initialized");
  return {
    protocolVersion: init.protocolVersion,
    call: (tool, args) => peer.request("tools/call", { name: tool, arguments: args }, tool),
    close: () => peer.close(),
  };
}

async function modern(peer) {
  peer.started(MODERN);
  // No handshake; one request to learn that the server answers as a modern one does.
  const listed = await peer.request("tools/list", { _meta: META });
  if (listed.resultType !== "complete") throw new Error(`raw: the server did not answer in the modern era: ${JSON.stringify(listed)}`);
  const call = async (tool, args) => {
    let params = { name: tool, arguments: args, _meta: META };
    for (let round = 0; round <= MAX_ROUNDS; round++) {
      const result = await peer.request("tools/call", params, tool);
      if (result.resultType !== "input_required") return result;
      const inputResponses = {};
      for (const key in result.inputRequests) inputResponses[key] = ACCEPT;
      params = { name: tool, arguments: args, _meta: META, inputResponses, requestState: result.requestState };
    }
    throw new Error(`raw: ${tool} still asked for input after ${MAX_ROUNDS} rounds`);
  };
  return { protocolVersion: MODERN, call, close: () => peer.close() };
}

/** JSON-RPC over a child's stdin/stdout, newline-delimited. */
function stdioRequester(target) {
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

  return {
    started() {},
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      }),
    notify: async (method) => {
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
    },
    close: async () => {
      if (exited) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
