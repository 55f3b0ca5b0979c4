// The "raw" client: a bare JSON-RPC loop, with no checks, no timers and no validation, written
// as lean as a hand-written client can be. It is the practical limit that a real client can
// approach but not pass, so that a ratio to it is an honest distance to that limit. Over stdio
// it writes to the child's pipes (raw-stdio.mjs); over Streamable HTTP it POSTs on `node:http`
// with a keep-alive agent (raw-http.mjs, loaded only for an HTTP target, so that a stdio cold
// start does not load node:http).
//
// connect(target, { era, onLog }): legacy runs `initialize` and `notifications/initialized`;
// modern (2026-07-28) sends no handshake, only the `_meta` envelope on every request (and over
// HTTP the headers that mirror it), and answers MRTR input requests by hand: every elicitation
// is accepted with { ok: true }. `onLog(params)` is the host's log hook, called for every
// notifications/message (stdio only: the servers here log over stdio).
//
// Every request is written as JSON text by hand: the parts that never change (method, tool name,
// envelope, the accepted answer) are serialised once, only the arguments per call; the
// transport adds the id and the closing brace.
import { stdioRequester } from "./raw-stdio.mjs";

export const name = "raw";

const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "bench-raw", version: "1.0.0" };
const CAPABILITIES = { elicitation: { form: {} } };
const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
});
const ACCEPT = JSON.stringify({ action: "accept", content: { ok: true } });
const MAX_ROUNDS = 10;

export async function connect(target, { era = "legacy", onLog } = {}) {
  const peer = target.url !== undefined ? (await import("./raw-http.mjs")).httpRequester(target) : stdioRequester(target, { onLog });
  try {
    return era === "modern" ? await modern(peer) : await legacy(peer);
  } catch (error) {
    await peer.close();
    throw error;
  }
}

/** A request's JSON text up to its id. `params` is JSON text too, possibly left open. */
const opening = (method, params) => `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${params}`;

/** `fn(key)` made once per key (a tool name: one or a few per connection). */
function cached(fn) {
  const made = new Map();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = fn(key)));
    return value;
  };
}

async function legacy(peer) {
  const init = await peer.request("initialize", opening("initialize", JSON.stringify({ protocolVersion: LEGACY, capabilities: CAPABILITIES, clientInfo: CLIENT_INFO })));
  peer.started(init.protocolVersion);
  await peer.notify("notifications/initialized");
  const head = cached((tool) => opening("tools/call", `{"name":${JSON.stringify(tool)},"arguments":`));
  return {
    protocolVersion: init.protocolVersion,
    // With a progress hook (stdio only), the params stay open: the requester adds the token.
    call: (tool, args, onProgress) =>
      onProgress === undefined
        ? peer.request("tools/call", `${head(tool)}${JSON.stringify(args)}}`, tool)
        : peer.request("tools/call", `${head(tool)}${JSON.stringify(args)}`, tool, onProgress),
    close: () => peer.close(),
  };
}

async function modern(peer) {
  peer.started(MODERN);
  // No handshake; one request to learn that the server answers as a modern one does.
  const listed = await peer.request("tools/list", opening("tools/list", `{"_meta":${META}}`));
  if (listed.resultType !== "complete") throw new Error(`raw: the server did not answer in the modern era: ${JSON.stringify(listed)}`);
  const head = cached((tool) => opening("tools/call", `{"name":${JSON.stringify(tool)},"_meta":${META},"arguments":`));
  const call = async (tool, args) => {
    const first = `${head(tool)}${JSON.stringify(args)}`;
    let message = `${first}}`;
    for (let round = 0; round <= MAX_ROUNDS; round++) {
      const result = await peer.request("tools/call", message, tool);
      if (result.resultType !== "input_required") return result;
      let answers = "";
      for (const key in result.inputRequests) answers += `${answers === "" ? "" : ","}${JSON.stringify(key)}:${ACCEPT}`;
      message = `${first},"inputResponses":{${answers}},"requestState":${JSON.stringify(result.requestState)}}`;
    }
    throw new Error(`raw: ${tool} still asked for input after ${MAX_ROUNDS} rounds`);
  };
  return { protocolVersion: MODERN, call, close: () => peer.close() };
}
