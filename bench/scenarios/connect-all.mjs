// 50 stdio servers connected at once, each measurement in a fresh process
// (bench/probes/connect-all.mjs) against the hand-written legacy stdio server: Conduit's
// connectAll (one Client) against the official client with one Client per server, connected
// eight at a time the same way. Rows: the wall time until all are ready, and the resident set
// size each server adds to the host, settled.
import { runProbe } from "../lib/fresh-process.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

const SERVERS = 50;

export default {
  id: "connect-all",
  name: "50 stdio servers connected at once",
  fresh: true,
  repetitions: 3,
  clients: ["conduit", "sdk"],
  rows: [
    { key: "ms", name: "50 stdio servers connected at once: wall time", unit: "ms", better: "lower" },
    {
      key: "perServer",
      name: "50 stdio servers connected at once: RSS per server",
      unit: "KiB",
      better: "lower",
      target: { vs: "sdk", max: 0.3, text: "≤ 0.3× the official client" },
    },
  ],

  async measure(client) {
    const target = rawStdioServer("legacy");
    const { last } = await runProbe("connect-all", [client, SERVERS, target.command, ...target.args], { nodeArgs: ["--expose-gc"] });
    return { ms: last.ms, perServer: last.perServer / 1024 };
  },
};
