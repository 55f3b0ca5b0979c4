/**
 * The tasks of one server handle: a `tools/call` that may make one, and `awaitTask`, `getTask`,
 * `cancelTask`, `listTasks`. The wire forms are the era's (`protocol/tasks-*.ts`), the follow
 * `protocol/task-follow.ts`; here is what the host's call decides.
 *
 * A task the call did not ask for (every 2026-07-28 server may make one; a 2025-11-25 tool that
 * requires one) is followed, so that the call returns what a call returns: within what is left of
 * the caller's bound (`maxTotalTimeout`, else `timeout`) when it gave one, else until the task
 * ends or its TTL passes — the client's `requestTimeout` bounds each request of the follow, not
 * the task — and at most `MAX_UNASKED_FOLLOW_MS`, since a TTL is the server's hint. A bound that
 * ends the wait is named in the `"timeout"` error and leaves the task running; the caller's
 * signal cancels it with `tasks/cancel`.
 */
import { withRequestMeta } from "./protocol/request-meta.js";
import { checkAwaitOptions, checkCallOptions, checkTaskRequest, requireTaskId, type ListOptions, type ToolCallOptions } from "./call-options.js";
import type { Connection } from "./protocol/connection.js";
import type { CallOptions } from "./protocol/methods.js";
import { allPages, checkCallTool, type CheckContext } from "./protocol/results.js";
import { MAX_UNASKED_FOLLOW_MS, TaskInputParked, type AwaitTaskOptions, type EraTasks, type FollowOptions } from "./protocol/task-follow.js";
import type { TaskSnapshot } from "./protocol/tasks.js";
import type { CallToolResult, TaskHandle } from "./protocol/types/index.js";
import { ClientError, InvalidArgumentError } from "./util/errors.js";
import { isObject } from "./util/json.js";
import { callHost, type Logger } from "./util/logger.js";
import { now } from "./util/time.js";
import { ParkedRound } from "./protocol/mrtr.js";
import { pendingDeadline, type PendingInput } from "./pending-input.js";
import type { KeptTasks } from "./kept-tasks.js";

/** What the tasks borrow from their handle. */
export interface TaskHost {
  readonly id: string;
  /** What result checks are told: the version, and where a dropped entry is logged. */
  readonly checks: CheckContext;
  readonly logger: Logger;
  /** The connection to send on, waited for within the options' own time (lazy, restarting). */
  connected<O extends ListOptions>(options: O | undefined): Promise<{ connection: Connection; options: O | undefined }>;
  /** An error as the caller sees it: this server's, its stack among the caller's frames. */
  failure(error: unknown): unknown;
  /** 2025-11-25: a `-32042`'s URLs checked before the host sees them. */
  urlsRequired(error: unknown): unknown;
  /** The round a call parked (`inputRequired: "return"`), as its PendingInput. */
  park(connection: Connection, params: Record<string, unknown>, parked: ParkedRound, deadline: number): PendingInput;
  /** A followed task's question parked (`inputRequired: "return"`), as its PendingInput of `tasks/update`. */
  parkTask(connection: Connection, parked: TaskInputParked, deadline: number): PendingInput;
  /** Task handles kept in the client's store (`task: { keep: true }`, `keptTask`). */
  readonly kept: KeptTasks;
}

export class ServerTasks {
  constructor(private readonly host: TaskHost) {}

  /** `tools/call` where a task may come of it: asked for (`task`), or made by the server. */
  async callTool(params: { name: string; arguments?: Record<string, unknown> }, options: ToolCallOptions | undefined): Promise<CallToolResult | TaskHandle | PendingInput> {
    const { task: wanted, onTask, ...given } = options ?? {};
    if (options !== undefined) checkCallOptions(given);
    if (wanted !== undefined) checkTaskRequest(wanted);
    if (onTask !== undefined && typeof onTask !== "function") throw new InvalidArgumentError("onTask must be a function");
    // A total bound stays total: what the call's legs used is not given to the follow again.
    const started = now();
    const startedAt = given.inputRequired === "return" ? Date.now() : 0;
    try {
      const { connection, options: call = {} } = await this.host.connected<CallOptions>(given);
      // Before anything is sent (asking for a task may list the tools first).
      const refused = call.inputRequired === undefined ? undefined : connection.refusal(call);
      if (refused !== undefined) throw refused;
      const tasks = connection.tasks;
      const ask = await tasks.ask(params.name, wanted, call.signal);
      const sent = withRequestMeta(ask === undefined ? params : { ...params, task: ask }, call.meta) as typeof params;
      const raw = await connection.request("tools/call", sent, call);
      if (raw instanceof ParkedRound) return this.host.park(connection, sent, raw, pendingDeadline(startedAt, given.maxTotalTimeout));
      const created = isObject(raw) ? tasks.created(raw, ask !== undefined) : undefined;
      if (created === undefined) return checkCallTool(raw, this.host.checks);
      if (wanted !== undefined) {
        if (wanted !== true && wanted.keep === true) await this.keep(created.handle, connection);
        return created.handle;
      }
      if (onTask !== undefined) callHost(this.host.logger, "onTask", onTask, created.handle);
      const park = call.inputRequired === "return";
      const follow: FollowOptions = { signal: call.signal, assigns: call.assigns, ...unaskedBound(given, now() - started), park };
      try {
        return checkCallTool(await connection.followTask(created, follow), this.host.checks);
      } catch (error) {
        // The task asked its question: it waits at the server, the question goes back to the host.
        if (error instanceof TaskInputParked) return this.host.parkTask(connection, error, pendingDeadline(startedAt, given.maxTotalTimeout));
        throw error;
      }
    } catch (error) {
      throw this.host.failure(this.host.urlsRequired(error));
    }
  }

  async awaitTask(task: TaskHandle | string, options: AwaitTaskOptions): Promise<CallToolResult> {
    const start = this.start(task);
    checkAwaitOptions(options);
    const kept = typeof start !== "string" && this.host.kept.isKept(start.handle);
    try {
      const { connection } = await this.host.connected({ signal: options.signal, timeout: options.timeout });
      if (kept) return await this.followKept(connection, start, options);
      return checkCallTool(await connection.followTask(start, options), this.host.checks);
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  /** The handle of a task a host asked to keep, read from the client's store (see `kept-tasks.ts`). */
  async keptTask(taskId: string): Promise<TaskHandle> {
    requireTaskId(taskId);
    try {
      const { connection } = await this.host.connected(undefined);
      return await this.host.kept.pickUp(taskId, connection.era);
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  private async keep(handle: TaskHandle, connection: Connection): Promise<void> {
    try {
      await this.host.kept.keep(handle, connection.era, connection.version);
    } catch (error) {
      // The task runs on at the server: its handle goes with the error, to follow or cancel.
      throw new ClientError("store", `task ${handle.taskId} was made, but keeping its handle failed: ${(error as Error).message}`, { serverId: this.host.id, cause: error, data: handle });
    }
  }

  /** Follows a kept task under its lease; the task's end (a result, a failure, a cancel) deletes it from the store. */
  private async followKept(connection: Connection, start: TaskSnapshot, options: AwaitTaskOptions): Promise<CallToolResult> {
    const taskId = start.handle.taskId;
    const lease = await this.host.kept.lease(taskId);
    try {
      const result = checkCallTool(await connection.followTask(start, options), this.host.checks);
      await this.host.kept.ended(taskId);
      return result;
    } catch (error) {
      if (error instanceof ClientError && (error.kind === "task_failed" || error.kind === "cancelled")) await this.host.kept.ended(taskId);
      throw error;
    } finally {
      await lease.release();
    }
  }

  async getTask(taskId: string): Promise<TaskHandle> {
    requireTaskId(taskId);
    try {
      return (await (await this.available()).get(taskId, undefined)).handle;
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  async cancelTask(taskId: string): Promise<void> {
    requireTaskId(taskId);
    try {
      const tasks = await this.available();
      if (!tasks.canCancel) throw new ClientError("unsupported", 'the server did not declare "tasks.cancel"', { serverId: this.host.id });
      await tasks.cancel(taskId);
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  async listTasks(): Promise<TaskHandle[]> {
    try {
      const tasks = await this.available();
      const list = tasks.list?.bind(tasks);
      if (list === undefined) throw new ClientError("unsupported", `tasks/list does not exist in protocol version ${this.host.checks.version}`, { serverId: this.host.id });
      return await allPages("tasks/list", true, async (cursor) => {
        const page = await list(cursor);
        return { items: page.tasks, nextCursor: page.nextCursor };
      });
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  private async available(): Promise<EraTasks> {
    const tasks = (await this.host.connected(undefined)).connection.tasks;
    if (tasks.unavailable !== undefined) throw new ClientError("unsupported", tasks.unavailable, { serverId: this.host.id });
    return tasks;
  }

  /** Where a follow starts: a handle of this server, or an id. */
  private start(task: TaskHandle | string): TaskSnapshot | string {
    if (typeof task === "string") {
      requireTaskId(task);
      return task;
    }
    if (!isObject(task) || task.resultType !== "task" || typeof task.taskId !== "string") throw new InvalidArgumentError("awaitTask needs a TaskHandle or a task id");
    if (task.serverId !== this.host.id) throw new ClientError("usage", `task ${task.taskId} belongs to server "${task.serverId}", not "${this.host.id}"`, { serverId: this.host.id });
    return { handle: task, detailed: false };
  }
}

/** How long a call follows a task it did not ask for, and how the error names that bound. */
function unaskedBound(given: CallOptions, used: number): { timeout: number; bound: string } {
  if (given.maxTotalTimeout !== undefined) return { timeout: Math.max(1, given.maxTotalTimeout - used), bound: `the call's maxTotalTimeout of ${given.maxTotalTimeout} ms` };
  if (given.timeout !== undefined) return { timeout: Math.max(1, given.timeout - used), bound: `the call's timeout of ${given.timeout} ms` };
  return {
    timeout: MAX_UNASKED_FOLLOW_MS,
    bound: `${MAX_UNASKED_FOLLOW_MS} ms, the longest a call follows a task it did not ask for (give the call a timeout or maxTotalTimeout to wait longer)`,
  };
}
