// Sequential tools/call over stdio in the modern era (2026-07-28): the same per-call overhead as
// the legacy row, with the `_meta` envelope on every request and `resultType` on every result.
import { connectChecked, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

const NAME = "sequential tools/call over stdio (modern)";
const RATE_TARGET = { vs: "raw", min: 0.8, text: "≥ 0.8× the bare loop" };
const CPU_TARGET = { vs: "raw", max: 1.1, text: "≤ 1.1× the bare loop" };

export default {
  id: "stdio-sequential-modern",
  name: NAME,
  rows: [
    { key: "rate", name: NAME, unit: "calls/s", better: "higher", target: RATE_TARGET },
    { key: "cpu", name: `${NAME}, client CPU`, unit: "µs/call", better: "lower", target: CPU_TARGET },
  ],
  defaults: { rounds: 9, calls: 2_000, warmup: 2_000 },

  open: (client) => connectChecked(client, rawStdioServer("modern"), { era: "modern" }),

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup),

  async sample(connection, { calls }) {
    const { seconds, cpuMicros } = await measure(() => sequentialCalls(connection, calls));
    return { rate: calls / seconds, cpu: cpuMicros / calls };
  },

  close: (connection) => connection.close(),
};
