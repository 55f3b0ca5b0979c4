// Sequential tools/call over stdio against a legacy server: the per-call overhead of a client
// on the path most hosts use most, as throughput and as the client's own CPU time.
import { checkEcho, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

const NAME = "sequential tools/call over stdio (legacy)";
const CPU_TARGET = { vs: "raw", max: 1.1, text: "≤ 1.1× the bare loop" };

export default {
  id: "stdio-sequential",
  name: NAME,
  rows: [
    { key: "rate", name: NAME, unit: "calls/s", better: "higher" },
    { key: "cpu", name: `${NAME}, client CPU`, unit: "µs/call", better: "lower", target: CPU_TARGET },
  ],

  async open(client) {
    const connection = await client.connect(rawStdioServer());
    try {
      await checkEcho(connection);
    } catch (error) {
      await connection.close();
      throw error;
    }
    return connection;
  },

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup),

  async sample(connection, { calls }) {
    const { seconds, cpuMicros } = await measure(() => sequentialCalls(connection, calls));
    return { rate: calls / seconds, cpu: cpuMicros / calls };
  },

  close: (connection) => connection.close(),
};
