// Tasks of 2025-11-25 (basic/utilities/tasks): against @modelcontextprotocol/server-everything's
// task-augmented research tool, and a raw scripted server for what the client must check: the
// tool-level rule, the nested CreateTaskResult, tasks/result and the input requests tagged
// related-task (their ctx, their tagged answers), failed, cancel, status notifications.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, isTask, type ElicitResult, type Handler, type TaskHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { EVERYTHING_SERVER } from "../helpers/official.js";
import { deferred, startRawStdio, type JsonObject, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const RELATED = "io.modelcontextprotocol/related-task";

afterEach(() => {
  vi.useRealTimers();
});

describe("server-everything's simulate-research-query (2025-11-25 over stdio)", () => {
  it("runs as a task: asked for, followed through its elicitation; and a plain call of it is followed too", async () => {
    const asked: unknown[] = [];
    const handler: Handler = {
      handleElicitation: (params, ctx): ElicitResult => {
        asked.push({ assigns: ctx.assigns, related: ctx.relatedRequestId !== null });
        const schema = params.requestedSchema as { properties: { interpretation: { oneOf: Array<{ const: string }> } } };
        return { action: "accept", content: { interpretation: schema.properties.interpretation.oneOf[0]!.const } };
      },
    };
    const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
    const server = await client.connect("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] });
    expect(server.serverCapabilities?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    const tool = (await server.listTools()).find((t) => t.name === "simulate-research-query");
    expect(tool?.execution?.taskSupport).toBe("required");

    const task = (await server.callTool("simulate-research-query", { topic: "rust", ambiguous: true }, { task: { ttlMs: 60_000 } })) as TaskHandle;
    expect(task).toMatchObject({ resultType: "task", serverId: "everything", status: "working" });
    const statuses: string[] = [];
    // Both at once: the plain call is a task too (the tool requires one), followed inside callTool.
    const [followed, plain] = await Promise.all([
      server.awaitTask(task, { assigns: { turn: 9 }, onStatus: (t) => statuses.push(t.status) }),
      server.callTool("simulate-research-query", { topic: "go" }),
    ]);
    expect(JSON.stringify(followed.content)).toContain("Research Report: rust (");
    expect(JSON.stringify(followed.content)).not.toContain("elicitation unavailable");
    expect(JSON.stringify(plain.content)).toContain("Research Report: go");
    // The last status seen is input_required: tasks/result then gives the end itself.
    expect(statuses).toContain("input_required");
    expect(asked).toEqual([{ assigns: { turn: 9 }, related: true }]);
    const listed = await server.listTasks();
    expect(listed.map((t) => t.taskId)).toContain(task.taskId);
    expect((await server.getTask(task.taskId)).status).toBe("completed");
  });

  it("refuses to ask for a task of a tool that does not allow one, before anything is sent", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] });
    await expect(server.callTool("echo", { message: "x" }, { task: true })).rejects.toMatchObject({ kind: "usage" });
    expect((await server.callTool("echo", { message: "x" })).content).toEqual([{ type: "text", text: "Echo: x" }]);
  });
});

const TASK_CAPABILITIES = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const TOOLS = [
  { name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
  { name: "must", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
  { name: "plain", inputSchema: { type: "object" } },
];

const legacyTask = (status: string, extra: JsonObject = {}): JsonObject => ({
  taskId: "t-1",
  status,
  createdAt: new Date(Date.now()).toISOString(),
  lastUpdatedAt: new Date(Date.now()).toISOString(),
  ttl: 60_000,
  pollInterval: 10,
  ...extra,
});

/** A 2025-11-25 server whose tasks/get answers the next status; tasks/result waits for the test. */
async function legacyTaskServer(handler?: Handler, capabilities: JsonObject = TASK_CAPABILITIES) {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ protocolVersion: "2025-11-25", capabilities });
  const statuses: string[] = ["working"];
  let polls = 0;
  raw.handle("tools/list", () => ({ tools: TOOLS }));
  raw.handle("tools/call", (m) => (m.params?.["task"] !== undefined ? { task: legacyTask("working") } : { content: [{ type: "text", text: "plain" }] }));
  raw.handle("tasks/get", () => legacyTask(statuses[Math.min(polls++, statuses.length - 1)]!));
  raw.handle("tasks/cancel", () => legacyTask("cancelled"));
  const resultAsked = deferred<RpcMessage>();
  const final = deferred<JsonObject | { error: { code: number; message: string; data?: unknown } }>();
  raw.handle("tasks/result", async (m) => {
    resultAsked.resolve(m);
    return final.promise;
  });
  const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
  const server = await client.connect("legacy", raw.target);
  return { raw, server, statuses, resultAsked, final };
}

const sentMethods = (raw: RawStdioServer) => (raw.messages as RpcMessage[]).map((m) => m.method);

describe("a raw 2025-11-25 server", () => {
  it("asks for a task with the ttl wished for, nested answer; input tagged related-task gets the call's assigns and a tagged answer", async () => {
    const seen: unknown[] = [];
    const { raw, server, statuses, resultAsked, final } = await legacyTaskServer({
      handleElicitation: (_params, ctx) => {
        seen.push(ctx.assigns);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    statuses.splice(0, 1, "working", "input_required");
    const task = (await server.callTool("job", {}, { task: { ttlMs: 1234 } })) as TaskHandle;
    const call = (raw.messages as RpcMessage[]).find((m) => m.method === "tools/call")!;
    expect(call.params?.["task"]).toEqual({ ttl: 1234 });
    expect(task).toMatchObject({ taskId: "t-1", ttlMs: 60_000, pollIntervalMs: 10 });
    const result = server.awaitTask(task, { assigns: { turn: 4 } });
    const asked = await resultAsked.promise;
    expect(asked.params).toEqual({ taskId: "t-1" });
    await raw.send({
      jsonrpc: "2.0",
      id: "e-1",
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } }, _meta: { [RELATED]: { taskId: "t-1" } } },
    });
    const answer = await raw.next((m) => m.id === "e-1");
    expect(answer.result).toEqual({ action: "accept", content: { name: "Ada" }, _meta: { [RELATED]: { taskId: "t-1" } } });
    expect(seen).toEqual([{ turn: 4 }]);
    final.resolve({ content: [{ type: "text", text: "done" }], _meta: { [RELATED]: { taskId: "t-1" } } });
    expect((await result).content).toEqual([{ type: "text", text: "done" }]);
  });

  it("learns a tool's task support from a listing when none was made, and follows a required tool's plain call", async () => {
    const { raw, server, statuses, final } = await legacyTaskServer();
    statuses.splice(0, 1, "completed");
    final.resolve({ content: [{ type: "text", text: "from the task" }] });
    expect((await server.callTool("must", {})).content).toEqual([{ type: "text", text: "from the task" }]);
    expect(sentMethods(raw).filter((m) => m !== undefined && m !== "notifications/initialized")).toEqual(["server/discover", "initialize", "tools/list", "tools/call", "tasks/get", "tasks/result"]);
    // A plain tool is never asked for as a task; asking is a usage error.
    await expect(server.callTool("plain", {}, { task: true })).rejects.toMatchObject({ kind: "usage" });
    expect((await server.callTool("job", {})).content).toEqual([{ type: "text", text: "plain" }]);
  });

  it("learns a tool's task support from the host's own listing: the call that follows lists nothing again", async () => {
    const { raw, server, statuses, final } = await legacyTaskServer();
    statuses.splice(0, 1, "completed");
    final.resolve({ content: [{ type: "text", text: "from the task" }] });
    expect((await server.listTools()).map((tool) => tool.name)).toContain("must");
    expect((await server.callTool("must", {})).content).toEqual([{ type: "text", text: "from the task" }]);
    expect(sentMethods(raw).filter((m) => m === "tools/list")).toHaveLength(1);
    const call = (raw.messages as RpcMessage[]).find((m) => m.method === "tools/call")!;
    expect(call.params?.["task"]).toBeDefined();
  });

  it("learns the tools once for calls that come together before any listing", async () => {
    const { raw, server, statuses, final } = await legacyTaskServer();
    statuses.splice(0, 1, "completed");
    final.resolve({ content: [{ type: "text", text: "one of many" }] });
    const results = await Promise.all(Array.from({ length: 5 }, () => server.callTool("must", {})));
    expect(results.map((r) => r.content)).toEqual(Array.from({ length: 5 }, () => [{ type: "text", text: "one of many" }]));
    expect(sentMethods(raw).filter((m) => m === "tools/list")).toHaveLength(1);
  });

  it("a failed task whose result is a JSON-RPC error is task_failed; one whose result is a tool error resolves with it", async () => {
    const first = await legacyTaskServer();
    first.statuses.splice(0, 1, "failed");
    first.final.resolve({ error: { code: -32603, message: "backend down", data: { id: 1 } } });
    const task = (await first.server.callTool("job", {}, { task: true })) as TaskHandle;
    await expect(first.server.awaitTask(task)).rejects.toMatchObject({ kind: "task_failed", code: -32603, data: { id: 1 } });

    const second = await legacyTaskServer();
    second.statuses.splice(0, 1, "failed");
    second.final.resolve({ content: [{ type: "text", text: "tool said no" }], isError: true });
    const again = (await second.server.callTool("job", {}, { task: true })) as TaskHandle;
    expect((await second.server.awaitTask(again)).isError).toBe(true);
  });

  it("an aborted wait sends tasks/cancel and no notifications/cancelled, also with tasks/result in flight", async () => {
    const { raw, server, statuses, resultAsked } = await legacyTaskServer();
    statuses.splice(0, 1, "input_required");
    const task = (await server.callTool("job", {}, { task: true })) as TaskHandle;
    const controller = new AbortController();
    const waiting = server.awaitTask(task, { signal: controller.signal }).catch((e: unknown) => e);
    await resultAsked.promise;
    controller.abort();
    expect(await waiting).toMatchObject({ kind: "cancelled" });
    raw.handle("ping", () => ({}));
    await server.ping();
    expect(sentMethods(raw)).toContain("tasks/cancel");
    expect(sentMethods(raw)).not.toContain("notifications/cancelled");
  });

  it("a status notification ends the wait between polls at once (fake clock, never advanced)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server, resultAsked, final } = await legacyTaskServer();
    raw.handle("tools/call", () => ({ task: legacyTask("working", { pollInterval: 60_000 }) }));
    const task = (await server.callTool("job", {}, { task: true })) as TaskHandle;
    const result = server.awaitTask(task);
    await raw.send({ jsonrpc: "2.0", method: "notifications/tasks/status", params: legacyTask("completed") });
    await resultAsked.promise;
    final.resolve({ content: [{ type: "text", text: "early" }] });
    expect((await result).content).toEqual([{ type: "text", text: "early" }]);
    expect(sentMethods(raw)).not.toContain("tasks/get");
  });

  it("gives a tagged request that comes before tasks/result the follower's context, and lets it sample (a follower is a call in flight)", async () => {
    const seen: unknown[] = [];
    const { raw, server } = await legacyTaskServer({
      handleSampling: (_params, ctx) => {
        seen.push({ assigns: ctx.assigns });
        return { role: "assistant", content: { type: "text", text: "s" }, model: "m" };
      },
    });
    raw.handle("tools/call", () => ({ task: legacyTask("working", { pollInterval: 50 }) }));
    const task = (await server.callTool("job", {}, { task: true })) as TaskHandle;
    const following = server.awaitTask(task, { assigns: { turn: 1 } });
    await raw.send({
      jsonrpc: "2.0",
      id: "s-1",
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, _meta: { [RELATED]: { taskId: "t-1" } } },
    });
    const answer = await raw.next((m) => m.id === "s-1");
    expect(answer.error).toBeUndefined();
    expect(answer.result?.["_meta"]).toEqual({ [RELATED]: { taskId: "t-1" } });
    expect(seen).toEqual([{ assigns: { turn: 1 } }]);
    await server.cancelTask("t-1");
    void following.catch(() => {});
  });

  it("decides task_failed from the error, not from the last status seen: -32602 stays rpc", async () => {
    const first = await legacyTaskServer();
    first.statuses.splice(0, 1, "input_required");
    first.final.resolve({ error: { code: -32603, message: "it broke" } });
    await expect(first.server.callTool("must", {})).rejects.toMatchObject({ kind: "task_failed", code: -32603 });
    const second = await legacyTaskServer();
    second.statuses.splice(0, 1, "failed");
    second.final.resolve({ error: { code: -32602, message: "Task has expired" } });
    await expect(second.server.callTool("must", {})).rejects.toMatchObject({ kind: "rpc", code: -32602 });
  });

  it("bounds tasks/result by what is left of the task's lifetime", async () => {
    const { raw, server, statuses } = await legacyTaskServer();
    raw.handle("tools/call", () => ({ task: legacyTask("working", { ttl: 200 }) }));
    raw.handle("tasks/get", () => legacyTask(statuses[0]!, { ttl: 200 }));
    statuses.splice(0, 1, "input_required");
    const task = (await server.callTool("job", {}, { task: true })) as TaskHandle;
    await expect(server.awaitTask(task)).rejects.toMatchObject({ kind: "timeout" });
  });

  it("runs the shared tool listing on its own: a caller that gives up does not end another's call", async () => {
    const { raw, server, statuses, final } = await legacyTaskServer();
    statuses.splice(0, 1, "completed");
    final.resolve({ content: [{ type: "text", text: "b" }] });
    const release = deferred<void>();
    raw.handle("tools/list", async () => {
      await release.promise;
      return { tools: TOOLS };
    });
    const controller = new AbortController();
    const a = server.callTool("must", {}, { signal: controller.signal }).catch((e: unknown) => e);
    const b = server.callTool("must", {});
    controller.abort();
    expect(await a).toMatchObject({ kind: "cancelled" });
    release.resolve();
    expect((await b).content).toEqual([{ type: "text", text: "b" }]);
  });

  const broken: Array<[string, JsonObject]> = [
    ["an unknown status", { status: "paused" }],
    ["an answer for another task", { taskId: "t-2" }],
    ["a createdAt that is no time", { createdAt: "yesterday" }],
  ];
  it.each(broken)("%s in tasks/get is a protocol error", async (_what, extra) => {
    const { raw, server } = await legacyTaskServer();
    raw.handle("tasks/get", () => legacyTask("working", extra));
    const task = (await server.callTool("job", {}, { task: true })) as TaskHandle;
    await expect(server.awaitTask(task)).rejects.toMatchObject({ kind: "protocol" });
  });

  it("keeps a plain result shaped like a task a result: isTask tells them apart", async () => {
    const { raw, server } = await legacyTaskServer(undefined, { tools: {} });
    raw.handle("tools/call", () => ({ content: [], resultType: "task", taskId: "fake" }));
    const outcome = await server.callTool("job", {}, { task: undefined });
    expect(isTask(outcome)).toBe(false);
  });

  it("gives up a tasks/list that outlives the requestTimeout without notifications/cancelled (tasks are cancelled by tasks/cancel alone)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server } = await legacyTaskServer();
    raw.handle("ping", () => ({}));
    const listing = server.listTasks().catch((e: unknown) => e);
    // Unanswered: the server never says a word.
    await raw.next("tasks/list");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await listing).toMatchObject({ kind: "timeout" });
    await server.ping();
    expect(sentMethods(raw)).toContain("tasks/list");
    expect(sentMethods(raw)).not.toContain("notifications/cancelled");
  });

  it("has no tasks where the server declares none: asking calls plainly, getTask is unsupported", async () => {
    const { server } = await legacyTaskServer(undefined, { tools: {} });
    const outcome = await server.callTool("job", {}, { task: true });
    expect(isTask(outcome)).toBe(false);
    expect(!isTask(outcome) && outcome.content).toEqual([{ type: "text", text: "plain" }]);
    await expect(server.getTask("t-1")).rejects.toMatchObject({ kind: "unsupported" });
    await expect(server.listTasks()).rejects.toMatchObject({ kind: "unsupported" });
  });
});
