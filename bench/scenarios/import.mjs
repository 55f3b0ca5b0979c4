// Import: how long `await import()` of the library's main entry takes in a fresh Node process
// (bench/probes/import.mjs), Node's own start-up excluded. The official client's main entry is
// `@modelcontextprotocol/client` alone (its stdio transport is a separate entry, not counted);
// Conduit's is `conduit-mcp`, which holds both transports. The bare loop imports nothing.
import { runProbe } from "../lib/fresh-process.mjs";

export default {
  id: "import",
  name: "import",
  fresh: true,
  clients: ["conduit", "sdk"],
  repetitions: 11,
  rows: [
    {
      key: "ms",
      name: "import of the main entry (fresh process)",
      unit: "ms",
      better: "lower",
      target: { vs: "sdk", max: 0.15, text: "≤ 0.15× the official client" },
    },
  ],

  async measure(client) {
    const { last } = await runProbe("import", [client]);
    return { ms: last.ms };
  },
};
