/**
 * Tasks of 2025-11-25 (basic/utilities/tasks), which the client asks for: only where the
 * server declares `tasks.requests.tools.call` and the tool's `execution.taskSupport` allows it
 * (`required`: always, a plain call included; `optional`: when asked; `forbidden` or absent:
 * never, and asking is a `"usage"` error). A tool whose support is not known yet is learnt from
 * a listing of the tools.
 *
 * The task is polled with `tasks/get`; once it needs input or has ended, `tasks/result` is
 * called: it blocks until the end and returns what the call would have returned, while the
 * server sends its input requests tagged `related-task`, which are answered through the
 * pipeline like any other (their ctx carries the awaiting call's `assigns`, their answers the
 * same tag). A `failed` task whose `tasks/result` is a JSON-RPC error is `"task_failed"`; one
 * whose result is a tool's `isError: true` (what `failed` also means in this version) resolves
 * with that result, as the call would have.
 */
import { lowRuntime } from "../util/runtime.js";
import { protocolError } from "../util/assert.js";
import { ClientError, ErrorCode } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import type { PendingCallInit, RelatedCall } from "../rpc/pending-call.js";
import type { RpcPeer } from "../rpc/peer.js";
import { checkListTools, walkPages } from "./results.js";
import { LEGACY_FIELDS, RELATED_TASK, expectTask, parseTask, relatedTaskOf, type TaskSnapshot } from "./tasks.js";
import type { EraTasks, TaskFlow } from "./task-follow.js";
import { TaskShares, type TaskShare } from "./task-shares.js";
import { excerpt, quote } from "../util/text.js";
import { untilAborted } from "../util/time.js";
import type { ServerCapabilities, TaskHandle, TaskRequest, Tool } from "./types/index.js";
import type { LegacyVersion } from "./versions.js";

const NO_TASK = Object.freeze({});

/** How the tasks send a request: the connection's peer, through the host's tracing when it has one. */
export type TaskSend = (method: string, params: Record<string, unknown> | undefined, init: PendingCallInit, isCall?: boolean) => Promise<unknown>;

/** Whether the server may run a `tools/call` as a task (2025-11-25, `tasks.requests.tools.call`): only then does a tool's task support matter. */
export function callsToolsAsTasks(version: LegacyVersion, capabilities: ServerCapabilities): boolean {
  const tasks = capabilities.tasks;
  const requests = isObject(tasks) && isObject(tasks.requests) ? tasks.requests : undefined;
  return version === "2025-11-25" && isObject(requests?.tools) && isObject(requests.tools.call);
}

export class LegacyTasks implements EraTasks {
  readonly unavailable: string | undefined;
  readonly canCancel: boolean;
  readonly makesUnasked: boolean;
  private readonly canList: boolean;
  private readonly callsAsTasks: boolean;
  /** `execution.taskSupport` of each tool listed so far; made by the first listing (most servers have no tasks). */
  private support: Map<string, string | undefined> | undefined;
  /** The listing that learns the tools' task support, once, shared by the calls that wait for it. */
  private listing: Promise<void> | undefined;
  private readonly shares = new TaskShares();
  private life: AbortController | undefined;
  private endedWith: ClientError | undefined;

  constructor(
    private readonly peer: RpcPeer,
    version: LegacyVersion,
    capabilities: ServerCapabilities,
    readonly serverId: string,
    private readonly logger: Logger,
    /** How a request is sent, when not straight to the peer (a traced one). */
    private readonly sendVia?: TaskSend | undefined,
  ) {
    const tasks = capabilities.tasks;
    this.callsAsTasks = callsToolsAsTasks(version, capabilities);
    this.canCancel = version === "2025-11-25" && isObject(tasks) && isObject(tasks.cancel);
    this.canList = version === "2025-11-25" && isObject(tasks) && isObject(tasks.list);
    this.makesUnasked = this.callsAsTasks;
    this.unavailable =
      version !== "2025-11-25"
        ? `tasks do not exist in protocol version ${version}`
        : !isObject(tasks)
          ? 'the server did not declare the "tasks" capability'
          : undefined;
  }

  private send(method: string, params: Record<string, unknown> | undefined, init: PendingCallInit, isCall?: boolean): Promise<unknown> {
    return this.sendVia === undefined ? this.peer.request(method, params, init, isCall) : this.sendVia(method, params, init, isCall);
  }

  async ask(tool: string, wanted: TaskRequest | undefined, signal: AbortSignal | undefined): Promise<Record<string, unknown> | undefined> {
    if (!this.callsAsTasks) return undefined;
    const support = await this.supportOf(tool, wanted !== undefined, signal);
    if (support === "required" || (support === "optional" && wanted !== undefined)) {
      const ttl = wanted !== undefined && wanted !== true ? wanted.ttlMs : undefined;
      return ttl === undefined ? NO_TASK : { ttl };
    }
    if (wanted !== undefined && support !== "optional") {
      throw new ClientError("usage", `tool "${tool}" may not run as a task (its execution.taskSupport is ${support === undefined ? "absent" : quote(support)})`, { serverId: this.serverId });
    }
    return undefined;
  }

  created(raw: Record<string, unknown>, asked: boolean): TaskSnapshot | undefined {
    if (!asked || !isObject(raw.task)) return undefined;
    // The hint for a model meanwhile sits in the result's `_meta`, beside the task.
    const task = isObject(raw._meta) ? { ...raw.task, _meta: raw._meta } : raw.task;
    return { handle: parseTask(task, "the task tools/call created", LEGACY_FIELDS, this.serverId, raw), detailed: false };
  }

  async get(taskId: string, signal: AbortSignal | undefined): Promise<TaskSnapshot> {
    const raw = await this.send("tasks/get", { taskId }, { signal, cancellable: false });
    return { handle: this.taskOf(raw, taskId, "tasks/get"), detailed: true };
  }

  async advance(snapshot: TaskSnapshot, flow: TaskFlow): Promise<Record<string, unknown> | undefined> {
    const { status, taskId } = snapshot.handle;
    if (status === "working") return undefined;
    if (status === "cancelled") throw new ClientError("cancelled", `task ${quote(taskId)} was cancelled at the server`, { serverId: this.serverId });
    return this.result(taskId, flow);
  }

  async cancel(taskId: string): Promise<void> {
    const raw = await this.send("tasks/cancel", { taskId }, { cancellable: false });
    this.taskOf(raw, taskId, "tasks/cancel");
  }

  async list(cursor: string | undefined): Promise<{ tasks: TaskHandle[]; nextCursor?: string | undefined }> {
    if (!this.canList) throw new ClientError("unsupported", this.unavailable ?? 'the server did not declare "tasks.list"', { serverId: this.serverId });
    // Like every tasks/* request: a timeout gives it up without a notifications/cancelled.
    const raw = await this.send("tasks/list", cursor === undefined ? undefined : { cursor }, { cancellable: false });
    if (!isObject(raw) || !Array.isArray(raw.tasks)) throw protocolError('the result of tasks/list must carry a "tasks" array', raw);
    if (raw.nextCursor !== undefined && typeof raw.nextCursor !== "string") throw protocolError('the "nextCursor" of tasks/list must be a string', raw);
    const tasks = raw.tasks.map((task, i) => parseTask(task, `tasks/list "tasks"[${i}]`, LEGACY_FIELDS, this.serverId, raw));
    return { tasks, nextCursor: raw.nextCursor };
  }

  join(taskId: string, assigns: unknown, listener: (snapshot: TaskSnapshot) => void): { share: TaskShare; leave: () => void } {
    return this.shares.join(taskId, assigns, listener);
  }

  /** Followers of tasks: each is a call in flight, between its polls too (the idle rule). */
  get following(): number {
    return this.shares.following;
  }

  lifetime(): AbortSignal {
    if (this.life === undefined) {
      this.life = new AbortController();
      // Every follower of a task listens to it, and a host may follow hundreds at once.
      lowRuntime().unboundListeners?.(this.life.signal);
      if (this.endedWith !== undefined) this.life.abort(this.endedWith);
    }
    return this.life.signal;
  }

  end(reason: ClientError): void {
    this.endedWith ??= reason;
    this.life?.abort(reason);
  }

  /** `notifications/tasks/status`: used when it comes (it wakes a waiting follower), never relied on. */
  statusNotified(params: Record<string, unknown>): void {
    const taskId = typeof params.taskId === "string" ? params.taskId : undefined;
    if (taskId === undefined || !this.shares.has(taskId)) return;
    let handle: TaskHandle;
    try {
      handle = parseTask(params, "notifications/tasks/status", LEGACY_FIELDS, this.serverId);
    } catch (error) {
      this.logger.warn(`server "${this.serverId}": a malformed task status notification was ignored`, { error });
      return;
    }
    this.shares.notify(taskId, { handle, detailed: true });
  }

  /**
   * The call a server request tagged `related-task` belongs to: the `tasks/result` in flight for
   * that task, else the followers' context alone (the server may ask on any stream, before the
   * client called `tasks/result`); undefined for a request of no followed task.
   */
  relatedCall(params: Record<string, unknown> | undefined): RelatedCall | undefined {
    const taskId = relatedTaskOf(params);
    const share = taskId === undefined ? undefined : this.shares.get(taskId);
    if (share === undefined) return undefined;
    const call = this.peer.pendingCall(share.resultCall);
    return call ?? { id: null, assigns: share.assigns, pause() {}, resume() {} };
  }

  /** The tools of a listing: their task support is remembered. */
  recordTools(tools: readonly Tool[]): void {
    if (!this.callsAsTasks) return; // only `ask` reads it, and only then
    const support = (this.support ??= new Map<string, string | undefined>());
    for (const tool of tools) {
      support.set(tool.name, isObject(tool.execution) && typeof tool.execution.taskSupport === "string" ? tool.execution.taskSupport : undefined);
    }
  }

  /** The `_meta` an answer to a request of `taskId` carries. */
  static answerMeta(taskId: string): Record<string, unknown> {
    return { [RELATED_TASK]: { taskId } };
  }

  /**
   * The tool's `execution.taskSupport`, learnt from a listing of the tools when none was made:
   * one listing, on the connection's own time, shared by the calls that ask meanwhile (each
   * waits on its own signal). A listing that fails is tried again by the next call; a plain call
   * goes on without it (the tool's support stays unknown), one that asks for a task fails.
   */
  private async supportOf(tool: string, wanted: boolean, signal: AbortSignal | undefined): Promise<string | undefined> {
    if (this.support?.has(tool) === true) return this.support.get(tool);
    this.listing ??= this.listTools().catch((error: unknown) => {
      this.listing = undefined;
      throw error;
    });
    try {
      await untilAborted(this.listing, signal);
    } catch (error) {
      if (wanted || signal?.aborted === true) throw error;
      this.logger.warn(`server "${this.serverId}": the tools could not be listed to learn their task support; calling plainly`, { error });
    }
    return this.support?.get(tool);
  }

  private async listTools(): Promise<void> {
    const signal = this.lifetime();
    await walkPages("tools/list", true, async (cursor) => {
      const raw = await this.send("tools/list", cursor === undefined ? undefined : { cursor }, { signal });
      const page = checkListTools(raw, { version: "2025-11-25", dropped: () => {} });
      return { count: page.tools.length, nextCursor: page.nextCursor, keep: () => this.recordTools(page.tools) };
    });
  }

  /**
   * `tasks/result`: blocks until the task ends, within what is left of its lifetime; its input
   * requests come meanwhile. One at a time per task: a second follower waits for the first's
   * and then asks again (the server gives every caller the same end).
   */
  private async result(taskId: string, flow: TaskFlow): Promise<Record<string, unknown>> {
    const share = flow.share;
    while (share.resultDone !== undefined) await untilAborted(share.resultDone.catch(() => {}), flow.signal);
    const left = flow.ttlLeft();
    const asked = this.send(
      "tasks/result",
      { taskId },
      // The task's time is the follower's to bound; a cancel goes as tasks/cancel.
      { signal: flow.signal, timeout: left ?? Infinity, cancellable: false, assigns: share.assigns, onId: (id) => (share.resultCall = id) },
      true,
    );
    share.resultDone = asked;
    let raw: unknown;
    try {
      raw = await asked;
    } catch (error) {
      // The underlying request's error, not one about the task itself (unknown, expired).
      if (error instanceof ClientError && error.kind === "rpc" && error.code !== ErrorCode.InvalidParams && error.code !== ErrorCode.MethodNotFound) {
        throw new ClientError("task_failed", `task ${quote(taskId)} failed: ${excerpt(error.message, 200)}`, { serverId: this.serverId, code: error.code, data: error.data, cause: error });
      }
      throw error;
    } finally {
      share.resultCall = undefined;
      share.resultDone = undefined;
    }
    if (!isObject(raw)) throw protocolError("the result of tasks/result must be an object", raw);
    const tagged = relatedTaskOf(raw);
    if (tagged !== undefined && tagged !== taskId) throw protocolError(`tasks/result for task ${quote(taskId)} carries the result of another task, ${quote(tagged)}`, raw);
    return raw;
  }

  private taskOf(raw: unknown, taskId: string, method: string): TaskHandle {
    return expectTask(parseTask(raw, `the result of ${method}`, LEGACY_FIELDS, this.serverId), taskId, method, raw);
  }
}
