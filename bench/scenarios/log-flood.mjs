// A 200 000-line log flood while calls run, each measurement in a fresh process (bench/probes/
// log-flood.mjs) against bench/servers/stress-server.mjs: the server writes notifications/message
// as fast as the pipe takes them while the client makes one tools/call after another, until an
// answer says the flood is over. Every client has a log hook; Conduit keeps its defaults, so
// its log rate limit drops most lines and the sanitiser cleans the rest.
// Rows: the calls' p99 latency, and the client's peak RSS over its settled baseline just
// before the flood.
import { MB } from "../lib/memory.mjs";
import { runProbe } from "../lib/fresh-process.mjs";
import { stressServer } from "../lib/stress-targets.mjs";

const LINES = 200_000;

export default {
  id: "log-flood",
  name: "200 000-line log flood while calls run",
  fresh: true,
  repetitions: 5,
  warmup: false,
  rows: [
    {
      key: "p99",
      name: "200 000-line log flood while calls run: call p99",
      unit: "ms",
      better: "lower",
      target: { vs: "raw", max: 2, text: "≤ 2× the bare loop" },
    },
    {
      key: "growth",
      name: "200 000-line log flood while calls run: peak RSS growth",
      unit: "MiB",
      better: "lower",
      target: { max: 16, text: "≤ 16 MiB" },
    },
  ],

  async measure(client) {
    const target = stressServer();
    const { last } = await runProbe("log-flood", [client, LINES, target.command, ...target.args], { nodeArgs: ["--expose-gc"] });
    return { p99: last.p99, growth: last.growth / MB };
  },
};
