/**
 * What the followers of one task share on one connection: the input request keys already seen
 * (2026-07-28: a key is answered once, however many follow the task), the input rounds so far,
 * the context its input requests get (2025-11-25: the first follower's `assigns`, the
 * `tasks/result` in flight), and who hears of its status notifications. A share lives while
 * someone follows the task.
 */
import type { TaskSnapshot } from "./tasks.js";

export class TaskShare {
  /** 2026-07-28: the input request keys seen, with what each asked (canonical JSON). */
  readonly seen = new Map<string, string>();
  /** Input rounds answered for the task so far. */
  rounds = 0;
  /** 2025-11-25: the id of the `tasks/result` in flight, if one is. */
  resultCall: number | undefined;
  /** Resolves when a `tasks/result` in flight ends: one at a time per task. */
  resultDone: Promise<unknown> | undefined;
  readonly listeners = new Set<(snapshot: TaskSnapshot) => void>();
  followers = 0;

  constructor(
    readonly taskId: string,
    readonly assigns: unknown,
  ) {}
}

const NOTHING = (): void => {};

export class TaskShares {
  /** Made with the first follower: every connection has a TaskShares, few ever follow a task. */
  private shares: Map<string, TaskShare> | undefined;
  private count = 0;

  /** Told when a task gets its first follower (`true`) and when its last one leaves (`false`). */
  constructor(private readonly changed: (taskId: string, followed: boolean) => void = NOTHING) {}

  /** Joins the followers of `taskId`; `leave` when done. */
  join(taskId: string, assigns: unknown, listener: (snapshot: TaskSnapshot) => void): { share: TaskShare; leave: () => void } {
    const shares = (this.shares ??= new Map<string, TaskShare>());
    let share = shares.get(taskId);
    const fresh = share === undefined;
    if (share === undefined) shares.set(taskId, (share = new TaskShare(taskId, assigns)));
    share.followers++;
    share.listeners.add(listener);
    this.count++;
    if (fresh) this.changed(taskId, true);
    let left = false;
    const joined = share;
    return {
      share: joined,
      leave: () => {
        if (left) return;
        left = true;
        this.count--;
        joined.listeners.delete(listener);
        if (--joined.followers === 0) {
          shares.delete(taskId);
          this.changed(taskId, false);
        }
      },
    };
  }

  get(taskId: string): TaskShare | undefined {
    return this.shares?.get(taskId);
  }

  /** Followers in all (each is a call in flight for the idle rule). */
  get following(): number {
    return this.count;
  }

  /** A status notification for `taskId`: its followers take it as a look. */
  notify(taskId: string, snapshot: TaskSnapshot): void {
    const share = this.shares?.get(taskId);
    if (share === undefined) return;
    for (const listener of share.listeners) listener(snapshot);
  }

  has(taskId: string): boolean {
    return this.shares?.has(taskId) === true;
  }
}
