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
import { quote } from "../util/text.js";
import type { InputRequest } from "./mrtr.js";
import { TASKS_EXTENSION, expectTask, parseDetailedTask, parseTask, MODERN_FIELDS, type TaskSnapshot } from "./tasks.js";
import type { EraTasks, TaskFlow } from "./task-follow.js";
import type { ListenFilter, Subscription } from "./subscriptions.js";
import type { ServerCapabilities } from "./types/index.js";

/** What the era's codec lends: one request under its rules, and the answering of input. */
export interface ModernTaskLink {
  send(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown>;
  answer(requests: Record<string, InputRequest>, call: { assigns: unknown; signal: AbortSignal | undefined }): Promise<Record<string, unknown>>;
  lifetime(): AbortSignal;
  listen(filter: ListenFilter, signal: AbortSignal): Promise<Subscription>;
}

export class ModernTasks implements EraTasks {
  readonly unavailable: string | undefined;
  readonly canCancel: boolean;
  readonly makesUnasked: boolean;
  private readonly watchers = new Map<string, Set<(snapshot: TaskSnapshot) => void>>();
  /** Whether the server sends `notifications/tasks` to a listen that asks (unknown until one asked). */
  private offered: boolean | undefined;
  /** The first listen, which tells; the followers that come meanwhile wait for it. */
  private probing: Promise<void> | undefined;

  constructor(
    private readonly link: ModernTaskLink,
    capabilities: ServerCapabilities,
    readonly serverId: string,
    private readonly logger: Logger,
  ) {
    const declared = isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION]);
    this.unavailable = declared ? undefined : `the server did not declare the ${TASKS_EXTENSION} extension`;
    this.canCancel = declared;
    this.makesUnasked = declared;
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
        throw new ClientError("task_failed", `task ${taskId} failed: ${error.message}`, { serverId: this.serverId, code: error.code, data: error.data });
      }
      case "cancelled":
        throw new ClientError("cancelled", `task ${taskId} was cancelled at the server`, { serverId: this.serverId });
    }
  }

  async cancel(taskId: string): Promise<void> {
    await this.link.send("tasks/cancel", { taskId }, undefined);
  }

  /**
   * Hears of `notifications/tasks` for the task: through a `subscriptions/listen` asking for its
   * id, while the server honours such listens (the first one tells; a server that refuses it, or
   * acknowledges without the id, is asked no more). The follower polls whatever happens.
   */
  watch(taskId: string, listener: (snapshot: TaskSnapshot) => void): () => void {
    let set = this.watchers.get(taskId);
    if (set === undefined) this.watchers.set(taskId, (set = new Set()));
    set.add(listener);
    const stop = new AbortController();
    void this.subscribe(taskId, stop.signal);
    return () => {
      stop.abort();
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(taskId);
    };
  }

  private async subscribe(taskId: string, stop: AbortSignal): Promise<void> {
    if (this.offered === undefined && this.probing !== undefined) await this.probing;
    if (this.offered === false || stop.aborted) return;
    const first = this.offered === undefined;
    let told = (): void => {};
    if (first) this.probing = new Promise((resolve) => (told = resolve));
    try {
      const subscription = await this.link.listen({ taskIds: [taskId] }, stop);
      const honoured = Array.isArray(subscription.honoured.taskIds) && subscription.honoured.taskIds.includes(taskId);
      if (first) this.offered = honoured;
      if (!honoured) await subscription.close();
      // Closed with the follow (the signal); an end of its own leaves the follower polling.
    } catch {
      if (first && !stop.aborted) this.offered = false;
    } finally {
      if (first) {
        this.probing = undefined;
        told();
      }
    }
  }

  lifetime(): AbortSignal {
    return this.link.lifetime();
  }

  /** `notifications/tasks` (through `subscriptions/listen`): a full `DetailedTask`, used when it comes. */
  notified(params: Record<string, unknown>): void {
    const taskId = typeof params.taskId === "string" ? params.taskId : undefined;
    const listeners = taskId === undefined ? undefined : this.watchers.get(taskId);
    if (listeners === undefined) return;
    let snapshot: TaskSnapshot;
    try {
      snapshot = parseDetailedTask(params, "notifications/tasks", this.serverId);
    } catch (error) {
      this.logger.warn(`server "${this.serverId}": a malformed task notification was ignored`, { error });
      return;
    }
    for (const listener of listeners) listener(snapshot);
  }

  /** Answers the keys not seen before, and sends them in one `tasks/update`. */
  private async answer(taskId: string, requests: Record<string, InputRequest>, flow: TaskFlow): Promise<void> {
    const fresh: Record<string, InputRequest> = {};
    let count = 0;
    for (const [key, request] of Object.entries(requests)) {
      const asked = JSON.stringify(request);
      const before = flow.seen.get(key);
      if (before === undefined) {
        flow.seen.set(key, asked);
        Object.defineProperty(fresh, key, { value: request, enumerable: true, writable: true, configurable: true });
        count++;
      } else if (before !== asked) {
        throw protocolError(`task ${taskId} reused the input request key ${quote(key)} for another request`, requests);
      }
    }
    if (count === 0) return;
    const inputResponses = await this.link.answer(fresh, { assigns: flow.assigns, signal: flow.signal });
    await this.link.send("tasks/update", { taskId, inputResponses }, flow.signal);
  }
}

