// `node --expose-gc log-flood.mjs <client> <lines> <command> [args…]`: the server writes
// `lines` notifications/message as fast as the pipe takes them while this process makes one
// call after another; the calls run until one answer says the flood is over. Reports the
// calls' p99 latency and the peak resident set size over the baseline taken just before the
// flood. Every client has a log hook that counts; Conduit keeps its defaults (rate limit and
// sanitiser on).
import { performance } from "node:perf_hooks";
import { PeakRss, rss, settle } from "../lib/memory.mjs";
import { connectStdio, firstText } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const WARMUP_CALLS = 300;
const MAX_CALLS = 1_000_000;

const name = clientArg();
const lines = Number(process.argv[3]);
const [command, ...args] = process.argv.slice(4);
let logs = 0;
const connection = await connectStdio(name, { command, args }, { onLog: () => void logs++ });
try {
  for (let i = 0; i < WARMUP_CALLS; i++) firstText(await connection.call("status", {}));
  await settle();
  const baseline = rss();
  const peak = new PeakRss();

  firstText(await connection.call("flood", { lines }));
  const latencies = [];
  for (;;) {
    const t0 = performance.now();
    const left = Number(firstText(await connection.call("status", {})));
    latencies.push(performance.now() - t0);
    peak.sample();
    if (left === 0 || latencies.length >= MAX_CALLS) break;
  }
  const top = peak.stop();

  // Every line was written before the last answer, so every line has been read by now.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const dropped = connection.stats?.().logsDropped ?? 0;
  if (logs + dropped !== lines) throw new Error(`${lines} log lines sent, ${logs} delivered and ${dropped} dropped`);

  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
  emit({ p99: p(0.99), p50: p(0.5), calls: latencies.length, growth: top - baseline, baseline, logs, dropped });
} finally {
  await connection.close();
}
