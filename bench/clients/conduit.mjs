// Conduit, through its public API only, as a user would import it. It always has a Handler (its
// checks stay on in every scenario); it accepts every elicitation with { ok: true }.
//
// connect(target, { era, inputRateLimit }): era "modern" pins 2026-07-28 (it would pick it by
// itself against a server that answers server/discover; the pin makes a fallback an error);
// "legacy" leaves negotiation alone, and the probe falls back at once on the servers here.
import { Client } from "conduit-mcp";

export const name = "conduit";

const handler = {
  handleElicitation: () => ({ action: "accept", content: { ok: true } }),
};

export async function connect(target, { era = "legacy", inputRateLimit } = {}) {
  const client = new Client({ name: "bench-conduit", version: "1.0.0", handler, inputRateLimit });
  try {
    const server = await client.connect("bench", target, era === "modern" ? { protocolVersion: "2026-07-28" } : {});
    return {
      protocolVersion: server.protocolVersion,
      call: (tool, args) => server.callTool(tool, args),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
