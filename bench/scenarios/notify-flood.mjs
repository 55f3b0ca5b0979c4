// Scale: notifications through the host's hooks, 10 000, 100 000 and 1 000 000 in one call
// (bench/probes/notify-flood.mjs, a fresh process each, against stress-server.mjs's `notify`):
// log messages (notifications/message) to the log hook, and progress (notifications/progress)
// to the call's progress hook. Rows per kind and size: messages per second, client CPU per
// message, and peak RSS growth over the call.
// Conduit's logRateLimit (default 50/s, burst 100) would drop all but the first hundred log
// messages: it is raised out of reach here, and the bucket is still consulted per message; the
// sanitiser stays on (as it always does). The AI SDK's client takes no notifications at all
// (a notification is an "Unsupported message type" error to it), so it has no row here.
import { MB } from "../lib/memory.mjs";
import { runProbe } from "../lib/fresh-process.mjs";
import { stressServer } from "../lib/stress-targets.mjs";
import { widthText } from "../lib/in-flight.mjs";

const SIZES = [10_000, 100_000, 1_000_000];
const KINDS = { log: "log messages", progress: "progress notifications" };
const TIMEOUT_MS = 300_000;

const rows = Object.entries(KINDS).flatMap(([kind, what]) =>
  SIZES.flatMap((size) => {
    const stem = `${widthText(size)} ${what} through the hooks`;
    const scale = (measure) => ({ curve: `notify-${kind}-${measure}`, x: size, xUnit: "messages" });
    return [
      { key: `${kind}Rate${size}`, name: stem, unit: "messages/s", better: "higher", scale: scale("rate") },
      { key: `${kind}Cpu${size}`, name: `${stem}: client CPU`, unit: "µs/message", better: "lower", scale: scale("cpu") },
      { key: `${kind}Growth${size}`, name: `${stem}: peak RSS growth`, unit: "MiB", better: "lower", scale: scale("growth") },
    ];
  }),
);

export default {
  id: "notify-flood",
  name: "notifications through the hooks",
  fresh: true,
  clients: ["conduit", "sdk", "raw"],
  repetitions: 3,
  warmup: false,
  rows,

  async measure(client) {
    const target = stressServer();
    const sample = {};
    for (const kind of Object.keys(KINDS)) {
      for (const size of SIZES) {
        const probeArgs = [client, kind, size, target.command, ...target.args];
        // One size that fails (the official client's call outlasts its 60 s default timeout at
        // 1 000 000 log messages) leaves its own rows empty, not the client's other sizes.
        const last = await runProbe("notify-flood", probeArgs, { nodeArgs: ["--expose-gc"], timeout: TIMEOUT_MS }).then(
          (probe) => probe.last,
          (error) => {
            process.stderr.write(`  ${client}: ${kind} × ${size} failed: ${error.message.split("\n").find((line) => /Error/.test(line)) ?? error.message}\n`);
            return { rate: null, cpu: null, growth: null };
          },
        );
        Object.assign(sample, { [`${kind}Rate${size}`]: last.rate, [`${kind}Cpu${size}`]: last.cpu, [`${kind}Growth${size}`]: last.growth == null ? null : last.growth / MB });
      }
    }
    return sample;
  },
};
