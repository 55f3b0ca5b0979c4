// A legacy Streamable HTTP server that floods the client with requests on its GET stream (in a
// process of its own: flood-http-server.mjs). Each answer is a POST; at most 64 are on their way
// at once, and while others wait the client does not read the server's streams. So a server that
// holds the POSTs unanswered gets 64 of them and no more read, loses none of the answers once it
// takes them again, and nothing is logged; one that takes them gets every answer, the Handler
// called only within the budgets. A call to another server on the same Client answers meanwhile.
import { describe, expect, it } from "vitest";
import { Client, type Handler, type ServerHandle } from "../../src/node.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { startFloodHttp, type FloodHttpServer } from "./flood-http.js";
import { countingLogger, FLOOD_TEST_TIMEOUT_MS, FLOOD_WAIT_MS, LATENCY_BOUND_MS, MB, probeLatency, sampleMemory, slowestOf, type CountingLogger } from "./probe.js";
import { count, safetyRow } from "./safety.js";

/** The POSTs of answers on their way at once (MAX_PENDING_MESSAGES). */
const IN_FLIGHT = 64;
/** Each answer is a POST (some 1 000 a second with fetch): 2 000 cross the bound of 64 thirty times. */
const COUNT = 2_000;
/** The heap a flood may take. */
const HEAP_BOUND_MB = 200;
/** `maxServerRequests`' default, and the rate budget's burst (next to no refill). */
const MAX_SERVER_REQUESTS = 8;
const BURST = 20;
/** Refusals logged at most, of 2 000: the 1st, 10th, 100th and 1 000th. */
const REFUSAL_WARNINGS = 4;

interface Setup {
  srv: FloodHttpServer;
  flooder: ServerHandle;
  quiet: ServerHandle;
  logger: CountingLogger;
}

async function setup(backend: "node:http" | "fetch", handler: Handler, options: { inputRateLimit?: { perSecond: number; burst: number } } = {}): Promise<Setup> {
  const logger = countingLogger();
  const client = track(new Client({ name: "h", version: "0", logger, handler, ...options }));
  const srv = track(await startFloodHttp());
  const flooder = await client.connect("flooder", { url: srv.url, ...(backend === "fetch" ? { fetch: globalThis.fetch } : {}) });
  await srv.streamOpen();
  const other = track(await startRawStdio());
  other.autoInitialize();
  other.handle("tools/call", () => ({ content: [{ type: "text", text: "still here" }] }));
  const quiet = await client.connect("quiet", other.target);
  return { srv, flooder, quiet, logger };
}

describe.each(["node:http", "fetch"] as const)("a flood of pings over HTTP (%s)", (backend) => {
  it("whose answers the server holds: 64 on their way, the streams not read, none lost once it takes them", async (context) => {
    const { srv, flooder, quiet, logger } = await setup(backend, { listRoots: () => ({ roots: [] }) });
    await srv.reading(false);
    const memory = sampleMemory();
    const flood = srv.flood(COUNT);
    expect(await srv.held(IN_FLIGHT)).toBe(IN_FLIGHT);
    // While the server holds them, calls to the other server go on; and no 65th POST comes.
    const slowest = await slowestOf(100, () => quiet.callTool("t", {}));
    expect(await srv.held(IN_FLIGHT + 1, 200)).toBe(IN_FLIGHT);
    const stalled = memory.stop();
    await srv.reading(true);
    expect((await flood).ok).toBe(true);
    expect(await srv.tallied(COUNT, FLOOD_WAIT_MS)).toEqual({ answers: COUNT, results: COUNT, errors: {}, held: 0 });
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(0);
    expect(stalled.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(slowest).toBeLessThan(LATENCY_BOUND_MS);
    await flooder.ping();
    safetyRow(context, {
      area: "Floods",
      tried: `${count(COUNT)} \`ping\` requests on the GET stream, the POSTs of the answers held unanswered`,
      over: "Streamable HTTP (node:http and fetch)",
      outcome: `${IN_FLIGHT} answers on their way at once, the server's streams not read while more wait; once it takes them, all ${count(COUNT)} arrive, none lost, nothing logged; heap < ${HEAP_BOUND_MB} MiB; another server's calls < ${count(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});

describe("a flood of roots/list over HTTP whose answers are taken", () => {
  it("answers every one, calling the Handler only within inputRateLimit", async (context) => {
    let calls = 0;
    const handler: Handler = {
      listRoots: () => {
        calls += 1;
        return { roots: [] };
      },
    };
    const { srv, flooder, quiet, logger } = await setup("node:http", handler, { inputRateLimit: { perSecond: 0.001, burst: BURST } });
    const memory = sampleMemory();
    const latency = probeLatency(() => quiet.callTool("t", {}));
    expect((await srv.flood(COUNT, "roots/list")).ok).toBe(true);
    const tally = await srv.tallied(COUNT, FLOOD_WAIT_MS);
    const probe = await latency.stop();
    const peak = memory.stop();
    // Each chunk read lets maxServerRequests through to the rate budget, and no more than its
    // burst is ever spent.
    expect(calls).toBeGreaterThanOrEqual(MAX_SERVER_REQUESTS);
    expect(calls).toBeLessThanOrEqual(BURST);
    expect(tally).toEqual({ answers: COUNT, results: calls, errors: { "-32000": COUNT - calls }, held: 0 });
    const stats = flooder.stats();
    expect(stats.busyRefusals + stats.inputsOverBudget).toBe(COUNT - calls);
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBeLessThanOrEqual(REFUSAL_WARNINGS);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${count(COUNT)} \`roots/list\` requests on the GET stream against an \`inputRateLimit\` burst of ${BURST}`,
      over: "Streamable HTTP",
      outcome: `every one answered; the Handler runs at most ${BURST} times, the rest answered \`-32000\` and counted; at most ${REFUSAL_WARNINGS} warnings; heap < ${HEAP_BOUND_MB} MiB; another server's calls < ${count(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});
