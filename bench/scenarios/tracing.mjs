// Tracing (issue 25): a call with tracing off (no `tracing` option: no span, nothing added to a
// request) against on (`conduit-mcp/opentelemetry` over the SDK's tracer, spans dropped at export),
// stdio, 2026-07-28. Conduit alone: the official client has no tracing to compare.
import { runProbe } from "../lib/fresh-process.mjs";

export default {
  id: "tracing",
  name: "A call with tracing off against on",
  fresh: true,
  repetitions: 3,
  clients: ["conduit"],
  rows: [
    { key: "offRate", name: "stdio sequential, modern, tracing off", unit: "calls/s", better: "higher" },
    { key: "onRate", name: "stdio sequential, modern, tracing on (OpenTelemetry SDK)", unit: "calls/s", better: "higher" },
    { key: "onShare", name: "tracing on / off", unit: "×", better: "higher" },
  ],

  async measure(client) {
    const { last } = await runProbe("tracing", [client, 2000]);
    return last;
  },
};
