// stdio servers connected at once: 10, 100 and 1 000 children of the awk server
// (servers/tiny-stdio-server.awk, well under a megabyte a process, so that a thousand fit), each
// library as it is naturally used (Conduit: one Client; the official client: a Client and a
// transport per server; the bare loop: a pipe pair per child), eight connects at a time. Per
// size: the wall time until all are ready, memory per server (lib/servers-at-once.mjs says
// which measure and why), and the CPU and timers while all sit idle.
import { serversAtOnce } from "../lib/servers-at-once.mjs";

export default serversAtOnce({
  id: "servers-stdio",
  transport: "stdio",
  what: (n) => `${n} stdio servers connected at once`,
  target: { vs: "sdk", max: 0.3, text: "≤ 0.3× the official client" },
});
