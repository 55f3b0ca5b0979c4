// End to end: sequential tools/call over stdio against a server built on the official server
// library (test/fixtures/official-server.mjs, legacy era). The server's own cost is most of each
// call here, so the ratios are smaller than against the raw server: this row says what a user
// sees, the raw-server rows say what the client costs.
import { connectChecked, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { officialStdioServer } from "../lib/targets.mjs";

const NAME = "sequential tools/call over stdio, official server (legacy)";

export default {
  id: "official-server-sequential",
  name: NAME,
  rows: [{ key: "rate", name: NAME, unit: "calls/s", better: "higher" }],
  defaults: { rounds: 7, calls: 1_000, warmup: 2_000 },

  open: (client) => connectChecked(client, officialStdioServer(), { era: "legacy" }),

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup),

  async sample(connection, { calls }) {
    const { seconds } = await measure(() => sequentialCalls(connection, calls));
    return { rate: calls / seconds };
  },

  close: (connection) => connection.close(),
};
