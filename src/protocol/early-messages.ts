/**
 * What a server sends while the connection is being negotiated, held until the era is known:
 * the hooks need it, and nothing may be answered before the legacy era is confirmed (a modern
 * server gets no responses at all). Notifications are kept (a legacy server may log before
 * `initialized`), and so are `ping`s, answered once the era allows it. Both are bounded.
 */
import type { InboundRequest } from "../rpc/inbound-request.js";

/** Notifications kept while negotiating. */
const EARLY_NOTIFICATIONS = 256;
/** Pings kept while negotiating; more are left unanswered. */
const EARLY_PINGS = 8;

export interface EarlyReceiver {
  notification(method: string, params: Record<string, unknown>): void;
  serverRequest(request: InboundRequest): void;
}

export class EarlyMessages {
  private notifications: [method: string, params: Record<string, unknown>][] = [];
  private pings: InboundRequest[] = [];

  /** Keeps a notification; false when the buffer is full. */
  holdNotification(method: string, params: Record<string, unknown>): boolean {
    if (this.notifications.length >= EARLY_NOTIFICATIONS) return false;
    this.notifications.push([method, params]);
    return true;
  }

  /** Keeps a ping until the era is known; false when the buffer is full. */
  holdPing(request: InboundRequest): boolean {
    if (this.pings.length >= EARLY_PINGS) return false;
    this.pings.push(request);
    return true;
  }

  /** Hands everything held to `receiver`, in the order each kind arrived. */
  flush(receiver: EarlyReceiver): void {
    const { notifications, pings } = this;
    this.clear();
    for (const request of pings) receiver.serverRequest(request);
    for (const [method, params] of notifications) receiver.notification(method, params);
  }

  private clear(): void {
    this.notifications = [];
    this.pings = [];
  }
}
