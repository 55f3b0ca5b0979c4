// Scale: calls in flight on one stdio connection (legacy), 64, 1 000 and 10 000 at once, each
// round a pool per width that keeps that many outstanding (lib/in-flight.mjs); calls/s and the
// p50/p99 of each call's own latency, medians of the interleaved rounds. By Little's law the
// p50 is about width ÷ rate for every client; the p99 shows who lets some calls wait longer.
// Conduit has no cap on the calls outstanding per server (its maxServerRequests bounds only
// what the server asks of the client), so no call waits in Conduit before it is written.
import { connectChecked } from "../lib/calls.mjs";
import { WIDTHS, callsAt, inFlightRows, sampleWidths, timedInFlight, widthText } from "../lib/in-flight.mjs";
import { rawStdioServer } from "../lib/targets.mjs";

export default {
  id: "in-flight-stdio",
  name: "calls in flight on one stdio connection",
  rows: inFlightRows("stdio", (width) => `${widthText(width)} calls in flight on one stdio connection (legacy)`),
  defaults: { rounds: 7, calls: 4_000, warmup: 2_000 },

  open: (client) => connectChecked(client, rawStdioServer("legacy"), { era: "legacy" }),

  async warmup(connection, { warmup }) {
    // One round at every width first, so that no measured round is the first to grow a map.
    for (const width of WIDTHS) await timedInFlight(connection, callsAt(width, warmup), width);
  },

  sample: (connection, { calls }) => sampleWidths(connection, calls),

  close: (connection) => connection.close(),
};
