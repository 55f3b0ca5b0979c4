// 64 tools/call in flight over stdio (legacy): a host that fans out, with a pool that starts
// the next call as soon as one ends, so 64 stay outstanding at all times. What it measures is
// how a client's bookkeeping per pending call (ids, deadlines, maps) holds up under load.
import { callsInFlight, connectChecked } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

const NAME = "64 calls in flight over stdio";
const TARGET = { vs: "sdk", min: 2.5, text: "≥ 2.5× the official client" };
const IN_FLIGHT = 64;

export default {
  id: "stdio-concurrent",
  name: NAME,
  rows: [{ key: "rate", name: NAME, unit: "calls/s", better: "higher", target: TARGET }],
  defaults: { rounds: 9, calls: 4_000, warmup: 2_000 },

  open: (client) => connectChecked(client, rawStdioServer("legacy"), { era: "legacy" }),

  warmup: (connection, { warmup }) => callsInFlight(connection, warmup, IN_FLIGHT),

  async sample(connection, { calls }) {
    const { seconds } = await measure(() => callsInFlight(connection, calls, IN_FLIGHT));
    return { rate: calls / seconds };
  },

  close: (connection) => connection.close(),
};
