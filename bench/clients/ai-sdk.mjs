// The AI SDK's MCP client (@ai-sdk/mcp), configured as its docs say: `createMCPClient` with its
// stdio transport (`StdioMCPTransport` from "@ai-sdk/mcp/mcp-stdio") or its Streamable HTTP
// one (`transport: { type: "http", url }`).
// - It negotiates by itself: it sends `server/discover` first (2026-07-28) and falls back to
//   `initialize` (2025-11-25) when the server answers -32601. It has no pin, so "modern" here
//   is its default plus a check that it did land on 2026-07-28; "legacy" is its default too.
// - It answers elicitation through `onElicitationRequest`, which in the modern era also fulfils
//   MRTR input requests (form only).
// - It takes no in-band notifications at all (its docs say so): a log or progress message is
//   an "Unsupported message type" error handed to `onUncaughtError`. It has no log hook.
import { createMCPClient, ElicitationRequestSchema } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

export const name = "ai-sdk";

const MODERN = "2026-07-28";
const ACCEPT = { action: "accept", content: { ok: true } };

function transportFor(target) {
  if (target.url !== undefined) return { type: "http", url: target.url, headers: target.headers };
  return new StdioMCPTransport({ command: target.command, args: target.args ?? [], stderr: "inherit" });
}

export async function connect(target, { era = "legacy" } = {}) {
  const client = await createMCPClient({
    transport: transportFor(target),
    clientName: "bench-ai-sdk",
    version: "1.0.0",
    capabilities: { elicitation: { form: {} } },
    onUncaughtError: (error) => process.stderr.write(`ai-sdk: ${error?.message ?? error}\n`),
  });
  try {
    client.onElicitationRequest(ElicitationRequestSchema, () => ACCEPT);
    const protocolVersion = client.initializeResult.protocolVersion;
    if (era === "modern" && protocolVersion !== MODERN) throw new Error(`ai-sdk: negotiated ${protocolVersion}, not ${MODERN}`);
    return {
      protocolVersion,
      call: (tool, args) => client.callTool({ name: tool, arguments: args }),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** Fresh-process scenarios (their probes) measure this client only where they name it. */
export const optIn = true;
