// A minimal legacy MCP server over stdio (newline-delimited JSON-RPC), written by hand so that
// its cost per call is as small as it can be and the benchmark measures the clients, not it.
// It exits when stdin ends, so it never outlives the process that spawned it.

const VERSIONS = new Set(["2025-11-25", "2025-06-18"]);
const TOOLS = { tools: [{ name: "echo", description: "Echo the text back", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }] };

function answer(msg) {
  switch (msg.method) {
    case "initialize": {
      const asked = msg.params?.protocolVersion;
      return {
        protocolVersion: VERSIONS.has(asked) ? asked : "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "raw-stdio-server", version: "1.0.0" },
      };
    }
    case "tools/call":
      return { content: [{ type: "text", text: msg.params?.arguments?.text }] };
    case "tools/list":
      return TOOLS;
    case "ping":
      return {};
    default:
      return undefined;
  }
}

function reply(msg) {
  const result = answer(msg);
  if (result !== undefined) return JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
  // -32601 also answers a modern client's `server/discover` probe: "legacy server".
  return JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
}

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
    out += reply(msg) + "\n";
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
