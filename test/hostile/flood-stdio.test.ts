// A server that floods the client with requests over stdio, as fast as its pipe takes them.
//
// Not reading the answers: the client stops reading that server while more than
// ANSWER_BACKLOG_BYTES of answers wait for it, so its memory stays bounded, nothing is dropped
// or logged, and every answer arrives once the server reads again. Reading them: the Handler
// sees only what maxServerRequests and inputRateLimit allow, every request is answered, and a
// refusal is logged at the 1st, 10th, 100th, … only. Meanwhile a call to another server on the
// same Client keeps answering, its latency measured against a generous bound.
import { describe, expect, it } from "vitest";
import { Client, type Handler, type ServerHandle } from "../../src/node.js";
import { deferred, startRawStdio, type RawStdioServer, type Tally } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { ANSWER_BACKLOG_BYTES, MAX_QUEUED_WRITE_BYTES } from "../../src/node/stdin-writer.js";
import { countingLogger, FLOOD_TEST_TIMEOUT_MS, FLOOD_WAIT_MS, LATENCY_BOUND_MS, MB, probeLatency, sampleMemory, slowestOf, type CountingLogger } from "./probe.js";
import { count as n, safetyRow } from "./safety.js";

/** `maxServerRequests`' default: callbacks of one server at once. */
const MAX_SERVER_REQUESTS = 8;
/** The heap a flood whose answers are read may take. */
const HEAP_BOUND_MB = 200;
/** The rate budget's burst, and next to no refill: the count does not depend on how long the flood takes. */
const BURST = 20;
/** Refusals logged at most: the 1st, 10th, 100th, 1 000th and 10 000th. */
const REFUSAL_WARNINGS = 5;


interface Setup {
  raw: RawStdioServer;
  flooder: ServerHandle;
  quiet: ServerHandle;
  logger: CountingLogger;
}

async function setup(handler: Handler, options: { inputRateLimit?: { perSecond: number; burst: number } } = {}): Promise<Setup> {
  const logger = countingLogger();
  const client = track(new Client({ name: "h", version: "0", logger, handler, ...options }));
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  // A server that stops reading does not see its stdin end either: no need to wait long on close.
  const flooder = await client.connect("flooder", raw.target, { closeGracePeriod: 100 });
  await raw.next("notifications/initialized");
  const other = track(await startRawStdio());
  other.autoInitialize();
  other.handle("tools/call", () => ({ content: [{ type: "text", text: "still here" }] }));
  const quiet = await client.connect("quiet", other.target);
  // The answers to the flood are counted by the relay: kept here, they would weigh on the test.
  await raw.tally("flood-");
  return { raw, flooder, quiet, logger };
}

const answer = (quiet: ServerHandle) => () => quiet.callTool("t", {});

/** The tally once `count` answers were counted, or what was counted when they do not come. */
function tallyOf(raw: RawStdioServer, count: number): Promise<Tally> {
  return raw.tallied(count, FLOOD_WAIT_MS).catch(() => raw.tallied(0));
}

describe("a server that floods pings and does not read the answers", () => {
  it("is not read either until it does: bounded memory, no answer lost, nothing logged, the other server answers", async (context) => {
    const count = 300_000;
    const heapBoundMb = 32;
    const { raw, flooder, quiet, logger } = await setup({ listRoots: () => ({ roots: [] }) });
    await raw.stopReading();
    const memory = sampleMemory();
    let written = false;
    const flood = raw.flood({ count }).then((ack) => {
      written = true;
      return ack;
    });
    // While the server does not read, calls to the other server go on; they also give the
    // client time to read all it would of the flood.
    const slowest = await slowestOf(300, answer(quiet));
    const stalled = memory.stop();
    // The flood's answers weigh 15 MB: had the client kept reading, all would have been written.
    expect(written, "the client kept reading a server that does not read its answers").toBe(false);
    await raw.resumeReading();
    expect((await flood).ok).toBe(true);
    expect(await tallyOf(raw, count)).toEqual({ answers: count, results: count, errors: {} });
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(0);
    expect(stalled.heapUsed / MB).toBeLessThan(heapBoundMb);
    expect(slowest).toBeLessThan(LATENCY_BOUND_MS);
    await flooder.ping();
    expect(flooder.state).toBe("ready");
    safetyRow(context, {
      area: "Floods",
      tried: `${n(count)} \`ping\` requests as fast as the pipe takes them, the answers not read`,
      over: "stdio",
      outcome: `the server is not read while ${n(ANSWER_BACKLOG_BYTES / MB)} MiB of answers waits for it (\`ANSWER_BACKLOG_BYTES\`); once it reads, all ${n(count)} answers arrive, none lost, nothing logged; heap < ${heapBoundMb} MiB; another server's calls < ${n(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});

describe("a flood of roots/list requests whose answers are read", () => {
  const count = 100_000;

  it("runs at most maxServerRequests callbacks at once, and answers the rest busy", async (context) => {
    const release = deferred<void>();
    let calls = 0;
    let running = 0;
    let most = 0;
    const handler: Handler = {
      listRoots: async () => {
        calls += 1;
        most = Math.max(most, ++running);
        await release.promise;
        running -= 1;
        return { roots: [] };
      },
    };
    const { raw, flooder, quiet, logger } = await setup(handler);
    const memory = sampleMemory();
    const latency = probeLatency(answer(quiet));
    expect((await raw.flood({ count, method: "roots/list" })).ok).toBe(true);
    const busy = await tallyOf(raw, count - MAX_SERVER_REQUESTS);
    const probe = await latency.stop();
    const peak = memory.stop();
    expect(busy).toEqual({ answers: count - MAX_SERVER_REQUESTS, results: 0, errors: { "-32000": count - MAX_SERVER_REQUESTS } });
    expect(calls).toBe(MAX_SERVER_REQUESTS);
    expect(most).toBe(MAX_SERVER_REQUESTS);
    release.resolve();
    expect(await tallyOf(raw, count)).toEqual({ answers: count, results: MAX_SERVER_REQUESTS, errors: { "-32000": count - MAX_SERVER_REQUESTS } });
    expect(flooder.stats().busyRefusals).toBe(count - MAX_SERVER_REQUESTS);
    // The 1st, 10th, …, 10 000th refusal.
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(REFUSAL_WARNINGS);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${n(count)} \`roots/list\` requests while the Handler is busy, the answers read`,
      over: "stdio",
      outcome: `${MAX_SERVER_REQUESTS} callbacks run (\`maxServerRequests\`), the other ${n(count - MAX_SERVER_REQUESTS)} are answered \`-32000\` and counted (\`stats().busyRefusals\`), ${REFUSAL_WARNINGS} warnings (the 1st, 10th, …); heap < ${HEAP_BOUND_MB} MiB; another server's calls < ${n(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);

  it("calls the Handler only within inputRateLimit", async (context) => {
    let calls = 0;
    const handler: Handler = {
      listRoots: () => {
        calls += 1;
        return { roots: [] };
      },
    };
    const { raw, flooder, quiet, logger } = await setup(handler, { inputRateLimit: { perSecond: 0.001, burst: BURST } });
    const memory = sampleMemory();
    const latency = probeLatency(answer(quiet));
    expect((await raw.flood({ count, method: "roots/list" })).ok).toBe(true);
    const tally = await tallyOf(raw, count);
    const probe = await latency.stop();
    const peak = memory.stop();
    // Each chunk read lets maxServerRequests through to the rate budget, and no more than its
    // burst is ever spent.
    expect(calls).toBeGreaterThanOrEqual(MAX_SERVER_REQUESTS);
    expect(calls).toBeLessThanOrEqual(BURST);
    expect(tally).toEqual({ answers: count, results: calls, errors: { "-32000": count - calls } });
    const stats = flooder.stats();
    expect(stats.busyRefusals + stats.inputsOverBudget).toBe(count - calls);
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBeLessThanOrEqual(REFUSAL_WARNINGS);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${n(count)} \`roots/list\` requests against an \`inputRateLimit\` burst of ${BURST}`,
      over: "stdio",
      outcome: `the Handler runs at most ${BURST} times; every other request is answered \`-32000\` and counted; at most ${REFUSAL_WARNINGS} warnings; heap < ${HEAP_BOUND_MB} MiB; another server's calls < ${n(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});

describe("an answer that finds more than MAX_QUEUED_WRITE_BYTES waiting", () => {
  it("ends the connection with a transport error naming the bound: it cannot be dropped", async (context) => {
    const { raw, flooder } = await setup({ listRoots: () => ({ roots: [] }) });
    await raw.stopReading();
    // The client's own calls fill what may wait (they alone never stop the reading)…
    const payload = "x".repeat(MB);
    const calls: Array<Promise<unknown>> = [];
    let refused: unknown;
    for (let i = 0; i < (2 * MAX_QUEUED_WRITE_BYTES) / MB && refused === undefined; i++) {
      calls.push(flooder.callTool("big", { payload }).catch((error: unknown) => (refused ??= error)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(refused).toMatchObject({ kind: "transport", message: expect.stringContaining(`(the bound is ${MAX_QUEUED_WRITE_BYTES})`) });
    // …then the server asks, and its answer has nowhere to go.
    await raw.send({ jsonrpc: "2.0", id: "late", method: "ping" });
    const ended = await flooder.closed;
    expect(ended).toMatchObject({ kind: "transport", serverId: "flooder", message: expect.stringContaining("the server is not reading its input") });
    for (const call of calls) expect(await call).toMatchObject({ kind: "transport" });
    safetyRow(context, {
      area: "Floods",
      tried: `a server that stops reading its input while the client has ${n(MAX_QUEUED_WRITE_BYTES / MB)} MiB to send it`,
      over: "stdio",
      outcome: `a new call fails with \`transport\` naming the ${n(MAX_QUEUED_WRITE_BYTES / MB)} MiB bound (\`MAX_QUEUED_WRITE_BYTES\`); an answer the server then asks for, which cannot be dropped, ends the connection with \`transport\` ("the server is not reading its input")`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});
