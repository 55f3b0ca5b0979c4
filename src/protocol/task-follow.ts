/**
 * Following a task to its end, in either era: look at it every poll interval (the server's,
 * kept between a floor and a ceiling, never earlier), let the era act on what each look shows
 * (`EraTasks.advance`: answer its input, fetch its result), and end with what the call would
 * have returned. A status notification, when one comes, ends the wait at once; none is waited
 * for.
 *
 * - `timeout` bounds the whole wait (`"timeout"`, naming the bound); the task goes on at the
 *   server.
 * - A task past `createdAt + ttlMs` that has not ended is given up (`"timeout"`).
 * - The followers of one task on one connection share what they learn of it (`task-shares.ts`):
 *   its input is answered once.
 * - The caller's `signal` cancels the task with `tasks/cancel` (never `notifications/cancelled`,
 *   which no `tasks/*` request sends) and rejects with `"cancelled"`.
 * - A status that leaves a terminal one, or an unknown one: `"protocol"`; the task is left as it
 *   is.
 * - The connection's end ends the wait with the connection's error.
 */
import { protocolError } from "../util/assert.js";
import { canonicalJson } from "../util/json.js";
import { ClientError } from "../util/errors.js";
import { callHost, type Logger } from "../util/logger.js";
import { quote } from "../util/text.js";
import { SpanBound, delay, now } from "../util/time.js";
import type { ParkedRound } from "./mrtr.js";
import type { TaskShare } from "./task-shares.js";
import { isTerminal, type TaskSnapshot } from "./tasks.js";
import type { TaskHandle, TaskRequest } from "./types/index.js";

/** The poll interval when the server names none, and the bounds of the one it names. */
export const DEFAULT_POLL_MS = 1_000;
export const MIN_POLL_MS = 10;
export const MAX_POLL_MS = 30_000;
/**
 * The longest a call follows a task it did not ask for when the caller gave no bound: until the
 * task ends or its TTL passes, and a TTL of a day (or none) is not a wait of a day.
 */
export const MAX_UNASKED_FOLLOW_MS = 3_600_000;

export interface AwaitTaskOptions {
  signal?: AbortSignal | undefined;
  /** Bound on the whole wait, in ms. */
  timeout?: number | undefined;
  /** Handler context of the task's input requests. */
  assigns?: unknown;
  /** Told of every new status or status message. */
  onStatus?: ((task: TaskHandle) => void) | undefined;
}

/** What the library's own follows add: the name of the bound `timeout` is, for the error it ends with. */
export interface FollowOptions extends AwaitTaskOptions {
  /** Says what ended the wait ("the call's maxTotalTimeout of 5000 ms"); default: the timeout's ms. */
  readonly bound?: string | undefined;
  /** The task's questions end the follow as a `TaskInputParked` instead of going to the Handler (`inputRequired: "return"`). */
  readonly park?: boolean | undefined;
  /**
   * A parked round answered by a resume, perhaps in another process: its keys count as seen,
   * so that a status that still shows them (the update is only eventually visible) is not asked
   * again, and its round counts against `maxInputRounds`.
   */
  readonly answered?: { readonly requests: Readonly<Record<string, unknown>>; readonly round: number } | undefined;
}

/**
 * A followed task asked for input that the caller wants back rather than answered here
 * (`inputRequired: "return"`): the follow ends with the round, which becomes a PendingInput of
 * `tasks/update`. The task waits at the server meanwhile.
 */
export class TaskInputParked {
  constructor(
    readonly taskId: string,
    readonly round: ParkedRound,
  ) {}
}

/** What a step of the era is given. */
export interface TaskFlow {
  readonly assigns: unknown;
  readonly signal: AbortSignal;
  /** What the followers of this task share on the connection. */
  readonly share: TaskShare;
  /** Milliseconds left of the task's lifetime; undefined when it has no limit. */
  ttlLeft(): number | undefined;
  /** Input is parked, not answered (`FollowOptions.park`). */
  readonly park: boolean;
}

/** What each era does with tasks; `legacy.ts` and `modern.ts` each hold one. */
export interface EraTasks {
  readonly serverId: string;
  /** Why tasks cannot be followed on this connection, or undefined when they can. */
  readonly unavailable: string | undefined;
  /** Sends the answers to a task's parked input (2026-07-28 `tasks/update`); absent where input waits on the connection. */
  sendInput?(taskId: string, inputResponses: Record<string, unknown>, signal: AbortSignal | undefined): Promise<void>;
  /** Whether `tasks/cancel` may be sent. */
  readonly canCancel: boolean;
  /** Whether a plain `tools/call` may get a task (2026-07-28; 2025-11-25 tools that require one). */
  readonly makesUnasked: boolean;
  /** The `task` param to add to a `tools/call` (2025-11-25), or undefined to call plainly. */
  ask(tool: string, wanted: TaskRequest | undefined, signal: AbortSignal | undefined): Promise<Record<string, unknown> | undefined>;
  /** The task a `tools/call` result created, or undefined when it is a plain result. */
  created(raw: Record<string, unknown>, asked: boolean): TaskSnapshot | undefined;
  get(taskId: string, signal: AbortSignal | undefined): Promise<TaskSnapshot>;
  /** The call's result when this look ends the task (or the era fetches it now); undefined: look again later. */
  advance(snapshot: TaskSnapshot, flow: TaskFlow): Promise<Record<string, unknown> | undefined>;
  cancel(taskId: string): Promise<void>;
  list?(cursor: string | undefined): Promise<{ tasks: TaskHandle[]; nextCursor?: string | undefined }>;
  /** Joins the followers of `taskId`, hearing of its status notifications, until `leave`. */
  join(taskId: string, assigns: unknown, listener: (snapshot: TaskSnapshot) => void): { share: TaskShare; leave: () => void };
  /** Aborts when the connection ends. */
  lifetime(): AbortSignal;
}

/** `start`: what the caller knows, a snapshot (a creation result) or the bare id. */
export async function followTask(tasks: EraTasks, start: TaskSnapshot | string, options: FollowOptions, logger: Logger): Promise<Record<string, unknown>> {
  const taskId = typeof start === "string" ? start : start.handle.taskId;
  const lifetime = tasks.lifetime();
  const span = new SpanBound([options.signal, lifetime], options.timeout, () => new Error(`timeout of ${options.timeout} ms`));
  let pushed: TaskSnapshot | undefined;
  const pause = new Pause(span.signal);
  const { share, leave } = tasks.join(taskId, options.assigns, (snapshot) => {
    pushed = snapshot;
    pause.wake();
  });
  if (options.answered !== undefined) {
    for (const [key, request] of Object.entries(options.answered.requests)) if (!share.seen.has(key)) share.seen.set(key, canonicalJson(request));
    share.rounds = Math.max(share.rounds, options.answered.round);
  }
  const lifetimeOf = new TaskLifetime();
  const flow: TaskFlow = { assigns: options.assigns, signal: span.signal, share, ttlLeft: () => lifetimeOf.left(), park: options.park === true };
  let last: TaskHandle | undefined;
  try {
    let snapshot = typeof start === "string" ? await tasks.get(taskId, span.signal) : start;
    for (;;) {
      last = observe(last, snapshot.handle, options, logger);
      lifetimeOf.look(snapshot.handle);
      const outcome = await tasks.advance(snapshot, flow);
      if (outcome !== undefined) return outcome;
      lifetimeOf.check(snapshot.handle);
      if (pushed === undefined) await pause.wait(pollInterval(snapshot.handle));
      const next = pushed;
      pushed = undefined;
      snapshot = next ?? (await tasks.get(taskId, span.signal));
    }
  } catch (error) {
    // Parked input ends the follow and leaves the task to wait at the server: nothing to cancel.
    if (error instanceof TaskInputParked) throw error;
    throw ending(error, tasks, taskId, span, options, lifetime, logger);
  } finally {
    leave();
    pause.dispose();
    span.dispose();
  }
}

/** The server's interval between the floor and the ceiling. */
function pollInterval(task: TaskHandle): number {
  const asked = task.pollIntervalMs ?? DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked));
}

/**
 * The follower's waits between looks: a push ends the wait under way, the span's end rejects it.
 * One controller serves every wait of the follow and is replaced only after a push, so a poll
 * costs a timer and no AbortController (two a poll were most of a poll's garbage with 1 000
 * tasks followed).
 */
class Pause {
  private controller = new AbortController();

  constructor(private readonly span: AbortSignal) {
    span.addEventListener("abort", this, { once: true });
  }

  async wait(ms: number): Promise<void> {
    if (this.span.aborted) throw new ClientError("cancelled", "the wait ended");
    await delay(ms, this.controller.signal).catch(() => {});
    if (this.span.aborted) throw new ClientError("cancelled", "the wait ended");
  }

  /** A status was pushed: the wait under way, if any, ends now. */
  wake(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }

  /** The span ended (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    this.controller.abort();
  }

  dispose(): void {
    this.span.removeEventListener("abort", this);
  }
}

/** Checks the step from the last status to this one; tells the host of a change. */
function observe(last: TaskHandle | undefined, next: TaskHandle, options: AwaitTaskOptions, logger: Logger): TaskHandle {
  if (last !== undefined && isTerminal(last.status) && next.status !== last.status) {
    throw protocolError(`task ${quote(next.taskId)} went from "${last.status}" back to "${next.status}"`, next);
  }
  const changed = last === undefined || last.status !== next.status || last.statusMessage !== next.statusMessage;
  if (changed && options.onStatus !== undefined) callHost(logger, "onStatus", options.onStatus, next);
  return next;
}

/**
 * When a task that has not ended is given up: `createdAt + ttlMs`, on this client's monotonic
 * clock. The age at the first look is what the server's own two stamps say (`lastUpdatedAt`
 * less `createdAt`): a lower bound that never compares the server's clock with this one.
 */
class TaskLifetime {
  /** `now()` at the task's creation, as far as this client can tell. */
  private born: number | undefined;
  private ttl: number | null = null;

  look(task: TaskHandle): void {
    this.ttl = task.ttlMs;
    if (this.born !== undefined) return;
    const created = Date.parse(task.createdAt);
    const updated = task.lastUpdatedAt === undefined ? created : Date.parse(task.lastUpdatedAt);
    this.born = now() - Math.max(0, updated - created);
  }

  left(): number | undefined {
    if (this.ttl === null || this.born === undefined) return undefined;
    return Math.max(0, this.born + this.ttl - now());
  }

  check(task: TaskHandle): void {
    if (isTerminal(task.status) || this.left() !== 0) return;
    throw new ClientError("timeout", `task ${quote(task.taskId)} passed its lifetime of ${task.ttlMs} ms without ending`);
  }
}

/** The error the wait ends with; a cancel by the caller is sent as `tasks/cancel` (not waited for). */
function ending(error: unknown, tasks: EraTasks, taskId: string, span: SpanBound, options: FollowOptions, lifetime: AbortSignal, logger: Logger): unknown {
  if (span.timedOut) {
    const bound = options.bound ?? `${options.timeout} ms`;
    return new ClientError("timeout", `task ${quote(taskId)} did not end within ${bound}; it goes on at the server (awaitTask follows it further)`, { cause: error });
  }
  if (lifetime.aborted && lifetime.reason instanceof ClientError) return lifetime.reason;
  if (options.signal?.aborted === true) {
    // Cooperative, and its ack says only that: a failure to send it is told, not thrown.
    if (tasks.canCancel) tasks.cancel(taskId).catch((failure: unknown) => logger.warn(`server "${tasks.serverId}": tasks/cancel of task ${quote(taskId)} failed`, { error: failure }));
    return new ClientError("cancelled", `task ${quote(taskId)} was cancelled`, { cause: options.signal.reason });
  }
  return error;
}
