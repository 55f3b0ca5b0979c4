/**
 * The listens that bring `notifications/tasks` for the tasks followed on one connection
 * (2026-07-28 tasks extension, through `subscriptions/listen`). A listen's filter is fixed when
 * it opens. One listen of every task followed, opened again at each change, sent some n²/2 ids
 * for n tasks that end one after another; here a task that ends changes no listen. The tasks
 * that came to be followed in one turn get a new listen, which also takes over the tasks of
 * every open listen no bigger than what it has gathered so far (those close once it is open),
 * and a listen closes once none of its tasks is followed any more. A task is asked for again
 * only in a listen at least twice the size of its last one: each id is sent at most log₂ n + 1
 * times, and at most that many listens are open at once (over HTTP each holds a stream).
 *
 * The first listen tells whether the server honours such listens: one that refuses it, or
 * acknowledges none of its ids, is asked no more. Followers poll whatever happens, so a listen
 * that fails or ends costs only the pushes.
 */
import type { Logger } from "../util/logger.js";
import { nextTurn } from "../util/runtime.js";
import type { Subscription } from "./subscriptions.js";

/** One listen: the tasks it asks for that are still followed, and the subscription once open. */
interface Listen {
  readonly ids: Set<string>;
  subscription: Subscription | undefined;
}

export class TaskListens {
  /** Whether the server sends `notifications/tasks` to a listen that asks (unknown until one asked). */
  private offered: boolean | undefined;
  /** Tasks followed since the last listen opened, not yet in one. */
  private readonly waiting = new Set<string>();
  /** The listen each followed task is in, opened or opening. */
  private readonly listenOf = new Map<string, Listen>();
  /** Listens opened or opening that still ask for a followed task. */
  private readonly live = new Set<Listen>();
  private scheduled = false;

  constructor(
    private readonly open: (taskIds: string[]) => Promise<Subscription>,
    private readonly serverId: string,
    private readonly logger: Logger,
  ) {}

  /** A task has its first follower. */
  followed(taskId: string): void {
    if (this.offered === false) return;
    this.waiting.add(taskId);
    if (this.scheduled) return;
    this.scheduled = true;
    // Followers that start together (a batch of calls) share one listen.
    nextTurn(() => void this.openWaiting());
  }

  /** A task has no follower left. */
  unfollowed(taskId: string): void {
    if (this.waiting.delete(taskId)) return;
    const listen = this.listenOf.get(taskId);
    if (listen === undefined) return;
    this.listenOf.delete(taskId);
    listen.ids.delete(taskId);
    if (listen.ids.size === 0) this.retire(listen);
  }

  /** A listen no followed task needs: closed now, or as it opens. */
  private retire(listen: Listen): void {
    this.live.delete(listen);
    void listen.subscription?.close();
  }

  private async openWaiting(): Promise<void> {
    this.scheduled = false;
    const ids = new Set(this.waiting);
    this.waiting.clear();
    if (ids.size === 0 || this.offered === false) return;
    const absorbed: Listen[] = [];
    for (const listen of [...this.live].sort((a, b) => a.ids.size - b.ids.size)) {
      if (listen.ids.size > ids.size) break;
      for (const id of listen.ids) ids.add(id);
      listen.ids.clear();
      this.live.delete(listen);
      absorbed.push(listen);
    }
    const listen: Listen = { ids, subscription: undefined };
    for (const id of ids) this.listenOf.set(id, listen);
    this.live.add(listen);
    const subscription = await this.listenFor([...ids]);
    // The new listen is open (or failed, and the tasks are polled alone) before the old ones close.
    for (const old of absorbed) void old.subscription?.close();
    if (subscription === undefined) {
      for (const id of ids) this.listenOf.delete(id);
      this.live.delete(listen);
      return;
    }
    listen.subscription = subscription;
    if (ids.size === 0) this.retire(listen);
  }

  private async listenFor(ids: string[]): Promise<Subscription | undefined> {
    try {
      const subscription = await this.open(ids);
      const honoured = subscription.honoured.taskIds;
      const any = Array.isArray(honoured) && honoured.length > 0;
      this.offered ??= any;
      if (any) return subscription;
      await subscription.close();
    } catch (error) {
      if (this.offered === undefined) {
        this.offered = false;
        this.logger.debug(`server "${this.serverId}": no notifications/tasks (${error instanceof Error ? error.message : String(error)}); polling alone`);
      }
    }
    return undefined;
  }
}
