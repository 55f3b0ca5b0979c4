/**
 * POSTs whose request is answered but whose reply is still open.
 *
 * A server should end a POST's event stream once it has sent the response; one that never does
 * (or that answers on another stream) would pin a socket for every call it answered, without
 * bound. Each answered request's exchange is given `graceMs` to end on its own (the usual end
 * follows the response at once), then cancelled. One timer for the transport, armed only while
 * some exchange lingers: an answered call costs a map entry, not a timer, and a connection
 * whose replies all end at once never makes the map.
 */
import { now } from "../util/time.js";
import type { Ticket } from "./http-exchange.js";
import { unref } from "../util/runtime.js";

/** How long an answered request's reply may stay open before the client lets go of it. */
export const ANSWERED_REPLY_GRACE_MS = 1_000;

export class Lingering {
  private since: Map<Ticket, number> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly graceMs = ANSWERED_REPLY_GRACE_MS) {}

  /** The request of `ticket` was answered: its reply has `graceMs` left to end. */
  answered(ticket: Ticket): void {
    const since = (this.since ??= new Map<Ticket, number>());
    if (ticket.cancelled || since.has(ticket)) return;
    since.set(ticket, now());
    if (this.timer === undefined) this.arm(this.graceMs);
  }

  /** The exchange of `ticket` ended: nothing to let go of. */
  ended(ticket: Ticket): void {
    // Every request's POST ends here: most never lingered.
    if (this.since !== undefined && this.since.size !== 0) this.since.delete(ticket);
  }

  /** The transport ends: its exchanges are cancelled there. */
  clear(): void {
    this.since?.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.sweep(), ms);
    // Lingering replies are no reason for the process to stay.
    unref(this.timer);
  }

  private sweep(): void {
    this.timer = undefined;
    const at = now();
    let next = Infinity;
    const lingering = this.since;
    if (lingering === undefined) return;
    for (const [ticket, since] of lingering) {
      const due = since + this.graceMs;
      if (due <= at) {
        lingering.delete(ticket);
        ticket.cancel();
      } else next = Math.min(next, due);
    }
    if (next < Infinity) this.arm(next - at);
  }
}
