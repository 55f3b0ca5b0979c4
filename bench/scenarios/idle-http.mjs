// 100 idle Streamable HTTP connections in one process, each measurement in a fresh process
// (bench/probes/idle-http.mjs) against bench/servers/idle-http-server.mjs in another process.
// Each library as it is naturally used: Conduit holds the 100 servers in one Client; the
// official client needs a Client and a transport per server; the bare loop shares one
// keep-alive agent. Every connection is initialised and has its standalone GET stream open
// (both libraries open it; the server keeps it open and silent). 20 connections are opened
// first to warm the code up; the row is the RSS the next 100 add, settled and collected, / 100,
// with V8's young generation pinned small (see the probe for why).
import { runProbe } from "../lib/fresh-process.mjs";

const CONNECTIONS = 100;

export default {
  id: "idle-http",
  name: "100 idle HTTP connections in one process",
  fresh: true,
  repetitions: 4,
  warmup: false,
  rows: [
    {
      key: "kib",
      name: "100 idle HTTP connections in one process: RSS per connection",
      unit: "KiB",
      better: "lower",
      target: { vs: "sdk", max: 0.3, text: "≤ 0.3× the official client" },
    },
  ],

  async measure(client) {
    const { last } = await runProbe("idle-http", [client, CONNECTIONS], { nodeArgs: ["--expose-gc", "--max-semi-space-size=1"] });
    if (last.streams !== last.open) throw new Error(`${last.streams} of ${last.open} GET streams were open`);
    return { kib: last.perConnection / 1024 };
  },
};
