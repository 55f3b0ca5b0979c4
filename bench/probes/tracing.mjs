// `node tracing.mjs conduit <calls>`: sequential tools/call (2026-07-28, the raw stdio server's
// `echo`) from a Client without tracing and from one with `openTelemetry()` over the SDK's
// BasicTracerProvider (a simple processor into an exporter that drops what it is given: the cost
// of making, ending and propagating spans, not of shipping them). The two run in turns, five
// rounds each, in one process, so that both see the same machine; the order flips each round
// (off-on, on-off, …) so that a machine getting busier or quieter weighs on both alike, and the
// share is the median of each round's own on/off ratio (a pair measured in the same second).
import { performance } from "node:perf_hooks";
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Client } from "conduit-mcp";
import { openTelemetry } from "conduit-mcp/opentelemetry";
import { rawStdioServer } from "../lib/targets.mjs";
import { clientArg, emit } from "./emit.mjs";

clientArg(["conduit"]);
const calls = Number(process.argv[3] ?? 2000);
const dropped = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropped)] });
const tracing = openTelemetry({ tracerProvider: provider, propagator: new W3CTraceContextPropagator() });
propagation.disable();

async function open(traced) {
  const client = new Client({ name: "bench-tracing", version: "1.0.0", ...(traced ? { tracing } : {}) });
  const server = await client.connect("bench", rawStdioServer("modern"), { protocolVersion: "2026-07-28" });
  return { client, server };
}

const off = await open(false);
const on = await open(true);
const run = async ({ server }, n) => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await server.callTool("echo", { text: "x" });
  return n / ((performance.now() - t0) / 1000);
};
await run(off, 300);
await run(on, 300);
const offRates = [];
const onRates = [];
const shares = [];
for (let round = 0; round < 5; round++) {
  const first = round % 2 === 0 ? off : on;
  const a = await run(first, calls);
  const b = await run(first === off ? on : off, calls);
  const [offRate, onRate] = first === off ? [a, b] : [b, a];
  offRates.push(offRate);
  onRates.push(onRate);
  shares.push(onRate / offRate);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
emit({ offRate: median(offRates), onRate: median(onRates), onShare: median(shares) });
await off.client.close();
await on.client.close();
