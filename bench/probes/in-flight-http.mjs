// `node in-flight-http.mjs <client> <rounds> <calls> <width>…`: calls in flight on one Streamable HTTP
// connection (legacy, with its session) in a fresh process, against raw-http-server.mjs in a
// process of its own. For each width given: one unmeasured round of `width`
// calls (it opens the sockets: every client here sends each request on a keep-alive socket of
// its own, so 10 000 in flight are 10 000 sockets; Node's agents keep at most 256 idle ones,
// fetch's keep them 4 s), then `rounds` measured ones of max(calls, 2 × width) calls; reports
// per width the medians of the rounds' calls/s, p50 and p99 (keys as inFlightRows names them).
// A fresh process per measurement, because 10 000 sockets per client would not fit four
// clients into one process's file table, and idle sockets of one client must not sit in the
// next client's rounds.
import { timedInFlight } from "../lib/in-flight.mjs";
import { checkEcho } from "../lib/calls.mjs";
import { median } from "../lib/stats.mjs";
import { rawHttpServer } from "../lib/targets.mjs";
import { clientArg, emit } from "./emit.mjs";

const name = clientArg();
const rounds = Number(process.argv[3]);
const calls = Number(process.argv[4]);
const widths = process.argv.slice(5).map(Number);
const { connect } = await import(`../clients/${name}.mjs`);
const server = await rawHttpServer("legacy");
try {
  const connection = await connect(server.target, { era: "legacy" });
  try {
    await checkEcho(connection);
    const result = {};
    for (const width of widths) {
      const n = Math.max(calls, 2 * width);
      await timedInFlight(connection, width, width);
      const taken = [];
      for (let i = 0; i < rounds; i++) taken.push(await timedInFlight(connection, n, width));
      const of = (key) => median(taken.map((sample) => sample[key]));
      Object.assign(result, { [`rate${width}`]: of("rate"), [`p50_${width}`]: of("p50"), [`p99_${width}`]: of("p99") });
    }
    emit(result);
  } finally {
    await connection.close();
  }
} finally {
  await server.close();
}
