// MRTR over stdio (2026-07-28): each tools/call is answered `input_required` with one form
// elicitation; the client runs its Handler (Conduit: the whole input pipeline, checks on) and
// retries with `inputResponses` and the echoed `requestState`. Rate in completed calls per second.
//
// Conduit's per-server inputRateLimit (default 10/s, burst 20) would refuse all but the first
// inputs of a benchmark: it is raised out of reach here, and the bucket is still consulted on
// every input. Nothing else is changed.
import { ASK_ARGS, checkAsk, connectChecked, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

const NAME = "MRTR: one elicitation round per call (modern, stdio)";
export const TARGET = {
  all: [
    { vs: "raw", min: 0.9 },
    { vs: "sdk", min: 2 },
  ],
  text: "≥ 0.9× the bare loop and ≥ 2× the official client",
};
export const UNBOUNDED = { perSecond: 1e9, burst: 1e9 };

export default {
  id: "mrtr-elicitation",
  name: NAME,
  rows: [{ key: "rate", name: NAME, unit: "calls/s", better: "higher", target: TARGET }],
  defaults: { rounds: 9, calls: 1_000, warmup: 2_000 },

  open: (client) => connectChecked(client, rawStdioServer("modern"), { era: "modern", inputRateLimit: UNBOUNDED }, checkAsk),

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup, "ask", ASK_ARGS),

  async sample(connection, { calls }) {
    const { seconds } = await measure(() => sequentialCalls(connection, calls, "ask", ASK_ARGS));
    return { rate: calls / seconds };
  },

  close: (connection) => connection.close(),
};
