// Servers that flood notifications: a million log lines, progress for tokens nobody sent, and
// resource updates faster than the host's hooks take them, over stdio and Streamable HTTP.
//
// The hooks see only what the budgets allow (the log rate; the queue's 1 000 places), the rest
// is counted in `stats()`, memory stays bounded, and the other server on the same Client is not
// touched: its calls keep answering, and its own notifications reach the hooks even while the
// flooder holds every place of the queue (the server that holds the most loses its newest).
import { describe, expect, it, vi } from "vitest";
import { Client, type Handler, type ServerHandle } from "../../src/node.js";
import { deferred, startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { startFloodHttp } from "./flood-http.js";
import { countingLogger, FLOOD_TEST_TIMEOUT_MS, FLOOD_WAIT_MS, LATENCY_BOUND_MS, MB, probeLatency, sampleMemory, type CountingLogger } from "./probe.js";
import { count, safetyRow } from "./safety.js";

/** Generous too: what the client keeps of a flood is counters, not the messages. */
const HEAP_BOUND_MB = 64;

type Transport = "stdio" | "Streamable HTTP";

/**
 * Over HTTP the flood's stream and the answer to a ping travel on different connections: what
 * the server wrote may still be on its way when the ping returns. Waits for a counter instead.
 */
async function until(what: () => number, value: number): Promise<void> {
  await vi.waitFor(() => expect(what()).toBeGreaterThanOrEqual(value), { timeout: FLOOD_WAIT_MS, interval: 20 });
}

interface Flooder {
  handle: ServerHandle;
  /** Writes `n` notifications of `method`; resolves once the client read them all. */
  flood(n: number, method: string, params: Record<string, unknown>): Promise<{ ok: boolean }>;
}

interface Setup {
  client: Client;
  flooder: Flooder;
  quiet: ServerHandle;
  quietRaw: RawStdioServer;
  logger: CountingLogger;
}

async function setup(transport: Transport, handler: Handler, options: Partial<ConstructorParameters<typeof Client>[0]> = {}): Promise<Setup> {
  const logger = countingLogger();
  const client = track(new Client({ name: "h", version: "0", logger, handler, ...options }));
  let flooder: Flooder;
  if (transport === "stdio") {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("ping", () => ({}));
    const handle = await client.connect("flooder", raw.target);
    await raw.next("notifications/initialized");
    flooder = { handle, flood: (n, method, params) => raw.flood({ count: n, method, params, notify: true }) };
  } else {
    const srv = track(await startFloodHttp());
    const handle = await client.connect("flooder", { url: srv.url });
    await srv.streamOpen();
    flooder = { handle, flood: (n, method, params) => srv.floodNotifications(n, method, params) };
  }
  const quietRaw = track(await startRawStdio());
  quietRaw.autoInitialize();
  quietRaw.handle("tools/call", () => ({ content: [{ type: "text", text: "still here" }] }));
  const quiet = await client.connect("quiet", quietRaw.target);
  await quietRaw.next("notifications/initialized");
  return { client, flooder, quiet, quietRaw, logger };
}

/** Counts hook calls per server. */
function tally(): { of: Record<string, number>; add(serverId: string): void } {
  const of: Record<string, number> = {};
  return { of, add: (serverId) => void (of[serverId] = (of[serverId] ?? 0) + 1) };
}

describe.each(["stdio", "Streamable HTTP"] as const)("notification floods over %s", (transport) => {
  // Each line of a stdio flood is parsed; over HTTP each event goes through the SSE reader too.
  const LOG_LINES = 1_000_000;

  it(`${count(LOG_LINES)} log lines: handleLog sees the rate's burst, the rest counted, the other server's entry arrives`, async (context) => {
    const logs = tally();
    const BURST = 100;
    // Next to no refill: the count does not depend on how long the flood takes.
    const { client, flooder, quiet, quietRaw, logger } = await setup(transport, { handleLog: (_level, _params, ctx) => logs.add(ctx.serverId) }, { logRateLimit: { perSecond: 0.001, burst: BURST } });
    const memory = sampleMemory();
    const latency = probeLatency(() => quiet.callTool("t", {}));
    expect((await flooder.flood(LOG_LINES, "notifications/message", { level: "info", logger: "flood", data: "a line of a flood" })).ok).toBe(true);
    await until(() => flooder.handle.stats().logsDropped, LOG_LINES - BURST);
    await quietRaw.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", data: "mine" } });
    await quiet.callTool("t", {});
    await client.notificationsSettled();
    const probe = await latency.stop();
    const peak = memory.stop();
    expect(logs.of).toEqual({ flooder: BURST, quiet: 1 });
    expect(flooder.handle.stats()).toMatchObject({ logsDropped: LOG_LINES - BURST, notificationsDropped: 0, invalidMessages: 0 });
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(0);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${count(LOG_LINES)} log lines (\`notifications/message\`)`,
      over: transport,
      outcome: `\`handleLog\` gets the \`logRateLimit\` burst (${BURST} here), the other ${count(LOG_LINES - BURST)} are counted in \`stats().logsDropped\`; nothing logged by the client; heap < ${HEAP_BOUND_MB} MiB; another server's calls and log entry go on (calls < ${count(LATENCY_BOUND_MS)} ms)`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);

  const PROGRESS = 100_000;

  it(`${count(PROGRESS)} progress notifications for tokens never sent: counted, no hook runs`, async (context) => {
    const hooks = tally();
    const { client, flooder, quiet, logger } = await setup(transport, { handleNotification: (_method, _params, ctx) => hooks.add(ctx.serverId) });
    const memory = sampleMemory();
    const latency = probeLatency(() => quiet.callTool("t", {}));
    const half = PROGRESS / 2;
    // A number the client never used as a token, and a string, which it never uses at all.
    expect((await flooder.flood(half, "notifications/progress", { progressToken: 987_654, progress: 1, total: 2 })).ok).toBe(true);
    expect((await flooder.flood(half, "notifications/progress", { progressToken: "nobody's", progress: 1 })).ok).toBe(true);
    await until(() => flooder.handle.stats().strayProgress, PROGRESS);
    await client.notificationsSettled();
    const probe = await latency.stop();
    const peak = memory.stop();
    expect(hooks.of).toEqual({});
    expect(flooder.handle.stats()).toMatchObject({ strayProgress: PROGRESS, notificationsDropped: 0, invalidMessages: 0 });
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(0);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${count(PROGRESS)} \`notifications/progress\` for tokens the client never sent (numbers and strings)`,
      over: transport,
      outcome: `no hook runs and nothing is logged: all ${count(PROGRESS)} counted in \`stats().strayProgress\`; heap < ${HEAP_BOUND_MB} MiB; another server's calls < ${count(LATENCY_BOUND_MS)} ms`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);

  const UPDATES = 100_000;
  const PLACES = 1_000;
  /** The 1st, 10th, 100th, 1 000th and 10 000th drop. */
  const DROP_WARNINGS = 5;

  it(`${count(UPDATES)} resource updates while the hook is busy: ${count(PLACES)} places, the flooder loses its own, never the other server's`, async (context) => {
    const hooks = tally();
    const order: string[] = [];
    const busy = deferred<void>();
    const handler: Handler = {
      handleNotification: async (_method, _params, ctx) => {
        hooks.add(ctx.serverId);
        order.push(ctx.serverId);
        await busy.promise;
      },
    };
    const { client, flooder, quiet, quietRaw, logger } = await setup(transport, handler, { maxQueuedNotifications: PLACES });
    const memory = sampleMemory();
    const latency = probeLatency(() => quiet.callTool("t", {}));
    const uri = "file:///flood.txt";
    expect((await flooder.flood(UPDATES, "notifications/resources/updated", { uri })).ok).toBe(true);
    // One running, a thousand waiting, the rest dropped.
    await until(() => flooder.handle.stats().notificationsDropped, UPDATES - PLACES - 1);
    // The queue is full of the flooder's: the quiet server's update takes the place of its newest.
    await quietRaw.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///mine.txt" } });
    await quiet.callTool("t", {});
    const probe = await latency.stop();
    const peak = memory.stop();
    // One runs (the hook holds it), a thousand wait: 999 of the flooder's, one of the quiet server's.
    const dropped = UPDATES - PLACES;
    expect(flooder.handle.stats().notificationsDropped).toBe(dropped);
    expect(quiet.stats().notificationsDropped).toBe(0);
    expect(client.droppedNotifications).toBe(dropped);
    busy.resolve();
    await client.notificationsSettled();
    expect(hooks.of).toEqual({ flooder: PLACES, quiet: 1 });
    expect(order.at(-1)).toBe("quiet");
    expect(logger.warnings, logger.firstWarnings.join("\n")).toBe(DROP_WARNINGS);
    expect(peak.heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    safetyRow(context, {
      area: "Floods",
      tried: `${count(UPDATES)} \`notifications/resources/updated\` while the host's hook is busy`,
      over: transport,
      outcome: `${count(PLACES)} wait for the hooks (\`maxQueuedNotifications\`), ${count(dropped)} of the flooder's are dropped and counted (\`stats().notificationsDropped\`), ${DROP_WARNINGS} warnings (the 1st, 10th, …); another server's update still gets a place (the flooder loses its newest); heap < ${HEAP_BOUND_MB} MiB`,
    });
  }, FLOOD_TEST_TIMEOUT_MS);
});
