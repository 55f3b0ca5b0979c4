// `node --expose-gc notify-flood.mjs <client> <log|progress> <count> <command> [args…]`: one
// tools/call (`notify` of stress-server.mjs) during which the server writes `count`
// notifications as fast as the pipe takes them, then answers; every message goes through the
// client's hook (log: the log hook; progress: the call's progress hook), which counts. Reports
// messages per second (from the call to its answer, which comes after the last message), this
// process's CPU per message, and its peak RSS over the settled baseline before the call.
// Conduit keeps its sanitiser on (as it always is); its log rate limit is raised out of reach,
// as the scenario says, so that every log message is delivered, not dropped.
import { performance } from "node:perf_hooks";
import { PeakRss, rss, settle } from "../lib/memory.mjs";
import { connectStdio, firstText } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const WARMUP = 5_000;
const UNBOUNDED = { perSecond: 1e9, burst: 1e9 };

const name = clientArg(["conduit", "sdk", "raw"]);
const kind = process.argv[3];
const count = Number(process.argv[4]);
const [command, ...args] = process.argv.slice(5);
if (kind !== "log" && kind !== "progress") throw new Error(`kind must be log or progress, got ${kind}`);

let seen = 0;
const hook = () => void seen++;
const connection = await connectStdio(name, { command, args }, kind === "log" ? { onLog: hook, logRateLimit: UNBOUNDED } : {});
/** One notify call; resolves when its answer and every hook call before it are in. */
async function run(n) {
  seen = 0;
  const result = await connection.call("notify", { count: n, kind }, kind === "progress" ? hook : undefined);
  if (firstText(result) !== "done") throw new Error("notify did not answer done");
  // Conduit runs log hooks off the reading path, in its notification queue: let it drain.
  for (let i = 0; i < 100 && seen < n; i++) await new Promise((resolve) => setImmediate(resolve));
  // The official client drops the progress that arrives just before the answer (its handler for
  // the token is gone by the time it runs them): counted as `lost`, not failed. Any other shortfall fails.
  if (seen !== n && !(name === "sdk" && kind === "progress")) throw new Error(`${n} ${kind} notifications sent, ${seen} reached the hook`);
  return n - seen;
}
try {
  await run(WARMUP);
  await settle();
  const baseline = rss();
  const peak = new PeakRss();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const lost = await run(count);
  const seconds = (performance.now() - t0) / 1_000;
  const cpu = process.cpuUsage(cpu0);
  const top = peak.stop();
  emit({ rate: count / seconds, cpu: (cpu.user + cpu.system) / count, growth: top - baseline, baseline, lost });
} finally {
  await connection.close();
}
