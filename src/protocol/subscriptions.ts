/**
 * `subscriptions/listen` (2026-07-28 basic/patterns/subscriptions): the modern way to hear of
 * list changes and resource updates. The listen request stays open; the server first sends
 * `notifications/subscriptions/acknowledged` with the part of the filter it honours, then the
 * notifications asked for, each tagged with the listen request's id as
 * `_meta["io.modelcontextprotocol/subscriptionId"]`. It ends with a result for the request or
 * a `notifications/cancelled` naming it (the spec says both; either is taken), or when the
 * client closes it: a cancellation on stdio, the response stream closed over HTTP.
 */
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { delay } from "../util/time.js";
import type { RpcPeer } from "../rpc/peer.js";
import { META } from "./envelope.js";
import type { ModernCodec } from "./modern.js";

export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension: `notifications/tasks` for these tasks (a follower takes them as polls). */
  taskIds?: string[];
}

export interface Subscription {
  /** The part of the filter the server honours. */
  readonly honoured: ListenFilter;
  /** Resolves when the subscription ends: undefined when closed or ended by the server normally. */
  readonly ended: Promise<ClientError | undefined>;
  close(): Promise<void>;
}

interface Live {
  acknowledge(filter: ListenFilter): void;
  end(error: ClientError | undefined): void;
}

export class Subscriptions {
  private readonly live = new Map<number, Live>();

  constructor(
    private readonly peer: RpcPeer,
    private readonly codec: ModernCodec,
    /** Over stdio a request is cancelled by notification; over HTTP abandoning it closes its stream. */
    private readonly notifyCancel: boolean,
  ) {}

  /**
   * Opens a subscription; resolves once the server acknowledged it. `signal` closes it, also
   * before the acknowledgement (then the promise rejects with `"cancelled"`).
   */
  listen(filter: ListenFilter, ackTimeout: number, signal?: AbortSignal): Promise<Subscription> {
    const controller = new AbortController();
    let id = -1;
    let acknowledged = false;
    let endedWith: (error: ClientError | undefined) => void = () => {};
    const ended = new Promise<ClientError | undefined>((resolve) => (endedWith = resolve));
    return new Promise<Subscription>((resolve, reject) => {
      const finish = (error: ClientError | undefined): void => {
        stopWaiting.abort();
        if (!this.live.delete(id)) return;
        controller.abort(error);
        endedWith(error);
        if (!acknowledged) reject(error ?? new ClientError("protocol", "the server ended the subscription before acknowledging it"));
      };
      const close = (error?: ClientError): void => {
        if (!this.live.has(id)) return;
        if (this.notifyCancel) this.peer.notify("notifications/cancelled", { requestId: id, reason: "the client closed the subscription" });
        finish(error);
      };
      // The wait for the acknowledgement (Infinity: none); ended by the acknowledgement or the end.
      const stopWaiting = new AbortController();
      delay(ackTimeout, stopWaiting.signal).then(
        () => close(new ClientError("timeout", `subscriptions/listen was not acknowledged within ${ackTimeout} ms`)),
        () => {},
      );
      const request = this.codec.leg(
        "subscriptions/listen",
        { notifications: filter },
        { timeout: Infinity, cancellable: false, onId: (assigned) => (id = assigned) },
        controller.signal,
        undefined,
      );
      if (id === -1) {
        // Refused before it was sent (the connection is closed).
        stopWaiting.abort();
        request.then(() => reject(new ClientError("closed", "the connection is closed")), reject);
        return;
      }
      signal?.addEventListener("abort", () => close(new ClientError("cancelled", "the subscription was closed before it was acknowledged")), { once: true });
      this.live.set(id, {
        acknowledge: (honoured) => {
          if (acknowledged) return;
          acknowledged = true;
          stopWaiting.abort();
          resolve({ honoured, ended, close: () => Promise.resolve(close()) });
        },
        end: finish,
      });
      request.then(
        () => finish(undefined),
        (error: unknown) => {
          if (!controller.signal.aborted) finish(error instanceof ClientError ? error : new ClientError("transport", String(error), { cause: error }));
        },
      );
    });
  }

  /** Takes the notifications that belong to subscriptions themselves; true when consumed. */
  consume(method: string, params: Record<string, unknown>): boolean {
    if (method === "notifications/subscriptions/acknowledged") {
      const id = subscriptionOf(params);
      const live = id === undefined ? undefined : this.live.get(id);
      live?.acknowledge(isObject(params.notifications) ? (params.notifications) : {});
      return true;
    }
    if (method === "notifications/cancelled" && typeof params.requestId === "number") {
      const live = this.live.get(params.requestId);
      if (live === undefined) return false;
      live.end(undefined);
      return true;
    }
    // Routed by subscription (a MUST on stdio): one no subscription of this client is open for
    // (closed, or never asked for) goes no further.
    const id = subscriptionOf(params);
    return id !== undefined && !this.live.has(id);
  }

  /** The connection ended: every subscription with it. */
  endAll(error: ClientError | undefined): void {
    for (const live of [...this.live.values()]) live.end(error);
  }
}

function subscriptionOf(params: Record<string, unknown>): number | undefined {
  const meta = params._meta;
  const id = isObject(meta) ? meta[META.subscriptionId] : undefined;
  return typeof id === "number" ? id : undefined;
}
