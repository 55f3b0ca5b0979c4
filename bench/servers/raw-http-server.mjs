// A minimal MCP server over Streamable HTTP, written on bare `node:net` with a hand-rolled
// HTTP/1.1 parser, so that its cost per call is as small as it can be and the benchmark
// measures the clients, not it (node:http's server would cost more per request than the
// clients under test). Every reply is one JSON body with Content-Length (never an event stream);
// there is no standalone GET stream (405). Keep-alive, request bodies by Content-Length or
// chunked, several requests in one read.
//
//   node raw-http-server.mjs [--era legacy|modern]
//
// It listens on 127.0.0.1 at a free port, prints {"url":"…"} as its only line on stdout, and
// exits when stdin ends, so it never outlives the process that spawned it. It answers as
// raw-stdio-server.mjs does; over HTTP, legacy requests need the session `initialize` gave
// (Mcp-Session-Id) and modern requests (those with `_meta`, modern mode only) need the
// MCP-Protocol-Version and Mcp-Method headers that match their body.
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { eraOf, MODERN_VERSION, reply } from "./raw-stdio-server.mjs";

const modern = eraOf(process.argv.slice(2)) === "modern";
const sessions = new Set();
const REASONS = { 200: "OK", 202: "Accepted", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed" };

function respond(socket, status, body, extra = "") {
  const text = body === undefined ? "" : JSON.stringify(body);
  const type = body === undefined ? "" : "content-type: application/json\r\n";
  socket.write(`HTTP/1.1 ${status} ${REASONS[status]}\r\n${type}${extra}content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

const refusal = (id, code, message) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });

/** Why this request may not be answered, as [status, body]; undefined when it may. */
function refuse(headers, msg) {
  if (msg.method === "initialize" || msg.method === "server/discover") return undefined;
  if (modern && msg.params?._meta !== undefined) {
    const version = headers["mcp-protocol-version"];
    if (version !== MODERN_VERSION) return [400, refusal(msg.id, -32022, `unsupported MCP-Protocol-Version ${version}`)];
    if (headers["mcp-method"] !== msg.method) return [400, refusal(msg.id, -32020, "Mcp-Method does not match the body")];
    return undefined;
  }
  const session = headers["mcp-session-id"];
  if (session === undefined) return [400, refusal(msg.id, -32000, "Bad Request: no session id")];
  if (!sessions.has(session)) return [404, refusal(msg.id, -32001, "Session not found")];
  return undefined;
}

function handle(socket, method, headers, body) {
  if (method === "DELETE") {
    sessions.delete(headers["mcp-session-id"]);
    return respond(socket, 200);
  }
  if (method !== "POST") return respond(socket, 405, undefined, "allow: POST, DELETE\r\n");
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return respond(socket, 400, refusal(null, -32700, "Parse error"));
  }
  const refused = refuse(headers, msg);
  if (refused !== undefined) return respond(socket, ...refused);
  if (msg.id === undefined || msg.method === undefined) return respond(socket, 202); // notifications, responses
  const answer = reply(msg, modern);
  if (msg.method === "initialize" && answer.result !== undefined) {
    const session = randomUUID();
    sessions.add(session);
    return respond(socket, 200, answer, `mcp-session-id: ${session}\r\n`);
  }
  respond(socket, 200, answer);
}

/** Parses whole requests off the front of `buffer`; returns what is left for the next read. */
function parse(socket, buffer) {
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end === -1) return buffer;
    const lines = buffer.toString("latin1", 0, end).split("\r\n");
    const [method] = lines[0].split(" ");
    const headers = {};
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(":");
      headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
    }
    let start = end + 4;
    let body;
    if (headers["transfer-encoding"]?.includes("chunked")) {
      const chunks = [];
      let at = start;
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", at);
        if (lineEnd === -1) return buffer;
        const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return buffer;
        if (size === 0) {
          at = lineEnd + 4;
          break;
        }
        chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(chunks).toString("utf8");
      start = at;
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < start + length) return buffer;
      body = buffer.toString("utf8", start, start + length);
      start += length;
    }
    handle(socket, method, headers, body);
    buffer = buffer.subarray(start);
  }
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  socket.on("data", (chunk) => {
    pending = parse(socket, pending.length === 0 ? chunk : Buffer.concat([pending, chunk]));
  });
  socket.on("error", () => {});
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.stdin.on("end", () => process.exit(0));
