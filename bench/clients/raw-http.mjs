// The raw client's Streamable HTTP side: one POST per message on `node:http` with a keep-alive
// agent, a JSON reply parsed whole. No event streams, no checks. Not a client of its own (the
// list of clients is index.mjs).
//
// As lean as a hand-written client can be: the session id and the protocol version change only
// at the handshake, so every request's options and headers are made once (per method and tool
// name in the modern era, whose Mcp-Method and Mcp-Name headers mirror the body) and reused,
// only Content-Length written per request. The headers are a raw list, which node:http stores
// as they are instead of building its own header map per request. The reply is collected as
// Buffer chunks and parsed once; its headers are read only at the handshake.
import http from "node:http";
import { urlToHttpOptions } from "node:url";

const MODERN = "2026-07-28";
const BASE_HEADERS = ["content-type", "application/json", "accept", "application/json, text/event-stream"];

export function httpRequester(target) {
  const url = new URL(target.url);
  const { hostname, port, path } = urlToHttpOptions(url);
  const agent = new http.Agent({ keepAlive: true });
  // The raw list has no Host of its own: node:http adds one only to header objects.
  let common = ["host", url.host, ...BASE_HEADERS, ...Object.entries(target.headers ?? {}).flat()];
  let modern = false;
  let session;
  let plain;
  const perMethod = new Map();
  let nextId = 0;

  /**
   * Request options with these headers and a Content-Length slot last, written per request:
   * node:http reads the list within http.request(), so requests in flight may share it.
   */
  const options = (method, headers) => ({ hostname, port, path, method, agent, headers: [...headers, "content-length", 0] });

  const optionsFor = (method, name) => {
    if (!modern) return (plain ??= options("POST", common));
    let byName = perMethod.get(method);
    if (byName === undefined) perMethod.set(method, (byName = new Map()));
    let made = byName.get(name);
    if (made === undefined) {
      const headers = [...common, "mcp-method", method];
      if (name !== undefined) headers.push("mcp-name", name);
      byName.set(name, (made = options("POST", headers)));
    }
    return made;
  };

  /** POSTs `body` and resolves with the reply's JSON-RPC result. */
  const exchange = (made, body, handshake) => {
    const headers = made.headers;
    headers[headers.length - 1] = Buffer.byteLength(body);
    return new Promise((resolve, reject) => {
      const req = http.request(made, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          try {
            const msg = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8"));
            if (handshake) session = res.headers["mcp-session-id"];
            if (msg.error !== undefined) reject(new Error(`raw: HTTP ${res.statusCode}: ${msg.error.code} ${msg.error.message}`));
            else resolve(msg.result);
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  };

  /** Sends `body` (empty for DELETE) and resolves with the reply's status once it has been read. */
  const status = (made, body) => {
    const headers = made.headers;
    headers[headers.length - 1] = Buffer.byteLength(body);
    return new Promise((resolve, reject) => {
      const req = http.request(made, (res) => {
        res.on("end", () => resolve(res.statusCode));
        res.resume();
      });
      req.on("error", reject);
      req.end(body);
    });
  };

  return {
    started(version) {
      modern = version === MODERN;
      common = [...common, "mcp-protocol-version", version];
      if (session !== undefined) common.push("mcp-session-id", session);
      plain = undefined;
      perMethod.clear();
    },
    /** `message`: the request's JSON text up to its id, which this adds (raw.mjs). */
    request(method, message, name) {
      return exchange(optionsFor(method, name), `${message},"id":${++nextId}}`, method === "initialize");
    },
    async notify(method) {
      const code = await status(optionsFor(method), `{"jsonrpc":"2.0","method":${JSON.stringify(method)}}`);
      if (code !== 202) throw new Error(`raw: ${method} got HTTP ${code}`);
    },
    async close() {
      try {
        if (session !== undefined) await status(options("DELETE", common), "");
      } finally {
        agent.destroy();
      }
    },
  };
}
