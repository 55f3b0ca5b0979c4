/**
 * Task handles a host asked to keep (`callTool(…, { task: { keep: true } })`), in the client's
 * `Store`, so that another Client — another worker, after this one stopped — picks the task up
 * by its server id and task id (`client.keptTask`) and follows it with `awaitTask`.
 *
 * - Key `conduit:task:<server id>:<task id>` (each URI-encoded, so that no colon of either can
 *   make two pairs one key); value: JSON `{ type, v, serverId, taskId, era, version, target,
 *   task }`, `task` being the handle's fields and `target` the hash of the server's target
 *   (`targetKey`): a task is followed on the server that made it, not on another that happens
 *   to have its id.
 * - TTL: the task's own (`ttlMs`, from when it was kept, at least a second), else a day
 *   (`KEPT_TASK_DEFAULT_TTL_MS`) for a task the server keeps without a limit: a host that needs
 *   it longer keeps the handle itself. Deleted when a follow sees the task end (a result, a
 *   failure, a cancel).
 * - Following a kept handle takes a lease, `conduit:task-lease:<server id>:<task id>`, written
 *   with `setIfAbsent` for `TASK_LEASE_MS` and renewed while the follow runs, so that two workers
 *   do not both follow one task (and both answer its input). It is released when the follow
 *   ends; a worker that dies holds it until it expires. The store has no compare-and-set, so a
 *   renewal reads before it writes: a worker whose renewals failed for a whole lease may find it
 *   taken, and then says so in a warning and follows on.
 */
import type { Era, ProtocolVersion } from "./protocol/versions.js";
import { MODERN_FIELDS, parseTask } from "./protocol/tasks.js";
import type { TaskHandle } from "./protocol/types/index.js";
import type { Store } from "./stores/store.js";
import { ClientError } from "./util/errors.js";
import { isObject } from "./util/json.js";
import type { Logger } from "./util/logger.js";
import { storeCall } from "./util/store-bound.js";
import { quote } from "./util/text.js";
import { delay } from "./util/time.js";

export const KEPT_TASK_DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
/** A kept task is not kept longer than this, whatever its TTL. */
export const KEPT_TASK_MAX_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const TASK_LEASE_MS = 30_000;
const TYPE = "conduit-mcp/kept-task";

/** The handles this process kept or picked up: following one takes the lease. */
const KEPT = new WeakSet<TaskHandle>();

/** What a follow of a kept task holds, and gives back when it ends. */
export interface TaskLease {
  release(): Promise<void>;
}

export class KeptTasks {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    readonly serverId: string,
    /** The hash of the server's target (`targetKey`). */
    private readonly target: string,
  ) {}

  isKept(handle: TaskHandle): boolean {
    return KEPT.has(handle);
  }

  /** Writes the handle; a `"store"` error when it could not be (the task runs on at the server). */
  async keep(handle: TaskHandle, era: Era, version: ProtocolVersion): Promise<void> {
    const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = handle;
    const record = { type: TYPE, v: 1, serverId: this.serverId, taskId, era, version, target: this.target, task: { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } };
    const ttl = ttlMs === null ? KEPT_TASK_DEFAULT_TTL_MS : Math.ceil(Math.min(KEPT_TASK_MAX_TTL_MS, Math.max(1_000, ttlMs)));
    await storeCall(`keeping task ${quote(taskId)} of server "${this.serverId}"`, () => this.store.set(this.key("task", taskId), JSON.stringify(record), { ttlMs: ttl }));
    KEPT.add(handle);
  }

  /** The handle kept for `taskId`, checked against this server's connection. */
  async pickUp(taskId: string, era: Era): Promise<TaskHandle> {
    const what = `task ${quote(taskId)} of server "${this.serverId}"`;
    const text = await storeCall(`reading kept ${what}`, () => this.store.get(this.key("task", taskId)));
    if (text === undefined) throw new ClientError("usage", `no ${what} is kept in the store (it was never kept, it ended, or its TTL passed)`, { serverId: this.serverId });
    const record = this.parse(text, taskId);
    if (typeof record === "string") throw new ClientError("store", `the store holds something for ${what} that is not a kept task (${record}); ignored`, { serverId: this.serverId });
    if (record.target !== this.target) throw new ClientError("usage", `${what} was kept from another target than the one connected as "${this.serverId}"`, { serverId: this.serverId });
    if (record.era !== era) throw new ClientError("usage", `${what} was kept from a ${record.era} connection, and the server speaks the ${era} era now`, { serverId: this.serverId });
    KEPT.add(record.handle);
    return record.handle;
  }

  /** Takes the lease on following `taskId`: `"usage"` when another follower holds it. */
  async lease(taskId: string): Promise<TaskLease> {
    const key = this.key("task-lease", taskId);
    const owner = crypto.randomUUID();
    const what = `task ${quote(taskId)} of server "${this.serverId}"`;
    const taken = await storeCall(`taking the lease on ${what}`, () => this.store.setIfAbsent(key, owner, { ttlMs: TASK_LEASE_MS }));
    if (!taken) throw new ClientError("usage", `${what} is being followed by another worker (its lease lasts up to ${TASK_LEASE_MS} ms past that worker's last renewal)`, { serverId: this.serverId });
    const stop = new AbortController();
    const renewing = this.renew(key, owner, what, stop.signal);
    return {
      release: async () => {
        stop.abort();
        await renewing;
        try {
          if ((await storeCall(`releasing the lease on ${what}`, () => this.store.get(key))) === owner) await storeCall(`releasing the lease on ${what}`, () => this.store.delete(key));
        } catch (error) {
          this.logger.warn(`${(error as Error).message}; it expires within ${TASK_LEASE_MS} ms`);
        }
      },
    };
  }

  /** The task ended: no worker is to pick it up any more. */
  async ended(taskId: string): Promise<void> {
    try {
      await storeCall(`forgetting ended task ${quote(taskId)} of server "${this.serverId}"`, () => this.store.delete(this.key("task", taskId)));
    } catch (error) {
      this.logger.warn(`${(error as Error).message}; it expires with its TTL`);
    }
  }

  private async renew(key: string, owner: string, what: string, signal: AbortSignal): Promise<void> {
    let warned = false;
    for (;;) {
      try {
        await delay(TASK_LEASE_MS / 3, signal, false);
      } catch {
        return;
      }
      try {
        const holder = await storeCall(`renewing the lease on ${what}`, () => this.store.get(key));
        if (holder !== undefined && holder !== owner) {
          this.logger.warn(`the lease on following ${what} was taken by another worker while this one followed it; it follows on`);
          return;
        }
        await storeCall(`renewing the lease on ${what}`, () => this.store.set(key, owner, { ttlMs: TASK_LEASE_MS }));
      } catch (error) {
        if (!warned) this.logger.warn(`${(error as Error).message}; following goes on`);
        warned = true;
      }
    }
  }

  private key(kind: "task" | "task-lease", taskId: string): string {
    return `conduit:${kind}:${encodeURIComponent(this.serverId)}:${encodeURIComponent(taskId)}`;
  }

  /** A kept record read back, checked as what it is: text from outside the process. */
  private parse(text: string, taskId: string): { handle: TaskHandle; era: Era; target: string } | string {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return "not JSON";
    }
    if (!isObject(value) || value.type !== TYPE || value.v !== 1) return "not a record the client wrote";
    if (value.serverId !== this.serverId || value.taskId !== taskId) return "written for another task";
    if (value.era !== "legacy" && value.era !== "modern") return "no era";
    if (typeof value.target !== "string") return "no target";
    try {
      const handle = parseTask(value.task, "the kept task", MODERN_FIELDS, this.serverId);
      if (handle.taskId !== taskId) return "written for another task";
      return { handle, era: value.era, target: value.target };
    } catch (error) {
      return (error as Error).message;
    }
  }
}
