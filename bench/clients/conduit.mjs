// Conduit, through its public API only, as a user would import it.
import { Client } from "conduit-mcp";

export const name = "conduit";

export async function connect(target) {
  const client = new Client({ name: "bench-conduit", version: "1.0.0" });
  try {
    const server = await client.connect("bench", target);
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
