// `node --expose-gc big-result.mjs <client> <bytes> <calls> <command> [args…]`: tool results of
// `bytes` characters over stdio, in a fresh process. Reports this process's peak resident set
// size up to the end of the first such result (import, connect, the result: as a host lives
// it), how far that peak rose over the settled baseline just before the call, and the median
// wall time of `calls` such calls, one after another, each result dropped once checked.
// A 100 kB call first runs the same code path, so no timed call is the first of its kind.
import { performance } from "node:perf_hooks";
import { PeakRss, maxRss, rss, settle } from "../lib/memory.mjs";
import { median } from "../lib/stats.mjs";
import { connectStdio, firstText } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const name = clientArg();
const bytes = Number(process.argv[3]);
const calls = Number(process.argv[4]);
const [command, ...args] = process.argv.slice(5);
const connection = await connectStdio(name, { command, args });

async function timedCall() {
  const t0 = performance.now();
  const result = await connection.call("blob", { bytes });
  const ms = performance.now() - t0;
  const length = firstText(result).length;
  if (length !== bytes) throw new Error(`the result held ${length} characters, not ${bytes}`);
  return ms;
}

try {
  if (firstText(await connection.call("prepare", { bytes })) !== "ready") throw new Error("prepare failed");
  if (firstText(await connection.call("blob", { bytes: 100_000 })).length !== 100_000) throw new Error("short warm-up result");
  await settle();
  const baseline = rss();
  const peak = new PeakRss();
  const times = [await timedCall()];
  const top = peak.stop();
  const peakRss = maxRss();
  for (let i = 1; i < calls; i++) times.push(await timedCall());
  emit({ ms: median(times), peakRss, growth: top - baseline, times });
} finally {
  await connection.close();
}
