// MRTR over Streamable HTTP (2026-07-28): the stdio row's work (each tools/call answered
// `input_required` with one form elicitation, answered by the client's Handler and retried with
// `inputResponses` and the echoed `requestState`) against the bare node:net server of the HTTP
// rows, in its own process: two POSTs per call, each with the envelope and its headers.
//
// As in the stdio row, Conduit's per-server inputRateLimit is raised out of reach (its default
// would refuse a benchmark's inputs) and still consulted on every input.
import { ASK_ARGS, checkAsk, connectChecked, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawHttpServer } from "../lib/targets.mjs";
// The stdio row's target and input rate limit: the same work, over another transport.
import { TARGET, UNBOUNDED } from "./mrtr-elicitation.mjs";

const NAME = "MRTR: one elicitation round per call (modern, Streamable HTTP)";

export default {
  id: "mrtr-elicitation-http",
  name: NAME,
  rows: [{ key: "rate", name: NAME, unit: "calls/s", better: "higher", target: TARGET }],
  defaults: { rounds: 9, calls: 500, warmup: 1_000 },

  async open(client) {
    const server = await rawHttpServer("modern");
    return connectChecked(client, server.target, { era: "modern", inputRateLimit: UNBOUNDED }, checkAsk, server);
  },

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup, "ask", ASK_ARGS),

  async sample(connection, { calls }) {
    const { seconds } = await measure(() => sequentialCalls(connection, calls, "ask", ASK_ARGS));
    return { rate: calls / seconds };
  },

  close: (connection) => connection.close(),
};
