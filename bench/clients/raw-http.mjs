// The raw client's Streamable HTTP side: one POST per message on `node:http` with a keep-alive
// agent, a JSON reply parsed whole. No event streams, no checks. Not a client of its own (the
// list of clients is index.mjs).
import http from "node:http";

const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export function httpRequester(target) {
  const url = new URL(target.url);
  const agent = new http.Agent({ keepAlive: true });
  const base = { ...BASE_HEADERS, ...target.headers };
  let nextId = 0;
  let modern = false;

  const send = (method, body, headers) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, agent, headers: { ...base, ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode, session: res.headers["mcp-session-id"], text }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });

  return {
    started(version) {
      modern = version === "2026-07-28";
      base["mcp-protocol-version"] = version;
    },
    async request(method, params, name) {
      const headers = modern ? (name === undefined ? { "mcp-method": method } : { "mcp-method": method, "mcp-name": name }) : undefined;
      const reply = await send("POST", JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }), headers);
      if (reply.session !== undefined) base["mcp-session-id"] = reply.session;
      const msg = JSON.parse(reply.text);
      if (msg.error !== undefined) throw new Error(`raw: HTTP ${reply.status}: ${msg.error.code} ${msg.error.message}`);
      return msg.result;
    },
    async notify(method) {
      const reply = await send("POST", JSON.stringify({ jsonrpc: "2.0", method }));
      if (reply.status !== 202) throw new Error(`raw: ${method} got HTTP ${reply.status}`);
    },
    async close() {
      try {
        if (base["mcp-session-id"] !== undefined) await send("DELETE", "");
      } finally {
        agent.destroy();
      }
    },
  };
}
