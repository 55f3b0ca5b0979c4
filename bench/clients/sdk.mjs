// The official MCP TypeScript client (@modelcontextprotocol/client), with its defaults: the
// plain legacy `initialize` handshake (its `versionNegotiation` default is "legacy").
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

export const name = "sdk";

function transportFor(target) {
  if (target.url !== undefined) return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } });
  return new StdioClientTransport({ command: target.command, args: target.args ?? [], stderr: "inherit" });
}

export async function connect(target) {
  const client = new Client({ name: "bench-sdk", version: "1.0.0" });
  try {
    await client.connect(transportFor(target));
    return {
      protocolVersion: client.getNegotiatedProtocolVersion(),
      call: (tool, args) => client.callTool({ name: tool, arguments: args }),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
