/**
 * The messages an HTTP connection sends that expect no reply of their own — notifications, and
 * the answers to the server's requests — each one a POST. At most `MAX_PENDING_MESSAGES` are on
 * their way at once (a server that never answers them must not pin an unbounded number of
 * sockets); the others wait here, in order, for a slot.
 *
 * While any wait, the event streams that bring the server's messages are not read (`paused`):
 * a server that floods requests and does not take the answers gets no more of them read than
 * it takes, and none of its answers is dropped (as `stream.pipe` does, and as stdio does). So
 * what waits is at most what one chunk of a stream asked for. Past `MAX_WAITING_BYTES` the
 * outbox refuses a message; the transport then ends the connection, as stdio does: an answer
 * cannot be dropped without leaving the server waiting for it for ever.
 */

/** Notifications and responses on their way at once; the others wait. */
export const MAX_PENDING_MESSAGES = 64;
/** Bytes of messages waiting for a slot beyond which the connection ends. */
export const MAX_WAITING_BYTES = 8 * 1024 * 1024;

interface Waiter {
  bytes: number;
  go(): void;
}

export class HttpOutbox {
  private sending = 0;
  private waiting: Waiter[] = [];
  private head = 0;
  private waitingBytes = 0;
  private drained: { promise: Promise<void>; resolve(): void } | undefined;
  private closed = false;

  /**
   * Takes a slot for a message of `bytes`: undefined when one was free, else a promise that
   * resolves when it is the message's turn or the outbox closed (check before sending), or false
   * when too much waits already.
   */
  enter(bytes: number): Promise<void> | undefined | false {
    if (this.closed) return undefined;
    if (this.sending < MAX_PENDING_MESSAGES && this.head === this.waiting.length) {
      this.sending += 1;
      return undefined;
    }
    if (this.waitingBytes + bytes > MAX_WAITING_BYTES) return false;
    this.waitingBytes += bytes;
    return new Promise<void>((resolve) => this.waiting.push({ bytes, go: resolve }));
  }

  /** A message that held a slot was answered, refused or given up: the next one may go. */
  leave(): void {
    if (this.sending > 0) this.sending -= 1;
    if (this.head === this.waiting.length) return;
    const next = this.waiting[this.head]!;
    // Let go of what was run: a consumed slot would keep its closure alive.
    this.waiting[this.head] = undefined as unknown as Waiter;
    this.head += 1;
    this.waitingBytes -= next.bytes;
    this.sending += 1;
    next.go();
    if (this.head === this.waiting.length) this.emptied();
  }

  /** While messages wait: settles when none does (or the outbox closes). Read no stream meanwhile. */
  get paused(): Promise<void> | undefined {
    if (this.head === this.waiting.length) return undefined;
    if (this.drained === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.drained = { promise, resolve };
    }
    return this.drained.promise;
  }

  /** The connection ends: every waiter goes (and finds it closed), the streams are released. */
  close(): void {
    this.closed = true;
    const waiting = this.waiting.slice(this.head);
    this.waiting = [];
    this.head = 0;
    this.waitingBytes = 0;
    for (const waiter of waiting) waiter.go();
    this.emptied();
  }

  private emptied(): void {
    this.waiting = [];
    this.head = 0;
    const drained = this.drained;
    this.drained = undefined;
    drained?.resolve();
  }
}
