/**
 * A request the server sent us. It is answered exactly once: by a result, by an error, or not
 * at all when the server cancelled it (legacy basic/utilities/cancellation: the receiver
 * should not respond to a cancelled request).
 */
import type { RequestId } from "../util/json.js";
import { copyOwn, withField } from "../util/sanitize.js";
import type { InboundMeta } from "../transport/transport.js";

/** A response to a server request, as it goes on the wire. */
export interface ResponseMessage {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly result?: object;
  readonly error?: { code: number; message: string; data?: unknown };
}

export interface ResponseSink {
  respondWith(message: ResponseMessage): void;
  /** The request was answered, or may no longer be. */
  settled(request: InboundRequest): void;
}

export class InboundRequest {
  private readonly controller = new AbortController();
  private answered = false;
  /** `_meta` keys every result of this request carries (2025-11-25: the `related-task` tag). */
  resultMeta: Record<string, unknown> | undefined;

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
    const tagged = this.resultMeta === undefined ? result : withMeta(result, this.resultMeta);
    this.answer({ jsonrpc: "2.0", id: this.id, result: tagged });
  }

  fail(code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.answer({ jsonrpc: "2.0", id: this.id, error });
  }

  /** The server withdrew the request, or the connection ended: abort, and never answer. */
  abandon(reason: unknown): void {
    if (this.answered) return;
    this.answered = true;
    this.sink.settled(this);
    this.controller.abort(reason);
  }

  /** The answer goes out before the request counts as settled: a batch's reply waits for both. */
  private answer(message: ResponseMessage): void {
    if (this.answered) return;
    this.answered = true;
    this.sink.respondWith(message);
    this.sink.settled(this);
  }
}

function withMeta(result: object, meta: Record<string, unknown>): object {
  const own = (result as { _meta?: unknown })._meta;
  const merged = typeof own === "object" && own !== null && !Array.isArray(own) ? copyOwn(meta, copyOwn(own, {})) : meta;
  return withField(result, "_meta", merged);
}
