/**
 * Tasks of 2026-07-28 (the `io.modelcontextprotocol/tasks` extension), which the server
 * decides on: the client declares the extension on every request, and a `tools/call` may answer
 * `resultType: "task"` (on any other method that is an invalid result: `mrtr.ts`).
 *
 * The task is polled with `tasks/get`, which inlines what its status carries. Its input
 * requests are answered through the pipeline and sent with `tasks/update`, de-duplicated by key
 * across polls (the server repeats the outstanding ones on every poll, and an update is only
 * eventually visible): a key is answered once, and a key that comes back naming another request
 * ends the follow with `"protocol"`. `completed` carries the result, `failed` the JSON-RPC error
 * (`"task_failed"`). Over HTTP every `tasks/*` request names the task in `Mcp-Name`
 * (`envelope.ts`).
 */
import { protocolError } from "../util/assert.js";
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import { excerpt, quote } from "../util/text.js";
import { ParkedRound, type InputRequest } from "./mrtr.js";
import { TASKS_EXTENSION, expectTask, parseDetailedTask, parseTask, MODERN_FIELDS, type TaskSnapshot } from "./tasks.js";
import { TaskInputParked, type EraTasks, type TaskFlow } from "./task-follow.js";
import { TaskListens } from "./task-listens.js";
import { TaskShares, type TaskShare } from "./task-shares.js";
import { canonicalJson } from "../util/json.js";
import type { ListenFilter, Subscription } from "./subscriptions.js";
import type { ServerCapabilities } from "./types/index.js";
import type { Awaitable } from "../util/awaitable.js";

/** What the era's codec lends: one request under its rules, and the answering of input. */
export interface ModernTaskLink {
  send(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown>;
  answer(requests: Record<string, InputRequest>, call: { assigns: unknown; signal: AbortSignal | undefined }): Awaitable<Record<string, unknown>>;
  lifetime(): AbortSignal;
  listen(filter: ListenFilter, signal: AbortSignal): Promise<Subscription>;
}

export class ModernTasks implements EraTasks {
  readonly unavailable: string | undefined;
  readonly canCancel: boolean;
  readonly makesUnasked: boolean;
  private readonly shares = new TaskShares((taskId, followed) => (followed ? this.listens.followed(taskId) : this.listens.unfollowed(taskId)));
  /** The listens for `notifications/tasks` of the tasks followed now. */
  private readonly listens: TaskListens;

  constructor(
    private readonly link: ModernTaskLink,
    capabilities: ServerCapabilities,
    readonly serverId: string,
    private readonly logger: Logger,
    /** Input rounds a task may ask for (`maxInputRounds`). */
    private readonly maxRounds: number,
  ) {
    const declared = isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION]);
    this.unavailable = declared ? undefined : `the server did not declare the ${TASKS_EXTENSION} extension`;
    this.canCancel = declared;
    this.makesUnasked = declared;
    this.listens = new TaskListens((taskIds) => this.link.listen({ taskIds }, this.lifetime()), serverId, logger);
  }

  /** The server decides: nothing to add to the call. */
  ask(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  created(raw: Record<string, unknown>): TaskSnapshot | undefined {
    if (raw.resultType !== "task") return undefined;
    for (const carried of ["result", "error", "inputRequests"]) {
      if (Object.hasOwn(raw, carried)) throw protocolError(`the task tools/call created carries "${carried}", which only tasks/get may`, raw);
    }
    return { handle: parseTask(raw, "the task tools/call created", MODERN_FIELDS, this.serverId), detailed: false };
  }

  async get(taskId: string, signal: AbortSignal | undefined): Promise<TaskSnapshot> {
    const raw = await this.link.send("tasks/get", { taskId }, signal);
    const snapshot = parseDetailedTask(raw, "the result of tasks/get", this.serverId);
    expectTask(snapshot.handle, taskId, "tasks/get", raw);
    return snapshot;
  }

  async advance(snapshot: TaskSnapshot, flow: TaskFlow): Promise<Record<string, unknown> | undefined> {
    const { status, taskId } = snapshot.handle;
    // A creation result says only that the task exists: what its status carries comes with tasks/get.
    if (!snapshot.detailed) return undefined;
    switch (status) {
      case "working":
        return undefined;
      case "input_required":
        await this.answer(taskId, snapshot.inputRequests ?? {}, flow);
        return undefined;
      case "completed":
        return snapshot.result;
      case "failed": {
        const error = snapshot.error!;
        throw new ClientError("task_failed", `task ${quote(taskId)} failed: ${excerpt(error.message, 200)}`, { serverId: this.serverId, code: error.code, data: error.data });
      }
      case "cancelled":
        throw new ClientError("cancelled", `task ${quote(taskId)} was cancelled at the server`, { serverId: this.serverId });
    }
  }

  /** Answers a task's parked input, resumed (`client.resume` of a `tasks/update` PendingInput). */
  async sendInput(taskId: string, inputResponses: Record<string, unknown>, signal: AbortSignal | undefined): Promise<void> {
    await this.link.send("tasks/update", { taskId, inputResponses }, signal);
  }

  async cancel(taskId: string): Promise<void> {
    await this.link.send("tasks/cancel", { taskId }, undefined);
  }

  join(taskId: string, assigns: unknown, listener: (snapshot: TaskSnapshot) => void): { share: TaskShare; leave: () => void } {
    return this.shares.join(taskId, assigns, listener);
  }

  lifetime(): AbortSignal {
    return this.link.lifetime();
  }

  /** `notifications/tasks` (through `subscriptions/listen`): a full `DetailedTask`, used when it comes. */
  notified(params: Record<string, unknown>): void {
    const taskId = typeof params.taskId === "string" ? params.taskId : undefined;
    if (taskId === undefined || !this.shares.has(taskId)) return;
    let snapshot: TaskSnapshot;
    try {
      snapshot = parseDetailedTask(params, "notifications/tasks", this.serverId);
    } catch (error) {
      this.logger.warn(`server "${this.serverId}": a malformed task notification was ignored`, { error });
      return;
    }
    this.shares.notify(taskId, snapshot);
  }

  /**
   * Answers the keys no follower of the task saw before, and sends them in one `tasks/update`;
   * a round more than `maxInputRounds` ends the follow (a task is no way around the bound).
   */
  private async answer(taskId: string, requests: Record<string, InputRequest>, flow: TaskFlow): Promise<void> {
    const seen = flow.share.seen;
    const fresh: Record<string, InputRequest> = {};
    let count = 0;
    for (const [key, request] of Object.entries(requests)) {
      const asked = canonicalJson(request);
      const before = seen.get(key);
      if (before === undefined) {
        Object.defineProperty(fresh, key, { value: request, enumerable: true, writable: true, configurable: true });
        count++;
      } else if (before !== asked) {
        throw protocolError(`task ${quote(taskId)} reused the input request key ${quote(key)} for another request`, requests);
      }
    }
    if (count === 0) return;
    if (++flow.share.rounds > this.maxRounds) throw protocolError(`task ${quote(taskId)} still asked for input after ${this.maxRounds} rounds`, requests);
    for (const key of Object.keys(fresh)) seen.set(key, canonicalJson(fresh[key]));
    if (flow.park) throw new TaskInputParked(taskId, new ParkedRound(fresh, undefined, flow.share.rounds));
    const inputResponses = await this.link.answer(fresh, { assigns: flow.assigns, signal: flow.signal });
    await this.link.send("tasks/update", { taskId, inputResponses }, flow.signal);
  }
}
