// Streamable HTTP connections at once: 10, 100 and 1 000 connections (legacy, each with its
// standalone GET stream open) to one bench/servers/idle-http-server.mjs in its own process,
// each library as it is naturally used (Conduit: one Client; the official client: a Client and
// a transport per server; the bare loop: one keep-alive agent), eight connects at a time. Per
// size: the wall time until all are ready, memory per connection (lib/servers-at-once.mjs says
// which measure and why), and the CPU and timers while all sit idle.
import { serversAtOnce } from "../lib/servers-at-once.mjs";

export default serversAtOnce({
  id: "servers-http",
  transport: "http",
  what: (n) => `${n} Streamable HTTP connections at once`,
  target: { vs: "sdk", max: 0.3, text: "≤ 0.3× the official client" },
});
