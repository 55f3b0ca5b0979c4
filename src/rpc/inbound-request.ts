/**
 * A request the server sent us. It is answered exactly once: by a result, by an error, or not
 * at all when the server cancelled it (legacy basic/utilities/cancellation: the receiver
 * should not respond to a cancelled request).
 */
import type { RequestId } from "../util/json.js";
import type { InboundMeta } from "../transport/transport.js";

export interface ResponseSink {
  respondWith(message: object): void;
  /** The request was answered, or may no longer be. */
  settled(request: InboundRequest): void;
}

export class InboundRequest {
  private readonly controller = new AbortController();
  private answered = false;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly params: Record<string, unknown> | undefined,
    readonly meta: InboundMeta | undefined,
    private readonly sink: ResponseSink,
  ) {}

  /** Aborts when the server cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  respond(result: object): void {
    if (!this.settle()) return;
    this.sink.respondWith({ jsonrpc: "2.0", id: this.id, result });
  }

  fail(code: number, message: string, data?: unknown): void {
    if (!this.settle()) return;
    const error = data === undefined ? { code, message } : { code, message, data };
    this.sink.respondWith({ jsonrpc: "2.0", id: this.id, error });
  }

  /** The server withdrew the request, or the connection ended: abort, and never answer. */
  abandon(reason: unknown): void {
    if (!this.settle()) return;
    this.controller.abort(reason);
  }

  private settle(): boolean {
    if (this.answered) return false;
    this.answered = true;
    this.sink.settled(this);
    return true;
  }
}
