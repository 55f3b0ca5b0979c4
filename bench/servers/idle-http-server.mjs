// A minimal legacy Streamable HTTP MCP server (2025-11-25 basic/transports) for the idle-HTTP
// scenario: sessions, JSON answers, and the standalone GET event stream, which it keeps open
// and silent, as a real server does between events. It prints {"url"} on stdout once listening;
// GET /stats answers how many sessions, open streams and TCP connections it holds. It exits when stdin ends.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";

const VERSIONS = new Set(["2025-11-25", "2025-06-18"]);
const sessions = new Set();
const streams = new Set();
let deleted = 0;

function result(msg) {
  switch (msg.method) {
    case "initialize": {
      const asked = msg.params?.protocolVersion;
      return {
        protocolVersion: VERSIONS.has(asked) ? asked : "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "idle-http-server", version: "1.0.0" },
      };
    }
    case "tools/call":
      return { content: [{ type: "text", text: msg.params?.arguments?.text }] };
    case "tools/list":
      return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
    case "ping":
      return {};
    default:
      return undefined;
  }
}

function send(res, status, body, headers = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function post(req, res, body) {
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return send(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (msg.method === undefined || msg.id === undefined) return send(res, 202); // notifications, responses
  if (msg.method === "initialize") {
    const id = randomUUID();
    sessions.add(id);
    return send(res, 200, { jsonrpc: "2.0", id: msg.id, result: result(msg) }, { "mcp-session-id": id });
  }
  const value = result(msg);
  if (value === undefined) {
    // Also a modern client's `server/discover` probe: "legacy server".
    return send(res, 200, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
  }
  if (!sessions.has(req.headers["mcp-session-id"])) {
    return send(res, 404, { jsonrpc: "2.0", id: msg.id, error: { code: -32001, message: "Session not found" } });
  }
  return send(res, 200, { jsonrpc: "2.0", id: msg.id, result: value });
}

function openStream(req, res) {
  if (!sessions.has(req.headers["mcp-session-id"])) return send(res, 404);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  streams.add(res);
  res.on("close", () => streams.delete(res));
}

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    // The /stats request itself holds one connection: not counted.
    return server.getConnections((_, count) => send(res, 200, { sessions: sessions.size, streams: streams.size, sockets: count - 1, deleted }));
  }
  if (req.method === "GET") return openStream(req, res);
  if (req.method === "DELETE") {
    if (sessions.delete(req.headers["mcp-session-id"])) deleted += 1;
    return send(res, 200);
  }
  if (req.method !== "POST") return send(res, 405);
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => post(req, res, Buffer.concat(chunks).toString("utf8")));
});
server.keepAliveTimeout = 60_000;

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/mcp` })}\n`);
});

process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
