// 100 tasks followed at once, each with one input round, each measurement in a fresh process
// (bench/probes/tasks.mjs) against the bundled research server: the host's CPU time per task,
// and (2026-07-28) the polls per task against the poll intervals the tasks lived, ≈ 1 when the
// client polls at the server's interval and never earlier. Conduit alone: the official client
// has no tasks, and the bare loop none either.
import { fileURLToPath } from "node:url";
import { runProbe } from "../lib/fresh-process.mjs";

const SERVER = fileURLToPath(new URL("../../examples/servers/research-server.mjs", import.meta.url));

export default {
  id: "tasks",
  name: "100 tasks at once, one input round each",
  fresh: true,
  repetitions: 5,
  clients: ["conduit"],
  rows: [
    { key: "cpuModern", name: "100 tasks at once (2026-07-28): host CPU per task", unit: "ms", better: "lower" },
    { key: "pollRatio", name: "100 tasks at once (2026-07-28): polls per poll interval lived", unit: "×", better: "lower", target: { max: 1.2, text: "≤ 1.2 (never early)" } },
    { key: "cpuLegacy", name: "100 tasks at once (2025-11-25): host CPU per task", unit: "ms", better: "lower" },
  ],

  async measure(client) {
    const modern = (await runProbe("tasks", [client, "2026-07-28", process.execPath, SERVER])).last;
    const legacy = (await runProbe("tasks", [client, "2025-11-25", process.execPath, SERVER])).last;
    return { cpuModern: modern.cpuMs, pollRatio: modern.pollRatio, cpuLegacy: legacy.cpuMs };
  },
};
