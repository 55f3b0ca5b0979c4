// Cold start: a host's first moments, each in a fresh process (bench/probes/cold-start.mjs):
// start Node, import the client, spawn the stdio server and connect, make the first call.
// Wall time from the spawn of the process to the line it prints once the first answer is in.
// Conduit probes the era (server/discover) first, as it does by default; the server is the
// hand-written legacy one, so that the server's own start-up is as small as it can be.
import { runProbe } from "../lib/fresh-process.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

export default {
  id: "cold-start",
  name: "cold start over stdio",
  fresh: true,
  repetitions: 9,
  rows: [
    {
      key: "ms",
      name: "cold start: spawn, import, connect over stdio, first call",
      unit: "ms",
      better: "lower",
      target: { vs: "sdk", max: 0.7, text: "≤ 0.7× the official client" },
    },
  ],

  async measure(client) {
    const target = rawStdioServer("legacy");
    const { lines } = await runProbe("cold-start", [client, target.command, ...target.args]);
    const ready = lines.find((line) => line.value.ready === true);
    if (ready === undefined) throw new Error("the probe never reported its first answer");
    return { ms: ready.ms };
  },
};
