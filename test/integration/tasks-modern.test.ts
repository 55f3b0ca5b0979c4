// Tasks of 2026-07-28 (the io.modelcontextprotocol/tasks extension) against a raw scripted
// server that follows the extension (test/helpers/modern-tasks.ts): the extension declared, the
// polymorphic tools/call result, polling at the server's interval (never early: fake clock),
// input requests repeated on every poll and answered once through the pipeline, tasks/update,
// completed and failed, cancel by tasks/cancel alone, and what no good server sends.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, isTask, type ClientOptions, type Handler, type ServerHandle, type TaskHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { TASKS_EXTENSION, done, elicitName, scriptTasks, type Step, type TaskScript } from "../helpers/modern-tasks.js";
import { track } from "../helpers/cleanup.js";

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
};

async function setup(handler?: Handler, options: Partial<ClientOptions> = {}): Promise<{ raw: RawStdioServer; server: ServerHandle; client: Client }> {
  const raw = track(await startRawStdio());
  raw.handle("server/discover", () => DISCOVERED);
  const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger(), ...options }));
  const server = await client.connect("tasks", raw.target);
  return { raw, server, client };
}

const sent = (raw: RawStdioServer): RpcMessage[] => raw.messages as RpcMessage[];
const methods = (raw: RawStdioServer): string[] => sent(raw).map((m) => m.method ?? "(response)");
const capabilitiesOf = (m: RpcMessage) => (m.params?.["_meta"] as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"];

afterEach(() => {
  vi.useRealTimers();
});

describe("a tools/call the server makes a task of", () => {
  it("is followed to its end by a plain callTool: input answered once through the Handler, sent with tasks/update", async () => {
    const asked: unknown[] = [];
    const { raw, server } = await setup({
      handleElicitation: (params, ctx) => {
        asked.push({ message: params.message, assigns: ctx.assigns, era: ctx.era });
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    const script = scriptTasks(raw, [
      { status: "working", statusMessage: "thinking" },
      { status: "input_required", inputRequests: { name: elicitName } },
      // The update is only eventually visible: the same request comes again.
      { status: "input_required", inputRequests: { name: elicitName } },
      { status: "working" },
      done("Hello, Ada!"),
    ]);
    const result = await server.callTool("hello", {}, { assigns: { turn: 3 } });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(asked).toEqual([{ message: "Your name?", assigns: { turn: 3 }, era: "modern" }]);
    expect(script.updates).toHaveLength(1);
    expect(script.updates[0]!.params).toMatchObject({ taskId: "task-1", inputResponses: { name: { action: "accept", content: { name: "Ada" } } } });
    expect(script.gets).toHaveLength(5);
    // Every request declared the extension; none was a cancellation.
    for (const m of sent(raw).filter((m) => m.method !== undefined && m.id !== undefined)) {
      expect(capabilitiesOf(m)).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    }
    expect(methods(raw)).not.toContain("notifications/cancelled");
  });

  it("with task: true, returns the handle; awaitTask follows it, telling onStatus of each new status", async () => {
    const { raw, server } = await setup({ handleElicitation: () => ({ action: "decline" }) });
    scriptTasks(raw, [{ status: "working", statusMessage: "a" }, { status: "working", statusMessage: "b" }, done("ok")], {
      creation: { statusMessage: "queued", pollIntervalMs: 20, ttlMs: 5000 },
    });
    const outcome = await server.callTool("slow", { n: 1 }, { task: true });
    expect(isTask(outcome)).toBe(true);
    const task = outcome as TaskHandle;
    expect(task).toMatchObject({ resultType: "task", serverId: "tasks", taskId: "task-1", status: "working", statusMessage: "queued", pollIntervalMs: 20, ttlMs: 5000 });
    expect(typeof task.createdAt).toBe("string");
    const seen: string[] = [];
    const result = await server.awaitTask(task, { onStatus: (t) => seen.push(`${t.status}:${t.statusMessage ?? ""}`) });
    expect(result.content).toEqual([{ type: "text", text: "ok" }]);
    expect(seen).toEqual(["working:queued", "working:a", "working:b", "completed:"]);
  });

  it("keeps a tool error (isError) a result: completed carries it", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "completed", result: { content: [{ type: "text", text: "bad input" }], isError: true } }]);
    const result = await server.callTool("t", {});
    expect(result.isError).toBe(true);
  });

  it("surfaces a failed task as task_failed with the server's error", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "working" }, { status: "failed", statusMessage: "boom", error: { code: -32603, message: "API rate limit exceeded", data: { retry: 5 } } }]);
    const error = await server.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "task_failed", code: -32603, data: { retry: 5 }, serverId: "tasks" });
  });

  it("ends with protocol when a key comes back naming another request, and answers nothing twice", async () => {
    let answers = 0;
    const { raw, server } = await setup({ handleElicitation: () => (answers++, { action: "accept", content: { name: "x" } }) });
    const other = { ...elicitName, params: { ...elicitName.params, message: "Your password?" } };
    scriptTasks(raw, [
      { status: "input_required", inputRequests: { name: elicitName } },
      { status: "input_required", inputRequests: { name: other } },
    ]);
    const error = await server.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol" });
    expect((error as Error).message).toContain("reused the input request key");
    expect(answers).toBe(1);
  });

  it("puts a task's input through the budget: over the rate limit, the follow ends with input_refused", async () => {
    const { raw, server } = await setup(
      { handleElicitation: () => ({ action: "accept", content: { name: "x" } }) },
      { inputRateLimit: { perSecond: 0.001, burst: 1 } },
    );
    const requests = Object.fromEntries(["a", "b", "c"].map((key) => [key, elicitName]));
    scriptTasks(raw, [{ status: "input_required", inputRequests: requests }]);
    const error = await server.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "input_refused" });
    expect(server.stats().inputsOverBudget).toBeGreaterThan(0);
  });
});

describe("many at once", () => {
  it("follows twenty tasks at once without a listener warning (each follower listens to the connection's life)", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { raw, server } = await setup();
      scriptTasks(raw, [{ status: "working" }, { status: "working" }, done("ok")]);
      const results = await Promise.all(Array.from({ length: 20 }, () => server.callTool("t", {})));
      expect(results.every((r) => r.content.length === 1)).toBe(true);
      // A warning is emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("followers, bounds and shapes", () => {
  it("two followers of one task answer its input once between them", async () => {
    let asked = 0;
    const { raw, server } = await setup({ handleElicitation: () => (asked++, { action: "accept", content: { name: "Ada" } }) });
    const script = scriptTasks(raw, [{ status: "input_required", inputRequests: { name: elicitName } }, { status: "input_required", inputRequests: { name: elicitName } }, done("one")]);
    const [a, b] = await Promise.all([server.awaitTask("task-1"), server.awaitTask("task-1")]);
    expect([a.content, b.content]).toEqual([[{ type: "text", text: "one" }], [{ type: "text", text: "one" }]]);
    expect(asked).toBe(1);
    expect(script.updates).toHaveLength(1);
  });

  it("takes a request repeated with its keys in another order as the same one, and answers only the new key beside it", async () => {
    let asked = 0;
    const { raw, server } = await setup({ handleElicitation: () => (asked++, { action: "accept", content: { name: "x" } }) });
    const reordered = { params: { requestedSchema: elicitName.params.requestedSchema, message: elicitName.params.message, mode: "form" }, method: "elicitation/create" };
    const script = scriptTasks(raw, [
      { status: "input_required", inputRequests: { name: elicitName } },
      { status: "input_required", inputRequests: { name: reordered, other: elicitName } },
      done("ok"),
    ]);
    await server.callTool("t", {});
    expect(asked).toBe(2);
    expect(script.updates.map((u) => Object.keys(u.params?.["inputResponses"] as object))).toEqual([["name"], ["other"]]);
  });

  it("ends a task that asks for input more than maxInputRounds times with protocol", async () => {
    const { raw, server } = await setup({ handleElicitation: () => ({ action: "accept", content: { name: "x" } }) }, { maxInputRounds: 2 });
    scriptTasks(raw, ["a", "b", "c"].map((key) => ({ status: "input_required", inputRequests: { [key]: elicitName } })));
    const error = await server.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol" });
    expect((error as Error).message).toContain("after 2 rounds");
  });

  it("bounds a plain call that became a task by the call's timeout, and tells onTask its handle (tasks-unasked.test.ts: the default)", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "working", ttlMs: null }], { creation: { ttlMs: null } });
    const handles: TaskHandle[] = [];
    const error = await server.callTool("t", {}, { timeout: 300, onTask: (task) => handles.push(task) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toContain("the call's timeout of 300 ms");
    expect(handles.map((h) => h.taskId)).toEqual(["task-1"]);
  });

  it("rejects an aborted wait at once, though the server never answers tasks/cancel", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "working" }]);
    raw.handle("tasks/cancel", () => new Promise(() => {}));
    const controller = new AbortController();
    const waiting = server.awaitTask("task-1", { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await waiting).toMatchObject({ kind: "cancelled" });
  });

  it("a task or input_required in reply to tasks/get is a protocol error", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "working" }]);
    raw.handle("tasks/get", () => ({ resultType: "input_required", inputRequests: {} }));
    await expect(server.getTask("task-1")).rejects.toMatchObject({ kind: "protocol" });
    raw.handle("tasks/get", () => ({ resultType: "task", taskId: "task-1", status: "working", createdAt: "2026-01-01T00:00:00Z", ttlMs: null }));
    await expect(server.getTask("task-1")).rejects.toMatchObject({ kind: "protocol" });
  });

  it("makes one listen for followers that start together", async () => {
    const { raw, server } = await setup();
    const listens: RpcMessage[] = [];
    scriptTasks(raw, [{ status: "working" }, done("ok")], { listens: (m) => listens.push(m) });
    await Promise.all([server.awaitTask("task-1"), server.awaitTask("task-1"), server.callTool("t", {})]);
    expect(listens.map((m) => m.params?.["notifications"])).toEqual([{ taskIds: ["task-1"] }]);
  });
});

describe("notifications/tasks", () => {
  it("come through a listen asking for the task's id, and end the wait at once (fake clock, never advanced)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server } = await setup();
    const listens: RpcMessage[] = [];
    const listened = deferred<RpcMessage>();
    scriptTasks(raw, [{ status: "working" }], {
      creation: { pollIntervalMs: 60_000 },
      listens: (m) => {
        listens.push(m);
        listened.resolve(m);
      },
    });
    const result = server.callTool("t", {});
    const listen = await listened.promise;
    expect(listen.params?.["notifications"]).toEqual({ taskIds: ["task-1"] });
    const tag = { "io.modelcontextprotocol/subscriptionId": listen.id };
    await raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ["task-1"] }, _meta: tag } });
    await raw.send({
      jsonrpc: "2.0",
      method: "notifications/tasks",
      params: { taskId: "task-1", status: "completed", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:01Z", ttlMs: null, result: { content: [{ type: "text", text: "pushed" }] }, _meta: tag },
    });
    expect((await result).content).toEqual([{ type: "text", text: "pushed" }]);
    // No poll was needed; the listen is closed with the follow (a cancellation naming it, on stdio).
    expect(methods(raw)).not.toContain("tasks/get");
    const closing = await raw.next("notifications/cancelled");
    expect(closing.params?.["requestId"]).toBe(listen.id);
    expect(listens).toHaveLength(1);
  });

  it("open no listen as tasks end one after another, and close each listen once its tasks have ended", async () => {
    const { raw, server } = await setup();
    const COUNT = 5;
    const created = "2026-01-01T00:00:00Z";
    const task = (taskId: string, status: string) => ({ taskId, status, createdAt: created, lastUpdatedAt: created, ttlMs: null, pollIntervalMs: 30_000 });
    let next = 0;
    raw.handle("tools/call", () => ({ resultType: "task", ...task(`task-${++next}`, "working") }));
    raw.handle("tasks/get", (m) => ({ resultType: "complete", ...task(String(m.params?.["taskId"]), "working") }));
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    const listens: RpcMessage[] = [];
    /** The listen each task was asked for in (the last one, if more than one asked). */
    const listenOf = new Map<string, unknown>();
    const covered = deferred<void>();
    raw.handle("subscriptions/listen", (m) => {
      listens.push(m);
      const notifications = m.params?.["notifications"] as { taskIds: string[] };
      for (const id of notifications.taskIds) listenOf.set(id, m.id);
      void raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications, _meta: { "io.modelcontextprotocol/subscriptionId": m.id } } });
      if (listenOf.size === COUNT) covered.resolve();
      return undefined;
    });
    const follows = Array.from({ length: COUNT }, (_, i) => server.callTool("t", { i }));
    await covered.promise;
    const asked = listens.length;
    // The tasks end one after another, each told by a notification on its listen.
    for (let i = 1; i <= COUNT; i++) {
      const result = { content: [{ type: "text", text: `done ${i}` }] };
      const tag = { "io.modelcontextprotocol/subscriptionId": listenOf.get(`task-${i}`) };
      await raw.send({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...task(`task-${i}`, "completed"), result, _meta: tag } });
      expect((await follows[i - 1]!).content).toEqual(result.content);
    }
    // A round trip: whatever the ends made the client send has reached the server.
    await server.listTools();
    // No task's end opened a listen.
    expect(listens).toHaveLength(asked);
    // Each listen was closed once its tasks had ended: a cancellation naming it (stdio).
    const closed = sent(raw).filter((m) => m.method === "notifications/cancelled").map((m) => m.params?.["requestId"]);
    expect(closed.sort()).toEqual(listens.map((m) => m.id).sort());
    expect(methods(raw)).not.toContain("tasks/get");
  });

  it("are asked for no more once a server refused the listen: polling alone", async () => {
    const { raw, server } = await setup();
    scriptTasks(raw, [{ status: "working" }, done("polled")]);
    expect((await server.callTool("t", {})).content).toEqual([{ type: "text", text: "polled" }]);
    expect((await server.callTool("t", {})).content).toEqual([{ type: "text", text: "polled" }]);
    expect(methods(raw).filter((m) => m === "subscriptions/listen")).toHaveLength(1);
  });
});

describe("cancelling and giving up", () => {
  it("an aborted signal sends tasks/cancel, never notifications/cancelled, and rejects with cancelled", async () => {
    const { raw, server } = await setup();
    const script = scriptTasks(raw, [{ status: "working" }], { creation: { pollIntervalMs: 50 } });
    const task = (await server.callTool("t", {}, { task: true })) as TaskHandle;
    const controller = new AbortController();
    const waiting = server.awaitTask(task, { signal: controller.signal }).catch((e: unknown) => e);
    await script.polled(1);
    controller.abort();
    expect(await waiting).toMatchObject({ kind: "cancelled" });
    // A round trip: whatever the client sent before it has arrived (the cancel is not waited for).
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    await server.listTools();
    expect(script.cancels.map((m) => m.params)).toEqual([expect.objectContaining({ taskId: "task-1" })]);
    expect(methods(raw)).not.toContain("notifications/cancelled");
  });

  it("cancelTask sends tasks/cancel; getTask of an unknown id is the server's -32602", async () => {
    const { raw, server } = await setup();
    const script = scriptTasks(raw, [{ status: "working" }]);
    await server.cancelTask("task-1");
    expect(script.cancels).toHaveLength(1);
    await expect(server.getTask("nope")).rejects.toMatchObject({ kind: "rpc", code: -32602 });
    expect(await server.getTask("task-1")).toMatchObject({ taskId: "task-1", status: "working" });
  });

  it("listTasks does not exist in this era", async () => {
    const { server } = await setup();
    await expect(server.listTasks()).rejects.toMatchObject({ kind: "unsupported" });
  });
});

describe("what no good server sends", () => {
  const cases: Array<[string, Step[], Record<string, unknown> | undefined, string]> = [
    ["a status that leaves a terminal one", [{ status: "working" }], { status: "completed" }, "back to"],
    ["an unknown status", [{ status: "paused" }], undefined, "not one this client knows"],
    ["a tasks/get answer for another task", [{ status: "working", taskId: "task-2" }], undefined, "another task"],
    ["a task id that is not a string", [{ status: "working" }], { taskId: 7 }, "task id"],
    ["a completed task without its result", [{ status: "completed" }], undefined, "result"],
  ];
  it.each(cases)("%s is a protocol error", async (_what, steps, creation, message) => {
    const { raw, server } = await setup();
    scriptTasks(raw, steps, { creation });
    const error = await server.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol" });
    expect((error as Error).message).toContain(message);
  });

  it("a task in reply to anything but tools/call is a protocol error", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/list", () => ({ resultType: "task", taskId: "x", status: "working", createdAt: "2026-01-01T00:00:00Z", ttlMs: null }));
    const error = await server.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol" });
    expect((error as Error).message).toContain("only tools/call may");
  });
});

describe("time (fake clock)", () => {
  function fakeClock(): void {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
  }

  /**
   * Follows what the client saw: every look at the task tells onStatus (each step of these
   * scripts differs), and once told, the client is about to sleep: a turn of the event loop
   * later its timer is armed, so moving the clock then is moving it past a known start.
   */
  function follower(): { onStatus: (task: TaskHandle) => void; seen: (count: number) => Promise<void> } {
    let count = 0;
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    return {
      onStatus: () => {
        count++;
        for (const w of waiters.filter((w) => w.count <= count)) w.resolve();
      },
      seen: async (wanted) => {
        if (count < wanted) await new Promise<void>((resolve) => waiters.push({ count: wanted, resolve }));
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
  }

  /** Moves the clock `ms` on; the next tasks/get arrives and its answer is seen. */
  async function pollAfter(script: TaskScript, seen: (count: number) => Promise<void>, ms: number): Promise<void> {
    const count = script.gets.length + 1;
    await vi.advanceTimersByTimeAsync(ms);
    await script.polled(count);
    await seen(count + 1);
  }

  const gapsOf = (script: TaskScript, start: number) => script.gets.map((g, i) => g.at - (i === 0 ? start : script.gets[i - 1]!.at));

  it("polls at the server's interval and never earlier: the creation's until the first poll, then each poll's", async () => {
    fakeClock();
    const { raw, server } = await setup();
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    const script = scriptTasks(raw, [{ status: "working", statusMessage: "1", pollIntervalMs: 300 }, { status: "working", statusMessage: "2", pollIntervalMs: 300 }, done("ok")], {
      creation: { pollIntervalMs: 1000 },
    });
    const task = (await server.callTool("t", {}, { task: true })) as TaskHandle;
    const watch = follower();
    const result = server.awaitTask(task, { onStatus: watch.onStatus });
    await watch.seen(1);
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(999);
    // A round trip over the one pipe: a poll sent before it would have arrived first.
    await server.listTools();
    expect(script.gets).toHaveLength(0);
    await pollAfter(script, watch.seen, 1);
    await pollAfter(script, watch.seen, 300);
    await vi.advanceTimersByTimeAsync(300);
    expect((await result).content).toEqual([{ type: "text", text: "ok" }]);
    expect(gapsOf(script, start)).toEqual([1000, 300, 300]);
  });

  it("keeps the interval between a floor and a ceiling: 0 means 10 ms, a day means 30 s", async () => {
    fakeClock();
    const { raw, server } = await setup();
    const script = scriptTasks(raw, [{ status: "working", statusMessage: "1", pollIntervalMs: 86_400_000 }, done("ok")], { creation: { pollIntervalMs: 0 } });
    const task = (await server.callTool("t", {}, { task: true })) as TaskHandle;
    const watch = follower();
    const result = server.awaitTask(task, { onStatus: watch.onStatus });
    await watch.seen(1);
    const start = Date.now();
    await pollAfter(script, watch.seen, 10);
    await vi.advanceTimersByTimeAsync(30_000);
    await result;
    expect(gapsOf(script, start)).toEqual([10, 30_000]);
  });

  it("gives up a task past its TTL with timeout, without cancelling it", async () => {
    fakeClock();
    const { raw, server } = await setup();
    const steps = ["1", "2", "3"].map((statusMessage) => ({ status: "working", statusMessage, ttlMs: 2500, pollIntervalMs: 1000 }));
    const script = scriptTasks(raw, steps, { creation: { ttlMs: 2500, pollIntervalMs: 1000 } });
    const task = (await server.callTool("t", {}, { task: true })) as TaskHandle;
    const watch = follower();
    const ttl = server.awaitTask(task, { onStatus: watch.onStatus }).catch((e: unknown) => e);
    await watch.seen(1);
    await pollAfter(script, watch.seen, 1000);
    await pollAfter(script, watch.seen, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await ttl;
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toContain("lifetime of 2500 ms");
    expect(script.cancels).toEqual([]);
  });

  it("ends a wait past its own timeout with timeout; the task goes on (no tasks/cancel), and can be awaited again", async () => {
    fakeClock();
    const { raw, server } = await setup();
    const script = scriptTasks(raw, [{ status: "working", ttlMs: null, pollIntervalMs: 1000 }], { creation: { ttlMs: null } });
    const watch = follower();
    const bounded = server.awaitTask("task-1", { timeout: 1500, onStatus: watch.onStatus }).catch((e: unknown) => e);
    await script.polled(1);
    await watch.seen(1);
    await vi.advanceTimersByTimeAsync(1500);
    expect(await bounded).toMatchObject({ kind: "timeout" });
    expect(script.cancels).toEqual([]);
    script.steps = [done("later")];
    expect((await server.awaitTask("task-1")).content).toEqual([{ type: "text", text: "later" }]);
  });
});
