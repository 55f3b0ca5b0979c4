/**
 * What servers repeat, told the person once. A server may say its tools changed five times as it
 * starts, and a task's status comes as a notification, as the call's own report, and as each
 * poll's answer: a list change is told once until the person gives a command (after which a new
 * one is news), a task's status only when it differs from the last told for that task.
 */
import type { Output } from "./output.js";
import { shownLine } from "./output.js";

/** Tasks whose last status is remembered; the oldest is forgotten past it. */
const MAX_TASKS = 1_000;

export class Notices {
  private readonly changed = new Set<string>();
  private readonly statuses = new Map<string, string>();

  /** Whether "its `kind` changed" is worth telling now. */
  listChanged(serverId: string, kind: string): boolean {
    const key = `${serverId}\u0000${kind}`;
    if (this.changed.has(key)) return false;
    this.changed.add(key);
    return true;
  }

  /** Whether this line about a task differs from the last one told about it. */
  taskLine(serverId: string, taskId: string, line: string): boolean {
    const key = `${serverId}\u0000${taskId}`;
    if (this.statuses.get(key) === line) return false;
    this.statuses.delete(key);
    this.statuses.set(key, line);
    if (this.statuses.size > MAX_TASKS) this.statuses.delete(this.statuses.keys().next().value!);
    return true;
  }

  /** The person gave a command: what changes from now on is news again. */
  settle(): void {
    this.changed.clear();
  }
}

export interface TaskStatus {
  readonly taskId?: unknown;
  readonly status?: unknown;
  readonly statusMessage?: unknown;
}

/** `[server] task <id>: <status> — <message>`, dim, unless it was the last thing told about that task. */
export function noteTask(out: Output, serverId: string, task: TaskStatus): void {
  const message = typeof task.statusMessage === "string" ? ` — ${shownLine(task.statusMessage, 200)}` : "";
  const id = shownLine(task.taskId, 100);
  const line = `[${serverId}] task ${id}: ${shownLine(task.status, 40)}${message}`;
  if (out.notices.taskLine(serverId, id, line)) out.note(out.err.dim(line));
}
