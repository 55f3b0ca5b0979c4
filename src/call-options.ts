/**
 * The options of a server handle's methods, and what the methods check of their arguments
 * before anything is sent: a caller's mistake is a `TypeError` (`InvalidArgumentError`) naming
 * the option, never a server's error or a bound switched off without a word. Unknown option
 * keys are refused (`knownKeys`).
 */
import { CALL_OPTION_KEYS, type CallOptions } from "./protocol/methods.js";
import { LOGGING_LEVELS, type TaskHandle, type TaskRequest } from "./protocol/types/index.js";
import type { AwaitTaskOptions } from "./protocol/task-follow.js";
import { checkRequestMeta } from "./protocol/request-meta.js";
import { knownKeys, optional, positiveNumber } from "./util/arguments.js";
import { InvalidArgumentError } from "./util/errors.js";
import { quote } from "./util/text.js";

export type { CallOptions } from "./protocol/methods.js";
export type { AwaitTaskOptions } from "./protocol/task-follow.js";

/** Options of list calls, which are never "calls" in the handler's sense. */
export type ListOptions = Omit<CallOptions, "assigns" | "onProgress" | "resetTimeoutOnProgress" | "inputRequired">;

/** Options of a call whose input the Handler answers, whatever the caller asked. */
export type HandlerCallOptions = CallOptions & { inputRequired?: "handler" | undefined };

/**
 * The options of a call made for a caller that needs its result (a skill's file, an app's
 * resource): `inputRequired: "return"` has no place there, and is refused rather than ignored.
 */
export function handlerOnly(what: string, options: CallOptions | undefined): HandlerCallOptions | undefined {
  if (options?.inputRequired === "return") throw new InvalidArgumentError(`${what} answers server input through the Handler: inputRequired: "return" is for the server handle's calls`);
  return options as HandlerCallOptions | undefined;
}

/** Options of `callTool`: a call's, and whether to ask for a task. */
export interface ToolCallOptions extends CallOptions {
  /**
   * Ask for a task (2025-11-25, where the tool allows it; 2026-07-28 the server decides anyway):
   * the result is then a `TaskHandle` when the server made one, to follow with `awaitTask`.
   */
  task?: TaskRequest | undefined;
  /** A task the server made without being asked, which the call follows: its handle, to keep. */
  onTask?: ((task: TaskHandle) => void) | undefined;
}

const AWAIT_OPTION_KEYS: ReadonlySet<string> = new Set(["signal", "timeout", "assigns", "onStatus"]);
const TASK_REQUEST_KEYS: ReadonlySet<string> = new Set(["ttlMs", "keep"]);

export function checkCallOptions(options: CallOptions): void {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("call options must be an object");
  knownKeys("call options", options, CALL_OPTION_KEYS);
  optional(positiveNumber, "timeout", options.timeout);
  optional(positiveNumber, "maxTotalTimeout", options.maxTotalTimeout);
  checkSignal(options.signal);
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") throw new InvalidArgumentError("onProgress must be a function");
  if (options.logLevel !== undefined && !LOGGING_LEVELS.includes(options.logLevel)) throw new InvalidArgumentError(`not a log level: ${String(options.logLevel)}`);
  if (options.meta !== undefined) checkRequestMeta(options.meta);
  const mode: unknown = options.inputRequired;
  if (mode !== undefined && mode !== "handler" && mode !== "return") throw new InvalidArgumentError(`inputRequired must be "handler" or "return", got ${quote(mode)}`);
}

export function checkAwaitOptions(options: AwaitTaskOptions): void {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("awaitTask options must be an object");
  knownKeys("awaitTask options", options, AWAIT_OPTION_KEYS);
  optional(positiveNumber, "timeout", options.timeout);
  checkSignal(options.signal);
  if (options.onStatus !== undefined && typeof options.onStatus !== "function") throw new InvalidArgumentError("onStatus must be a function");
}

/** `task: true` or `{ ttlMs, keep }`. */
export function checkTaskRequest(task: unknown): asserts task is TaskRequest {
  if (task === true) return;
  if (typeof task !== "object" || task === null || Array.isArray(task)) throw new InvalidArgumentError("task must be true or { ttlMs, keep }");
  knownKeys("task", task, TASK_REQUEST_KEYS);
  optional(positiveNumber, "ttlMs", (task as { ttlMs?: unknown }).ttlMs);
  const keep = (task as { keep?: unknown }).keep;
  if (keep !== undefined && typeof keep !== "boolean") throw new InvalidArgumentError("task.keep must be a boolean");
}

export function requireTaskId(taskId: unknown): asserts taskId is string {
  if (typeof taskId !== "string" || taskId === "") throw new InvalidArgumentError("a task id must be a non-empty string");
}

export function requireString(what: string, value: unknown): asserts value is string {
  if (typeof value !== "string") throw new InvalidArgumentError(`${what} must be a string`);
}

export function requireRecord(what: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new InvalidArgumentError(`${what} must be an object`);
  }
}

function checkSignal(signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidArgumentError("signal must be an AbortSignal");
}

export function withoutTask(options: ToolCallOptions): CallOptions {
  const { task: _task, ...call } = options;
  return call;
}
