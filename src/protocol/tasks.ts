/**
 * The wire forms of tasks, checked at the boundary, for both eras:
 *
 * - 2025-11-25 (basic/utilities/tasks): the client asks with `params.task = { ttl? }`; the
 *   answer nests the task under `task`; `ttl` and `pollInterval` are milliseconds; the result
 *   comes from `tasks/result`, whose answer carries `_meta["io.modelcontextprotocol/related-task"]`.
 * - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): the server decides; the answer is
 *   flat, `resultType: "task"`; `ttlMs` and `pollIntervalMs`; `tasks/get` inlines what the status
 *   carries (`inputRequests`, `result`, `error`).
 *
 * A task id that is not a string, a status this client does not know, a `tasks/get` answer for
 * another task: `"protocol"` errors naming the field.
 */
import { protocolError } from "../util/assert.js";
import { isObject } from "../util/json.js";
import { quote } from "../util/text.js";
import type { InputRequest } from "./mrtr.js";
import type { TaskHandle, TaskStatus } from "./types/index.js";

export { TASKS_EXTENSION } from "./versions.js";

export const RELATED_TASK = "io.modelcontextprotocol/related-task";
const IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(["working", "input_required", "completed", "failed", "cancelled"]);

/** The handles this client made: a result a server shaped like one is still a result. */
const HANDLES = new WeakSet<object>();

/** Whether `callTool`'s outcome is a task (to follow with `awaitTask`) rather than a result. */
export function isTask(value: unknown): value is TaskHandle {
  return typeof value === "object" && value !== null && HANDLES.has(value);
}

export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What one look at a task saw: its handle and, in 2026-07-28, what its status carries. */
export interface TaskSnapshot {
  readonly handle: TaskHandle;
  /** False for a creation result, which carries no `inputRequests`, `result` or `error`. */
  readonly detailed: boolean;
  readonly inputRequests?: Record<string, InputRequest> | undefined;
  readonly result?: Record<string, unknown> | undefined;
  readonly error?: { code: number; message: string; data?: unknown } | undefined;
}

/** The field names of one era. */
export interface TaskFieldNames {
  readonly ttl: "ttl" | "ttlMs";
  readonly pollInterval: "pollInterval" | "pollIntervalMs";
}

export const LEGACY_FIELDS: TaskFieldNames = { ttl: "ttl", pollInterval: "pollInterval" };
export const MODERN_FIELDS: TaskFieldNames = { ttl: "ttlMs", pollInterval: "pollIntervalMs" };

/** A `Task` object of either era as a handle; `where` names it in errors. */
export function parseTask(value: unknown, where: string, names: TaskFieldNames, serverId: string, raw: unknown = value): TaskHandle {
  if (!isObject(value)) throw protocolError(`${where} must be a task object`, raw);
  const taskId = value.taskId;
  if (typeof taskId !== "string" || taskId === "") throw protocolError(`${where}: the task id must be a non-empty string, not ${quote(taskId)}`, raw);
  const status = value.status;
  if (typeof status !== "string" || !STATUSES.has(status)) throw protocolError(`${where}: the task status ${quote(status)} is not one this client knows`, raw);
  const createdAt = value.createdAt;
  if (typeof createdAt !== "string" || Number.isNaN(Date.parse(createdAt))) throw protocolError(`${where}: "createdAt" must be an ISO 8601 time`, raw);
  const lastUpdatedAt = optionalString(value.lastUpdatedAt, `${where}: "lastUpdatedAt"`, raw);
  if (lastUpdatedAt !== undefined && Number.isNaN(Date.parse(lastUpdatedAt))) throw protocolError(`${where}: "lastUpdatedAt" must be an ISO 8601 time`, raw);
  const statusMessage = optionalString(value.statusMessage, `${where}: "statusMessage"`, raw);
  const ttl = value[names.ttl];
  if (ttl !== undefined && ttl !== null && !(typeof ttl === "number" && ttl >= 0)) throw protocolError(`${where}: "${names.ttl}" must be null or a number of milliseconds`, raw);
  const interval = value[names.pollInterval];
  if (interval !== undefined && !(typeof interval === "number" && interval >= 0)) throw protocolError(`${where}: "${names.pollInterval}" must be a number of milliseconds`, raw);
  const meta = value._meta;
  const immediate = isObject(meta) && typeof meta[IMMEDIATE_RESPONSE] === "string" ? meta[IMMEDIATE_RESPONSE] : undefined;
  const handle: TaskHandle = Object.freeze({
    resultType: "task",
    serverId,
    taskId,
    status: status as TaskStatus,
    statusMessage,
    createdAt,
    lastUpdatedAt,
    ttlMs: typeof ttl === "number" ? ttl : null,
    pollIntervalMs: interval,
    ...(immediate === undefined ? {} : { immediateResponse: immediate }),
  });
  HANDLES.add(handle);
  return handle;
}

function optionalString(value: unknown, what: string, raw: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw protocolError(`${what} must be a string`, raw);
  return value;
}

/** The same task the client asked about, or a `"protocol"` error. */
export function expectTask(handle: TaskHandle, taskId: string, method: string, raw: unknown): TaskHandle {
  if (handle.taskId !== taskId) throw protocolError(`${method} for task ${quote(taskId)} answered for another task, ${quote(handle.taskId)}`, raw);
  return handle;
}

/** 2026-07-28: a `DetailedTask` (a `tasks/get` answer, a `notifications/tasks`): the handle and what its status carries. */
export function parseDetailedTask(value: unknown, where: string, serverId: string): TaskSnapshot {
  const handle = parseTask(value, where, MODERN_FIELDS, serverId);
  const task = value as Record<string, unknown>;
  switch (handle.status) {
    case "input_required": {
      const requests = task.inputRequests;
      if (!isObject(requests)) throw protocolError(`${where}: an input_required task must carry "inputRequests"`, value);
      for (const [key, entry] of Object.entries(requests)) {
        if (!isObject(entry) || typeof entry.method !== "string" || (entry.params !== undefined && !isObject(entry.params))) {
          throw protocolError(`${where}: input request ${quote(key)} is malformed`, value);
        }
      }
      return { handle, detailed: true, inputRequests: requests as Record<string, InputRequest> };
    }
    case "completed":
      if (!isObject(task.result)) throw protocolError(`${where}: a completed task must carry its "result"`, value);
      return { handle, detailed: true, result: task.result };
    case "failed": {
      const error = task.error;
      if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
        throw protocolError(`${where}: a failed task must carry its JSON-RPC "error"`, value);
      }
      return { handle, detailed: true, error: { code: error.code, message: error.message, data: error.data } };
    }
    default:
      return { handle, detailed: true };
  }
}

/** The task id a server request of 2025-11-25 names in `_meta`, if it belongs to a task. */
export function relatedTaskOf(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta;
  if (!isObject(meta)) return undefined;
  const related = meta[RELATED_TASK];
  return isObject(related) && typeof related.taskId === "string" ? related.taskId : undefined;
}
