// A legacy MCP server over stdio with many tools, for the catalog benchmark: `tools/list` gives
// `--tools N` tools (one page), each with a description and a small schema; calling `change`
// sends `notifications/tools/list_changed` before it answers. Exits when stdin ends.
//
//   node catalog-server.mjs [--tools N]
const at = process.argv.indexOf("--tools");
const count = at >= 0 ? Number(process.argv[at + 1]) : 100;
if (!Number.isInteger(count) || count < 1) throw new Error(`--tools must be a whole number of at least 1, got ${process.argv[at + 1]}`);

const TOOLS = Array.from({ length: count }, (_, i) => ({
  name: i === 0 ? "change" : `tool_${i}`,
  description: `Tool number ${i}, which does one thing well`,
  inputSchema: { type: "object", properties: { text: { type: "string", description: "what to work on" }, times: { type: "integer", minimum: 1 } }, required: ["text"] },
}));
const CHANGED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });

function result(msg) {
  switch (msg.method) {
    case "initialize":
      return { protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "bench-catalog-server", version: "1.0.0" } };
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      return { content: [{ type: "text", text: "ok" }] };
    case "ping":
      return {};
    default:
      return undefined;
  }
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
    if (msg.id === undefined || msg.method === undefined) continue;
    if (msg.method === "tools/call" && msg.params?.name === "change") out += CHANGED + "\n";
    const answer = result(msg);
    out += JSON.stringify(answer === undefined ? { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } } : { jsonrpc: "2.0", id: msg.id, result: answer }) + "\n";
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
