// A minimal MCP server over stdio (newline-delimited JSON-RPC), written by hand so that its cost
// per call is as small as it can be and the benchmark measures the clients, not it.
// It exits when stdin ends, so it never outlives the process that spawned it.
//
//   node raw-stdio-server.mjs [--era legacy|modern]
//
// legacy (the default): `initialize` only; `server/discover` is -32601, so a probing client
// falls back at once. modern: `server/discover` answers too (2026-07-28), every request that
// carries `_meta` gets `resultType` in its result, and the `ask` tool asks for one elicitation
// round (MRTR) before it answers. `reply` is shared with raw-http-server.mjs.
import { pathToFileURL } from "node:url";

const LEGACY_VERSIONS = new Set(["2025-11-25", "2025-06-18"]);
export const MODERN_VERSION = "2026-07-28";
const SERVER_INFO = { name: "bench-raw-server", version: "1.0.0" };
const CAPABILITIES = { tools: {} };
const TEXT = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const ECHO = { name: "echo", description: "Echo the text back", inputSchema: TEXT };
const ASK = { name: "ask", description: "Asks for one confirmation (MRTR), then answers", inputSchema: { type: "object" } };
const DISCOVER = {
  resultType: "complete",
  supportedVersions: [MODERN_VERSION],
  capabilities: CAPABILITIES,
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
};
const CONFIRM = {
  ok: {
    method: "elicitation/create",
    params: {
      message: "Continue?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    },
  },
};
const ASK_STATE = "s";

class Refusal {
  constructor(code, message) {
    this.code = code;
    this.message = message;
  }
}

/** `ask`: the first request asks for input; the retry must carry the accepted answer and the state. */
function ask(params) {
  if (params.requestState === undefined && params.inputResponses === undefined) {
    return { resultType: "input_required", inputRequests: CONFIRM, requestState: ASK_STATE };
  }
  const answer = params.inputResponses?.ok;
  if (params.requestState !== ASK_STATE || answer?.action !== "accept" || answer.content?.ok !== true) {
    throw new Refusal(-32602, `ask: unexpected retry ${JSON.stringify({ requestState: params.requestState, inputResponses: params.inputResponses })}`);
  }
  return { content: [{ type: "text", text: "confirmed" }] };
}

function result(msg, modern) {
  const params = msg.params;
  switch (msg.method) {
    case "initialize": {
      const asked = params?.protocolVersion;
      return {
        protocolVersion: LEGACY_VERSIONS.has(asked) ? asked : "2025-11-25",
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
      };
    }
    case "server/discover":
      // -32601 answers a modern client's probe in legacy mode: "legacy server".
      return modern ? DISCOVER : undefined;
    case "tools/call":
      if (params?.name === "ask") {
        if (!modern || params._meta === undefined) throw new Refusal(-32602, "ask: only in the modern era");
        return ask(params);
      }
      return { content: [{ type: "text", text: params?.arguments?.text }] };
    case "tools/list":
      return { tools: modern ? [ECHO, ASK] : [ECHO] };
    case "ping":
      return {};
    default:
      return undefined;
  }
}

/** The JSON-RPC response to one request. */
export function reply(msg, modern) {
  try {
    const answer = result(msg, modern);
    if (answer === undefined) return { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } };
    if (modern && msg.params?._meta !== undefined && answer.resultType === undefined) answer.resultType = "complete";
    return { jsonrpc: "2.0", id: msg.id, result: answer };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { jsonrpc: "2.0", id: msg.id, error: { code: error.code, message: error.message } };
  }
}

export function eraOf(argv) {
  const i = argv.indexOf("--era");
  const era = i >= 0 ? argv[i + 1] : "legacy";
  if (era !== "legacy" && era !== "modern") throw new Error(`--era must be legacy or modern, got ${era}`);
  return era;
}

function serve(modern) {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) {
      if (line === "") continue;
      const msg = JSON.parse(line);
      if (msg.id === undefined || msg.method === undefined) continue; // notifications, responses
      out += JSON.stringify(reply(msg, modern)) + "\n";
    }
    if (out !== "") process.stdout.write(out);
  });
  process.stdin.on("end", () => process.exit(0));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) serve(eraOf(process.argv.slice(2)) === "modern");
