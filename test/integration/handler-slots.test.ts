// `maxServerRequests` bounds the Handler callbacks of one connection that run at once. A
// callback cannot be killed: one that ignores `ctx.signal` after its timeout, or after the
// server's cancel, keeps its slot until its promise settles, and is counted in
// `stats().handlerOverruns`. What the cap refuses is counted in `stats().busyRefusals`, and the
// first refusal of a burst is logged.
import { describe, expect, it, vi } from "vitest";
import { Client, type ClientOptions, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/**
 * A `listRoots` that holds every call it gets until the test lets go (ignoring its signal), or,
 * once told to, answers at once.
 */
class Roots {
  running = 0;
  most = 0;
  calls = 0;
  holding = true;
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private readonly held: Array<() => void> = [];

  readonly listRoots = (): Promise<{ roots: never[] }> | { roots: never[] } => {
    this.calls += 1;
    for (const waiter of this.waiters.filter((w) => this.calls >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (!this.holding) return { roots: [] };
    this.running += 1;
    this.most = Math.max(this.most, this.running);
    return new Promise((resolve) =>
      this.held.push(() => {
        this.running -= 1;
        resolve({ roots: [] });
      }),
    );
  };

  /** Resolves once the callback has been called `count` times in all. */
  called(count: number): Promise<void> {
    if (this.calls >= count) return Promise.resolve();
    const done = deferred<void>();
    this.waiters.push({ count, resolve: () => done.resolve() });
    return done.promise;
  }

  release(): void {
    for (const letGo of this.held.splice(0)) letGo();
  }
}

async function setup(roots: Roots, options: Partial<ClientOptions>): Promise<{ raw: RawStdioServer; server: ServerHandle; logger: CapturingLogger }> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  const logger = capturingLogger();
  const client = track(
    new Client({ name: "h", version: "0", logger, handler: { listRoots: roots.listRoots }, inputRateLimit: { perSecond: 1000, burst: 1000 }, ...options }),
  );
  const server = await client.connect("s", raw.target);
  return { raw, server, logger };
}

function ask(raw: RawStdioServer, id: string): Promise<unknown> {
  return raw.send({ jsonrpc: "2.0", id, method: "roots/list" });
}

function answerTo(raw: RawStdioServer, id: string): Promise<RpcMessage> {
  return raw.next((m) => m.id === id && m.method === undefined);
}

describe("a callback that outlives its answer keeps its slot", () => {
  it("with maxServerRequests 8, at most 8 callbacks run at once though each times out and never settles", async () => {
    const roots = new Roots();
    const { raw, server } = await setup(roots, { maxServerRequests: 8, handlerTimeout: { default: 1000 } });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    for (let i = 0; i < 8; i++) await ask(raw, `a-${i}`);
    await roots.called(8);
    await vi.advanceTimersByTimeAsync(1000);
    for (let i = 0; i < 8; i++) expect((await answerTo(raw, `a-${i}`)).error?.code).toBe(-32603);
    // Every slot is still held by a callback that ignored its signal: the next 16 are refused.
    for (let i = 0; i < 16; i++) await ask(raw, `b-${i}`);
    const refusals = Promise.all(Array.from({ length: 16 }, (_, i) => answerTo(raw, `b-${i}`)));
    // Either all 16 are answered, or a ninth callback started: whichever comes first.
    const outcome = await Promise.race([refusals, roots.called(9).then(() => "a ninth callback ran")]);
    expect(roots.most).toBe(8);
    expect(Array.isArray(outcome) ? outcome.map((m) => m.error?.code) : outcome).toEqual(Array(16).fill(-32000));
    // Once they settle the slots are free again, and the overruns were counted.
    roots.holding = false;
    roots.release();
    await ask(raw, "c-1");
    expect((await answerTo(raw, "c-1")).result).toEqual({ roots: [] });
    expect(server.stats().handlerOverruns).toBe(8);
  });

  it("a callback that outlives the server's cancel keeps its slot until it settles", async () => {
    const roots = new Roots();
    const { raw, server } = await setup(roots, { maxServerRequests: 1 });
    await ask(raw, "x-1");
    await roots.called(1);
    await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "x-1", reason: "no longer needed" } });
    // A round trip: the cancel has been read and acted on before the next request comes.
    await server.ping();
    await ask(raw, "x-2");
    const outcome = await Promise.race([answerTo(raw, "x-2"), roots.called(2).then(() => "a second callback ran")]);
    expect(outcome).toMatchObject({ error: { code: -32000 } });
    roots.holding = false;
    roots.release();
    await ask(raw, "x-3");
    expect((await answerTo(raw, "x-3")).result).toEqual({ roots: [] });
    expect(server.stats().handlerOverruns).toBe(1);
  });
});

describe("refusals over maxServerRequests", () => {
  it("are counted in stats().busyRefusals, and the first of the burst is logged", async () => {
    const roots = new Roots();
    const { raw, server, logger } = await setup(roots, { maxServerRequests: 1 });
    await ask(raw, "r-1");
    await roots.called(1);
    const warningsBefore = logger.at("warn").length;
    for (const id of ["r-2", "r-3", "r-4"]) {
      await ask(raw, id);
      expect((await answerTo(raw, id)).error?.code).toBe(-32000);
    }
    expect(server.stats().busyRefusals).toBe(3);
    expect(logger.at("warn").length - warningsBefore).toBe(1);
    roots.release();
    expect((await answerTo(raw, "r-1")).result).toEqual({ roots: [] });
  });
});
