// Deadlines and rate limits run on a monotonic clock (`performance.now()`), not on the wall
// clock: a step of `Date.now()` by hours (NTP, a suspended laptop, a user changing the time)
// neither times a call out at once, nor holds it past its timeout, nor stops a token bucket from
// refilling, nor refills one.
//
// The fake clock fakes `Date` and `performance` together; `vi.setSystemTime` then steps the
// wall clock alone (timers and `performance.now()` keep their course), while
// `vi.advanceTimersByTimeAsync` moves both, as real time would. It is installed before the
// client exists, so that every timer the client arms runs on it.
import { describe, expect, it, vi } from "vitest";
import { Client, type ClientOptions, type ServerHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const HOURS = 3 * 60 * 60 * 1000;

function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
}

async function legacy(options: Partial<ClientOptions> = {}): Promise<{ raw: RawStdioServer; client: Client; server: ServerHandle }> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  const client = track(new Client({ name: "h", version: "0", logger: capturingLogger(), ...options }));
  const server = await client.connect("c", raw.target);
  return { raw, client, server };
}

/** The call's outcome so far: "pending", "resolved", or the error it failed with. */
function watch(call: Promise<unknown>): { readonly now: unknown } {
  const state = { now: "pending" as unknown };
  call.then(
    () => (state.now = "resolved"),
    (error: unknown) => (state.now = error),
  );
  return state;
}

describe("request deadlines", () => {
  it("a wall clock that jumps forward does not time out a 60 s call early", async () => {
    fakeClock();
    const { raw, server } = await legacy();
    // A short request first: it leaves the client's deadline timer armed for one second ahead.
    await server.ping({ timeout: 1000 });
    const call = watch(server.callTool("slow", {}, { timeout: 60_000 }));
    await raw.next("tools/call");
    vi.setSystemTime(Date.now() + HOURS);
    await vi.advanceTimersByTimeAsync(1000);
    await server.ping();
    expect(call.now).toBe("pending");
    await vi.advanceTimersByTimeAsync(59_000);
    await server.ping();
    expect(call.now).toMatchObject({ kind: "timeout" });
  });

  it("a wall clock that jumps back does not hold a 60 s call past its timeout", async () => {
    fakeClock();
    const { raw, server } = await legacy();
    const call = watch(server.callTool("slow", {}, { timeout: 60_000 }));
    await raw.next("tools/call");
    vi.setSystemTime(Date.now() - HOURS);
    await vi.advanceTimersByTimeAsync(60_000);
    await server.ping();
    expect(call.now).toMatchObject({ kind: "timeout" });
  });
});

describe("rate limits", () => {
  it("logRateLimit refills after the wall clock jumps back", async () => {
    const logs: unknown[] = [];
    fakeClock();
    const { raw, client, server } = await legacy({
      logRateLimit: { perSecond: 1, burst: 1 },
      handler: { handleLog: (_level, params) => void logs.push(params.data) },
    });
    const log = async (data: string): Promise<void> => {
      await raw.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
      // The ping's answer follows the entry on the same pipe: the client has read it.
      await server.ping();
      await client.notificationsSettled();
    };
    await log("one");
    vi.setSystemTime(Date.now() - HOURS);
    await vi.advanceTimersByTimeAsync(2000);
    await log("two");
    expect(logs).toEqual(["one", "two"]);
    expect(server.stats().logsDropped).toBe(0);
  });

  const ROOTS = { listRoots: () => ({ roots: [] }) };

  async function askRoots(raw: RawStdioServer, id: string): Promise<number | undefined> {
    await raw.send({ jsonrpc: "2.0", id, method: "roots/list" });
    const answer = await raw.next((m) => m.id === id && m.method === undefined);
    return answer.error?.code;
  }

  it("inputRateLimit refills after the wall clock jumps back", async () => {
    fakeClock();
    const { raw } = await legacy({ inputRateLimit: { perSecond: 1, burst: 1 }, handler: ROOTS });
    expect(await askRoots(raw, "r-1")).toBeUndefined();
    vi.setSystemTime(Date.now() - HOURS);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await askRoots(raw, "r-2")).toBeUndefined();
  });

  it("inputRateLimit does not refill when the wall clock jumps forward", async () => {
    fakeClock();
    const { raw, server } = await legacy({ inputRateLimit: { perSecond: 1, burst: 1 }, handler: ROOTS });
    expect(await askRoots(raw, "r-1")).toBeUndefined();
    // No time passes on the monotonic clock: the bucket is as empty as it was.
    vi.setSystemTime(Date.now() + HOURS);
    expect(await askRoots(raw, "r-2")).toBe(-32000);
    expect(server.stats().inputsOverBudget).toBe(1);
  });
});
