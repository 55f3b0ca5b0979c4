// The bare loop of the probes over Streamable HTTP (legacy): node:http with one keep-alive
// agent, `initialize`, `notifications/initialized` and the standalone GET stream held open,
// with no checks and no validation. What one idle connection costs at the least.
import http from "node:http";

const PROTOCOL_VERSION = "2025-11-25";

export function rawHttp() {
  const agent = new http.Agent({ keepAlive: true });

  const post = (url, session, message) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(message);
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": Buffer.byteLength(body) };
      if (session !== undefined) {
        headers["mcp-session-id"] = session;
        headers["mcp-protocol-version"] = PROTOCOL_VERSION;
      }
      const req = http.request(url, { method: "POST", headers, agent }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ session: res.headers["mcp-session-id"], body: text === "" ? undefined : JSON.parse(text) });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });

  const stream = (url, session) =>
    new Promise((resolve, reject) => {
      const headers = { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": PROTOCOL_VERSION };
      const req = http.request(url, { method: "GET", headers, agent }, (res) => {
        res.on("data", () => {}); // events would be handled here; an idle stream sends none
        resolve(req);
      });
      req.on("error", reject);
      req.end();
    });

  let nextId = 0;
  return {
    async connect(url) {
      const init = await post(url, undefined, {
        jsonrpc: "2.0",
        id: ++nextId,
        method: "initialize",
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench-raw", version: "1.0.0" } },
      });
      if (init.body?.result === undefined) throw new Error(`raw-http: initialize failed: ${JSON.stringify(init.body)}`);
      const session = init.session;
      await post(url, session, { jsonrpc: "2.0", method: "notifications/initialized" });
      const get = await stream(url, session);
      return {
        call: async (tool, args) => (await post(url, session, { jsonrpc: "2.0", id: ++nextId, method: "tools/call", params: { name: tool, arguments: args } })).body.result,
        close: () => get.destroy(),
      };
    },
    close: () => agent.destroy(),
  };
}
