// A plain callTool that the server turns into a task (2026-07-28: any tool of a server with the
// tasks extension; 2025-11-25: a tool whose execution.taskSupport is "required") is followed
// until the task ends or its own TTL passes — not cut at the client's requestTimeout, which
// bounds each request of the follow — unless the caller gave a bound. A TTL is the server's
// hint: a year (or none) is not a wait of a year, the follow ends at MAX_UNASKED_FOLLOW_MS. A
// bound that ends the wait is named in the error and the task goes on (no tasks/cancel); the
// caller's signal cancels it with tasks/cancel, never notifications/cancelled. Raw stdio
// servers on a fake clock.
import { describe, expect, it, vi } from "vitest";
import { Client, type ClientOptions, type ServerHandle, type TaskHandle } from "../../src/node.js";
import { MAX_UNASKED_FOLLOW_MS } from "../../src/protocol/task-follow.js";
import { capturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type JsonObject, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { TASKS_EXTENSION, done, scriptTasks, type Step, type TaskScript } from "../helpers/modern-tasks.js";
import { track } from "../helpers/cleanup.js";

const YEAR = 365 * 24 * 3_600_000;
const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
const methods = (raw: RawStdioServer) => (raw.messages as RpcMessage[]).map((m) => m.method);

/** Resolves once the client has sent a request of `method` (an answered one is not in `next`). */
function arrival(raw: RawStdioServer, method: string): Promise<void> {
  if ((raw.messages as RpcMessage[]).some((m) => m.method === method)) return Promise.resolve();
  return new Promise((resolve) => {
    const off = raw.onMessage((message) => {
      if ((message as RpcMessage).method !== method) return;
      off();
      resolve();
    });
  });
}

/** Whether `promise` has settled, read without waiting for it. */
function watched(promise: Promise<unknown>): { outcome: Promise<unknown>; settled: () => boolean } {
  let settled = false;
  const outcome = promise.then(
    (value) => ((settled = true), value),
    (error: unknown) => ((settled = true), error),
  );
  return { outcome, settled: () => settled };
}

describe("2026-07-28: a plain callTool the server makes a task of", () => {
  const DISCOVERED = {
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
  };

  async function setup(steps: Step[], creation: JsonObject, options: Partial<ClientOptions> = {}): Promise<{ raw: RawStdioServer; server: ServerHandle; script: TaskScript }> {
    fakeClock();
    const raw = track(await startRawStdio());
    raw.handle("server/discover", () => DISCOVERED);
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    const script = scriptTasks(raw, steps, { creation });
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), ...options }));
    const server = await client.connect("tasks", raw.target);
    return { raw, server, script };
  }

  /** The client has read all the server wrote so far, and is asleep until its next poll. */
  const roundTrip = (server: ServerHandle) => server.listTools();

  /** Moves the clock `ms` on: the next tasks/get comes and its answer is read. */
  async function pollAfter(server: ServerHandle, script: TaskScript, ms: number): Promise<void> {
    const count = script.gets.length + 1;
    await vi.advanceTimersByTimeAsync(ms);
    await script.polled(count);
    await roundTrip(server);
  }

  /** Starts the call; resolves once the client has the task and sleeps until its first poll. */
  async function call(raw: RawStdioServer, server: ServerHandle, options?: Parameters<ServerHandle["callTool"]>[2]) {
    const handles: TaskHandle[] = [];
    const call = watched(server.callTool("slow", {}, { onTask: (task) => handles.push(task), ...options }));
    await arrival(raw, "tools/call");
    await roundTrip(server);
    expect(handles.map((h) => h.taskId)).toEqual(["task-1"]);
    return call;
  }

  it("is followed past the client's requestTimeout until the task ends", async () => {
    const working = { status: "working", ttlMs: null, pollIntervalMs: 1000 };
    const { raw, server, script } = await setup([working, working, working, working, done("at last")], { ttlMs: null, pollIntervalMs: 1000 }, { requestTimeout: 1000 });
    const { outcome, settled } = await call(raw, server);
    for (let i = 0; i < 4; i++) await pollAfter(server, script, 1000);
    // 4 000 ms: four times the requestTimeout, and the call still follows.
    expect(settled()).toBe(false);
    await pollAfter(server, script, 1000);
    expect(await outcome).toMatchObject({ content: [{ type: "text", text: "at last" }] });
    expect(script.cancels).toEqual([]);
  });

  it("is followed until its TTL passes, then given up with timeout naming the lifetime, the task not cancelled", async () => {
    const working = { status: "working", ttlMs: 2500, pollIntervalMs: 1000 };
    const { raw, server, script } = await setup([working], { ttlMs: 2500, pollIntervalMs: 1000 }, { requestTimeout: 1000 });
    const { outcome, settled } = await call(raw, server);
    await pollAfter(server, script, 1000);
    await pollAfter(server, script, 1000);
    expect(settled()).toBe(false);
    await pollAfter(server, script, 1000);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", serverId: "tasks" });
    expect((error as Error).message).toContain("lifetime of 2500 ms");
    expect(script.cancels).toEqual([]);
  });

  it("with a TTL of a year, is followed at most MAX_UNASKED_FOLLOW_MS, and the error says so", async () => {
    const working = { status: "working", ttlMs: YEAR, pollIntervalMs: 30_000 };
    const { raw, server, script } = await setup([working], { ttlMs: YEAR, pollIntervalMs: 30_000 });
    const { outcome, settled } = await call(raw, server);
    const polls = MAX_UNASKED_FOLLOW_MS / 30_000;
    for (let i = 1; i < polls; i++) await pollAfter(server, script, 30_000);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", serverId: "tasks" });
    expect((error as Error).message).toContain(`within ${MAX_UNASKED_FOLLOW_MS} ms, the longest a call follows a task it did not ask for`);
    expect(script.cancels).toEqual([]);
  });

  it.each([
    ["timeout", { timeout: 1500 }, "the call's timeout of 1500 ms"],
    ["maxTotalTimeout", { timeout: 60_000, maxTotalTimeout: 1500 }, "the call's maxTotalTimeout of 1500 ms"],
  ])("is bounded by the call's %s when given, which the error names; the task goes on", async (_what, bounds, named) => {
    const working = { status: "working", ttlMs: null, pollIntervalMs: 1000 };
    const { raw, server, script } = await setup([working], { ttlMs: null, pollIntervalMs: 1000 });
    const { outcome } = await call(raw, server, bounds);
    await pollAfter(server, script, 1000);
    await vi.advanceTimersByTimeAsync(500);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", serverId: "tasks" });
    expect((error as Error).message).toContain(`did not end within ${named}; it goes on at the server`);
    await roundTrip(server);
    expect(script.cancels).toEqual([]);
  });

  it("is cancelled with tasks/cancel when the caller's signal aborts it, never notifications/cancelled", async () => {
    const working = { status: "working", ttlMs: null, pollIntervalMs: 1000 };
    const { raw, server, script } = await setup([working], { ttlMs: null, pollIntervalMs: 1000 });
    const controller = new AbortController();
    const { outcome } = await call(raw, server, { signal: controller.signal });
    await pollAfter(server, script, 1000);
    controller.abort();
    expect(await outcome).toMatchObject({ kind: "cancelled", serverId: "tasks" });
    await roundTrip(server);
    expect(script.cancels.map((m) => m.params?.["taskId"])).toEqual(["task-1"]);
    expect(methods(raw)).not.toContain("notifications/cancelled");
  });
});

describe("2025-11-25: a plain callTool of a tool that requires a task", () => {
  const CAPABILITIES = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  const TOOLS = [{ name: "must", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }];

  /** tasks/get says input_required: the client then waits in tasks/result, which the test ends. */
  async function setup(ttl: number | null, options: Partial<ClientOptions> = {}) {
    fakeClock();
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: "2025-11-25", capabilities: CAPABILITIES });
    const task = (status: string): JsonObject => {
      const at = new Date(Date.now()).toISOString();
      return { taskId: "t-1", status, createdAt: at, lastUpdatedAt: at, ttl, pollInterval: 1000 };
    };
    raw.handle("tools/list", () => ({ tools: TOOLS }));
    raw.handle("tools/call", () => ({ task: task("working") }));
    raw.handle("tasks/get", () => task("input_required"));
    raw.handle("tasks/cancel", () => task("cancelled"));
    raw.handle("ping", () => ({}));
    const asked = deferred<RpcMessage>();
    const final = deferred<JsonObject>();
    raw.handle("tasks/result", (m) => (asked.resolve(m), final.promise));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), ...options }));
    const server = await client.connect("legacy", raw.target);
    return { raw, server, asked, final };
  }

  /** Starts the call; resolves once the client waits in tasks/result. */
  async function call(raw: RawStdioServer, server: ServerHandle, asked: Promise<RpcMessage>, options?: Parameters<ServerHandle["callTool"]>[2]) {
    const call = watched(server.callTool("must", {}, options));
    await arrival(raw, "tools/call");
    await server.ping();
    // The first poll, after the creation's interval.
    await vi.advanceTimersByTimeAsync(1000);
    await asked;
    return call;
  }

  it("is followed past the client's requestTimeout until tasks/result gives the end", async () => {
    const { raw, server, asked, final } = await setup(null, { requestTimeout: 1000 });
    const { outcome, settled } = await call(raw, server, asked.promise);
    await vi.advanceTimersByTimeAsync(10_000);
    await server.ping();
    expect(settled()).toBe(false);
    final.resolve({ content: [{ type: "text", text: "researched" }] });
    expect(await outcome).toMatchObject({ content: [{ type: "text", text: "researched" }] });
  });

  it("with a TTL of a year, waits in tasks/result at most MAX_UNASKED_FOLLOW_MS, says so, and neither cancels the task nor its request", async () => {
    const { raw, server, asked } = await setup(YEAR);
    const { outcome, settled } = await call(raw, server, asked.promise);
    await vi.advanceTimersByTimeAsync(MAX_UNASKED_FOLLOW_MS - 1000 - 1);
    await server.ping();
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", serverId: "legacy" });
    expect((error as Error).message).toContain(`within ${MAX_UNASKED_FOLLOW_MS} ms, the longest a call follows a task it did not ask for`);
    await server.ping();
    expect(methods(raw)).not.toContain("tasks/cancel");
    expect(methods(raw)).not.toContain("notifications/cancelled");
  });

  it("is cancelled with tasks/cancel when the caller's signal aborts it, tasks/result in flight", async () => {
    const { raw, server, asked } = await setup(null);
    const controller = new AbortController();
    const { outcome } = await call(raw, server, asked.promise, { signal: controller.signal });
    controller.abort();
    expect(await outcome).toMatchObject({ kind: "cancelled", serverId: "legacy" });
    await server.ping();
    expect(methods(raw)).toContain("tasks/cancel");
    expect(methods(raw)).not.toContain("notifications/cancelled");
  });
});
