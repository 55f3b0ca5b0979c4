// One 10 MB tool result over stdio, each measurement in a fresh process (bench/probes/
// big-result.mjs) against bench/servers/stress-server.mjs, which builds the text once and
// sends it as one line (10 000 000 printable ASCII characters with a line break every 100 and
// some quotes: about 10.1 MB of JSON, inside the official client's default 10 MiB stdio limit).
// Rows: the median time of 3 such calls after a warm-up one of 100 kB; the process's peak RSS
// up to the end of the first (import and connect included, as a host lives it); and how far
// that peak rose over the settled RSS just before the call (the cost of the result itself).
import { MB } from "../lib/memory.mjs";
import { runProbe } from "../lib/fresh-process.mjs";
import { stressServer } from "../lib/stress-targets.mjs";

const BYTES = 10_000_000;
const CALLS = 3;

export default {
  id: "big-result",
  name: "one 10 MB tool result over stdio",
  fresh: true,
  repetitions: 5,
  warmup: false,
  rows: [
    {
      key: "ms",
      name: "one 10 MB tool result over stdio: time",
      unit: "ms",
      better: "lower",
      target: { vs: "raw", max: 2, text: "≤ 2× the bare loop" },
    },
    {
      key: "peakRss",
      name: "one 10 MB tool result over stdio: peak RSS",
      unit: "MiB",
      better: "lower",
      target: { vs: "sdk", max: 0.7, text: "≤ 0.7× the official client" },
    },
    { key: "growth", name: "one 10 MB tool result over stdio: RSS growth over the call", unit: "MiB", better: "lower" },
  ],

  async measure(client) {
    const target = stressServer();
    const { last } = await runProbe("big-result", [client, BYTES, CALLS, target.command, ...target.args], { nodeArgs: ["--expose-gc"] });
    return { ms: last.ms, peakRss: last.peakRss / MB, growth: last.growth / MB };
  },
};
