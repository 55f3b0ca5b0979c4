// Scale: calls in flight on one Streamable HTTP connection (legacy, with its session), 64,
// 1 000 and 10 000 at once, against raw-http-server.mjs; calls/s and the p50/p99 of each call's
// own latency. Each measurement is a fresh process (bench/probes/in-flight-http.mjs: one
// client's thousands of sockets must not sit in another's file table or rounds); the rows are
// the medians of the measurements, each the median of its rounds.
// No client here caps the requests in flight: each POST takes a socket of its own (Conduit's
// keep-alive agent has no maxSockets; fetch's pool has none either), so none waits in a client.
import { runProbe } from "../lib/fresh-process.mjs";
import { WIDTHS, inFlightRows, widthText } from "../lib/in-flight.mjs";

const ROUNDS = 1;
const CALLS = 2_000;
// Per width: the official client and the AI SDK's need minutes at 10 000, if they finish.
const TIMEOUT_MS = 120_000;

export default {
  id: "in-flight-http",
  name: "calls in flight on one Streamable HTTP connection",
  fresh: true,
  clients: ["conduit", "sdk", "raw", "ai-sdk"],
  repetitions: 3,
  warmup: false,
  rows: inFlightRows("http", (width) => `${widthText(width)} calls in flight on one Streamable HTTP connection (legacy)`),

  async measure(client) {
    const sample = {};
    for (const width of WIDTHS) {
      // A width a client cannot finish in time leaves its own rows empty, not the others.
      const last = await runProbe("in-flight-http", [client, ROUNDS, CALLS, width], { timeout: TIMEOUT_MS }).then(
        (probe) => probe.last,
        (error) => {
          process.stderr.write(`  ${client}: ${width} in flight failed: ${error.message.split("\n")[0]}\n`);
          return {};
        },
      );
      Object.assign(sample, last);
    }
    return sample;
  },
};
