/**
 * Tasks, in one shape for both eras (2025-11-25 basic/utilities/tasks; the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension). The wire names differ (`ttl`/`pollInterval`
 * against `ttlMs`/`pollIntervalMs`); a `TaskHandle` has the modern names in both.
 */

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What a host is told of a task: a snapshot, as the server last described it. */
export interface TaskHandle {
  /** Tells a task apart from a tool's result: `result.resultType === "task"`. */
  readonly resultType: "task";
  readonly serverId: string;
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | undefined;
  /** ISO 8601, as the server gave it. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string | undefined;
  /** How long the server keeps the task from its creation; null: no limit. */
  readonly ttlMs: number | null;
  /** How often the server would like to be asked; undefined when it did not say. */
  readonly pollIntervalMs: number | undefined;
  /** 2025-11-25: a text the server suggests giving a model meanwhile (`model-immediate-response`). */
  readonly immediateResponse?: string | undefined;
}

/**
 * `callTool`'s `task` option: ask for a task (2025-11-25), with the lifetime wished for; `keep`
 * writes the handle to the client's `store`, for another Client to pick up (`keptTask`).
 */
export type TaskRequest = true | { ttlMs?: number; keep?: boolean };
