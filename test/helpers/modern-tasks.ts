// A scripted server side of the 2026-07-28 tasks extension, on the raw stdio or HTTP server:
// `tools/call` of a task tool answers a flat CreateTaskResult; each `tasks/get` answers the next
// step of the script (the last one repeats); `tasks/update` and `tasks/cancel` are acknowledged
// with an empty result and recorded; an unknown task id gets -32602, as the extension says.
// `subscriptions/listen` is refused (-32601) unless `listens` is given: then the test answers it.
import type { Answer, JsonObject, RpcMessage } from "./raw-stdio.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export interface Step extends JsonObject {
  status: string;
}

export interface TaskScript {
  /** The fake or real `Date.now()` at each `tasks/get`, with its message. */
  readonly gets: Array<{ at: number; message: RpcMessage }>;
  readonly updates: RpcMessage[];
  readonly cancels: RpcMessage[];
  /** The `tools/call` requests that made a task. */
  readonly calls: RpcMessage[];
  /** Replaces what the next `tasks/get` answers from here on. */
  steps: Step[];
  /** Resolves when the `count`-th `tasks/get` (from 1) has come. */
  polled(count: number): Promise<void>;
}

interface Handles {
  handle(method: string, fn: (message: RpcMessage) => Answer): void;
}

export interface ScriptOptions {
  taskId?: string;
  /** Fields of the CreateTaskResult beyond the defaults (`status: "working"`, `pollIntervalMs: 10`). */
  creation?: JsonObject;
  /** Tools that answer plainly, by name. */
  plain?: Record<string, JsonObject>;
  /** Takes each `subscriptions/listen` (the test acknowledges it); refused when absent. */
  listens?: (message: RpcMessage) => void;
}

export function scriptTasks(server: Handles, steps: Step[], options: ScriptOptions = {}): TaskScript {
  const taskId = options.taskId ?? "task-1";
  const created = new Date(Date.now()).toISOString();
  const base = { taskId, createdAt: created, lastUpdatedAt: created, ttlMs: 60_000, pollIntervalMs: 10 };
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const script: TaskScript = {
    gets: [],
    updates: [],
    cancels: [],
    calls: [],
    steps,
    polled: (count) => (script.gets.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
  };
  let index = 0;
  const unknown = (id: unknown): Answer => ({ error: { code: -32602, message: `Failed to retrieve task: Task not found (${String(id)})` } });
  server.handle("tools/call", (message) => {
    const name = String(message.params?.["name"]);
    const plain = options.plain?.[name];
    if (plain !== undefined) return { resultType: "complete", ...plain };
    script.calls.push(message);
    return { resultType: "task", ...base, status: "working", ...options.creation };
  });
  server.handle("subscriptions/listen", (message) => {
    if (options.listens === undefined) return { error: { code: -32601, message: "Method not found" } };
    options.listens(message);
    return undefined;
  });
  server.handle("tasks/get", (message) => {
    script.gets.push({ at: Date.now(), message });
    for (const waiter of waiters.filter((w) => w.count <= script.gets.length)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const id = message.params?.["taskId"];
    if (id !== taskId) return unknown(id);
    const step = script.steps[Math.min(index++, script.steps.length - 1)]!;
    return { resultType: "complete", ...base, ...step };
  });
  server.handle("tasks/update", (message) => {
    script.updates.push(message);
    return message.params?.["taskId"] === taskId ? { resultType: "complete" } : unknown(message.params?.["taskId"]);
  });
  server.handle("tasks/cancel", (message) => {
    script.cancels.push(message);
    return message.params?.["taskId"] === taskId ? { resultType: "complete" } : unknown(message.params?.["taskId"]);
  });
  return script;
}

export const elicitName = {
  method: "elicitation/create",
  params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};

export const done = (text: string): Step => ({ status: "completed", result: { content: [{ type: "text", text }], isError: false } });
