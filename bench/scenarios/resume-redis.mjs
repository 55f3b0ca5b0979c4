// Input answered by another worker (issue 24): one MRTR elicitation round per call, answered in
// the process by the Handler against parked as a PendingInput and resumed with its claim in a real
// Redis (bench/probes/resume-redis.mjs, a fresh process per measurement). Conduit alone: no other
// client can park a server's question. Needs `redis-server` (the row fails, and says so, without it).
import { runProbe } from "../lib/fresh-process.mjs";

export default {
  id: "resume-redis",
  name: "MRTR answered in-process against resumed through Redis",
  fresh: true,
  repetitions: 3,
  clients: ["conduit"],
  rows: [
    { key: "inProcessRate", name: "MRTR one round, answered by the Handler (stdio)", unit: "calls/s", better: "higher" },
    { key: "resumedRate", name: "MRTR one round, parked and resumed through Redis (stdio)", unit: "calls/s", better: "higher" },
    { key: "resumedShare", name: "resumed through Redis / answered in-process", unit: "×", better: "higher" },
  ],

  async measure(client) {
    const { last } = await runProbe("resume-redis", [client, 500]);
    return last;
  },
};
