// A minimal MCP server over Streamable HTTP, on bare `node:http`, so that its cost per call is
// as small as it can be and the benchmark measures the clients, not it. Every reply is one JSON
// body (never an event stream); there is no standalone GET stream (405).
//
//   node raw-http-server.mjs [--era legacy|modern]
//
// It listens on 127.0.0.1 at a free port, prints {"url":"…"} as its only line on stdout, and
// exits when stdin ends, so it never outlives the process that spawned it. It answers as
// raw-stdio-server.mjs does; over HTTP, legacy requests need the session `initialize` gave
// (Mcp-Session-Id) and modern requests (those with `_meta`, modern mode only) need the
// MCP-Protocol-Version and Mcp-Method headers that match their body.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { eraOf, MODERN_VERSION, reply } from "./raw-stdio-server.mjs";

const modern = eraOf(process.argv.slice(2)) === "modern";
const sessions = new Set();
const JSON_TYPE = { "content-type": "application/json" };

function send(res, status, body, headers = JSON_TYPE) {
  res.writeHead(status, headers);
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

const refusal = (id, code, message) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });

/** Why this request may not be answered, as [status, body]; undefined when it may. */
function refuse(req, msg) {
  if (msg.method === "initialize" || msg.method === "server/discover") return undefined;
  if (modern && msg.params?._meta !== undefined) {
    const version = req.headers["mcp-protocol-version"];
    if (version !== MODERN_VERSION) return [400, refusal(msg.id, -32022, `unsupported MCP-Protocol-Version ${version}`)];
    if (req.headers["mcp-method"] !== msg.method) return [400, refusal(msg.id, -32020, "Mcp-Method does not match the body")];
    return undefined;
  }
  const session = req.headers["mcp-session-id"];
  if (session === undefined) return [400, refusal(msg.id, -32000, "Bad Request: no session id")];
  if (!sessions.has(session)) return [404, refusal(msg.id, -32001, "Session not found")];
  return undefined;
}

function post(req, res, text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return send(res, 400, refusal(null, -32700, "Parse error"));
  }
  const refused = refuse(req, msg);
  if (refused !== undefined) return send(res, ...refused);
  if (msg.id === undefined || msg.method === undefined) return send(res, 202); // notifications, responses
  const answer = reply(msg, modern);
  if (msg.method === "initialize" && answer.result !== undefined) {
    const session = randomUUID();
    sessions.add(session);
    return send(res, 200, answer, { ...JSON_TYPE, "mcp-session-id": session });
  }
  send(res, 200, answer);
}

const server = createServer((req, res) => {
  if (req.method === "DELETE") {
    sessions.delete(req.headers["mcp-session-id"]);
    return send(res, 200);
  }
  if (req.method !== "POST") return send(res, 405, undefined, { allow: "POST, DELETE" });
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (text += chunk));
  req.on("end", () => post(req, res, text));
});
// Longer than any pause between one client's rounds: a socket the server closes while the
// client reuses it would be a reset the benchmark did not mean to measure.
server.keepAliveTimeout = 120_000;

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
