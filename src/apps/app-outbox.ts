/**
 * What the host says to a view before the view may hear it. The spec forbids any request or
 * notification before `ui/notifications/initialized`; the host's tool data comes when the tool
 * runs, which may be sooner. So it waits here, in order, and goes out in that order once the
 * view is ready.
 *
 * Bounded by construction rather than by a count: tool input, its result and its cancellation
 * are each sent at most once (the session sees to it), a newer partial input replaces the one
 * waiting, and context changes merge into the one waiting (the view merges them the same way).
 * So at most four notifications ever wait (a partial input, the input, its outcome, a context change), however often the host calls.
 */
import { AppMethod, notification, type OutgoingMessage } from "./app-protocol.js";

interface Waiting {
  method: string;
  params: Record<string, unknown>;
}

export class AppOutbox {
  private waiting: Waiting[] = [];

  add(method: string, params: Record<string, unknown>): void {
    if (method === AppMethod.ToolInputPartial) {
      this.waiting = this.waiting.filter((entry) => entry.method !== AppMethod.ToolInputPartial);
    } else if (method === AppMethod.HostContextChanged) {
      const pending = this.waiting.find((entry) => entry.method === AppMethod.HostContextChanged);
      if (pending !== undefined) {
        pending.params = { ...pending.params, ...params };
        return;
      }
    }
    this.waiting.push({ method, params });
  }

  /** How many notifications wait. */
  get size(): number {
    return this.waiting.length;
  }

  /** Everything waiting, oldest first; the outbox is empty after. */
  drain(): OutgoingMessage[] {
    const out = this.waiting.map((entry) => notification(entry.method, entry.params));
    this.waiting = [];
    return out;
  }

  clear(): void {
    this.waiting = [];
  }
}
