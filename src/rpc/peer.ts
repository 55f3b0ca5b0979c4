/**
 * The JSON-RPC 2.0 peer: numbers outbound requests, matches responses to them by id (exactly:
 * number against number), runs their deadlines, cancellation and progress, and sorts what
 * arrives into responses, server requests and notifications.
 *
 * It never throws on what a server sends. Garbage is counted, logged sparsely (a server can send
 * it by the million: `sparse-log.ts`) and reported to the handlers, which decide whether it is
 * answered (`replyInvalid`): the peer knows nothing of
 * eras, nor of any method beyond `notifications/progress` and `notifications/cancelled`, the
 * JSON-RPC-level utilities. Likewise, when the client gives up on a request, the handlers say
 * how the server hears of it; the peer then releases what carries the reply.
 *
 * Lifecycle: `close(error)` rejects every pending call with `error` at once and stops
 * answering; it is the peer's one end.
 */
import { ClientError, ErrorCode, InvalidArgumentError } from "../util/errors.js";
import { callHost, type Logger } from "../util/logger.js";
import { isObject, isRequestId, type RequestId } from "../util/json.js";
import { excerpt } from "../util/text.js";
import { withField } from "../util/sanitize.js";
import type { InboundMeta, Transport, TransportSink } from "../transport/transport.js";
import { DeadlineQueue, type ExpiryReason } from "./deadline.js";
import { InboundRequest, type ResponseMessage, type ResponseSink } from "./inbound-request.js";
import { PendingCall, type CallHost, type PendingCallInit, type Progress, type RelatedCall } from "./pending-call.js";
import { Occurrences, worthLogging } from "../util/sparse-log.js";

export interface PeerHandlers {
  onServerRequest(request: InboundRequest): void;
  onNotification(method: string, params: Record<string, unknown> | undefined, meta: InboundMeta | undefined): void;
  /** A message was not valid JSON-RPC; `code` is the error it would be answered with. */
  onInvalid(code: number): void;
  /** Whether a JSON-RPC batch (an array of messages) may arrive now (the 2025-03-26 rule). */
  acceptsBatches(): boolean;
  /** The client gave up on `call` (timeout or abort): tell the server, if the era says how. */
  onGaveUp(call: PendingCall, reason: string): void;
  /** The transport ended; `error` is undefined after a requested close. */
  onClosed(error: ClientError | undefined): void;
  /** The transport waits on a person (`true`) or no longer: the peer's own calls are paused already. */
  onPersonWait(waiting: boolean): void;
}

export interface PeerOptions {
  readonly serverId: string;
  readonly logger: Logger;
  /** The timeout of requests that name none (ms). */
  readonly requestTimeout: number;
  /** Deadlines shared with other peers (one timer for a whole client); else the peer's own. */
  readonly deadlines?: DeadlineQueue | undefined;
}

export interface PeerStats {
  /** Responses to an id that is unknown or already settled. */
  staleResponses: number;
  /** Inbound messages that were not valid JSON-RPC. */
  invalidMessages: number;
  /** Progress for a token no request has. */
  strayProgress: number;
}

export class RpcPeer implements TransportSink, CallHost, ResponseSink {
  readonly stats: PeerStats = { staleResponses: 0, invalidMessages: 0, strayProgress: 0 };
  readonly deadlines: DeadlineQueue;
  private readonly pending = new Map<number, PendingCall>();
  /** The calls `pauseDeadlines` paused, until `resumeDeadlines` (made on the first pause: most connections never have one). */
  private heldForPerson: Set<PendingCall> | undefined;
  /** The server's requests being answered (made on the first: many servers never send one). */
  private inbound: Map<RequestId, InboundRequest> | undefined;
  private nextId = 1;
  private callCount = 0;
  private closedWith: ClientError | undefined;
  /** The reply of the batch being read, which answers to invalid members join. */
  private collecting: BatchReply | undefined;
  /** Errors that named no request (a kind of stale response that is worth a warning). */
  private unnamedErrors: Occurrences | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: PeerHandlers,
    private readonly options: PeerOptions,
  ) {
    this.deadlines = options.deadlines ?? new DeadlineQueue();
  }

  /** Starts the transport with this peer as its sink. */
  start(signal?: AbortSignal): Promise<void> {
    return this.transport.start(this, signal);
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Calls in flight (tools/call, resources/read, prompts/get, tasks/result). */
  get callsInFlight(): number {
    return this.callCount;
  }

  /** The one call in flight, when there is exactly one. */
  soleCall(): RelatedCall | undefined {
    if (this.callCount !== 1) return undefined;
    for (const call of this.pending.values()) if (call.isCall) return call;
    return undefined;
  }

  /** The call in flight with this id (HTTP reports the id a server request came with). */
  pendingCall(id: RequestId | undefined): RelatedCall | undefined {
    const call = typeof id === "number" ? this.pending.get(id) : undefined;
    return call?.isCall === true ? call : undefined;
  }

  get requestTimeout(): number {
    return this.options.requestTimeout;
  }

  /** Sends a request; `isCall` marks the requests server input may relate to (DESIGN: calls). */
  request(method: string, params: Record<string, unknown> | undefined, init: PendingCallInit = {}, isCall = false): Promise<unknown> {
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    if (init.signal?.aborted === true) return Promise.reject(this.cancelledError(method, init.signal));
    const id = this.nextId++;
    init.onId?.(id);
    const call = new PendingCall(id, method, init, this, isCall);
    const promise = new Promise<unknown>((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    // A token asks the server for progress: for the caller to hear of, or for the deadline to
    // restart on (resetTimeoutOnProgress works with no onProgress too).
    const sentParams = init.onProgress === undefined && init.resetTimeoutOnProgress !== true ? params : withProgressToken(params, id);
    const message = sentParams === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: sentParams };
    this.pending.set(id, call);
    if (call.isCall) this.callCount += 1;
    call.watch();
    try {
      // The call says what the transport must know of the request (headers, a session start, its timeout).
      const sent = this.transport.send(message, id, call);
      if (sent !== undefined) sent.catch((error: unknown) => this.failCall(call, error));
    } catch (error) {
      this.finish(call);
      return Promise.reject(error instanceof ClientError ? error.withServer(this.options.serverId) : error);
    }
    return promise;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (this.closedWith !== undefined) return;
    const message = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    this.deliver(message);
  }

  /** Answers a message that was not valid JSON-RPC (with a null id: it could not name one); inside a batch, in its reply. */
  replyInvalid(code: number): void {
    const error = { code, message: code === ErrorCode.ParseError ? "Parse error" : "Invalid Request" };
    if (this.collecting !== undefined) this.collecting.add({ jsonrpc: "2.0", id: null, error });
    else this.deliver({ jsonrpc: "2.0", id: null, error });
  }

  /** @internal A batch's reply is complete: one array, each member serialisable on its own. */
  sendBatch(messages: object[]): void {
    const sendable = messages.map((message) => {
      try {
        JSON.stringify(message);
        return message;
      } catch {
        const id = (message as { id?: unknown }).id;
        return { jsonrpc: "2.0", id: isRequestId(id) ? id : null, error: { code: ErrorCode.InternalError, message: "Internal error" } };
      }
    });
    this.deliver(sendable);
  }

  /**
   * Stops the per-request clock of every call pending now, while the transport waits on a person
   * (an OAuth consent); `resumeDeadlines` restarts those same calls' clocks with what they had
   * left. A call's `maxTotalTimeout` runs on, as for any pause.
   */
  private pauseDeadlines(): void {
    const held = (this.heldForPerson ??= new Set());
    for (const call of this.pending.values()) {
      if (held.has(call)) continue;
      held.add(call);
      call.pause();
    }
  }

  private resumeDeadlines(): void {
    const held = this.heldForPerson;
    this.heldForPerson = undefined;
    for (const call of held ?? []) call.resume();
  }

  /** @see TransportSink: an OAuth consent takes the person's time, not the server's. */
  personWait(waiting: boolean): void {
    if (waiting) this.pauseDeadlines();
    else this.resumeDeadlines();
    this.handlers.onPersonWait(waiting);
  }

  /** Rejects everything pending with `error` and stops answering the server. Idempotent. */
  close(error: ClientError): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = error;
    for (const call of [...this.pending.values()]) {
      this.finish(call);
      call.reject(error);
    }
    if (this.inbound !== undefined) for (const request of [...this.inbound.values()]) request.abandon(error);
  }

  // ---- TransportSink -------------------------------------------------------------------------

  message(value: unknown, meta: InboundMeta | undefined): RequestId | undefined {
    if (Array.isArray(value) && this.handlers.acceptsBatches()) return this.receiveBatch(value, meta);
    return this.receive(value, meta, this);
  }

  /**
   * A batch (2025-03-26 basic/index, "Batching"): each member is handled as if it came alone, and
   * the answers to the requests among them go back in one array, once every one is answered.
   * Returns the id of `meta`'s request when a member answered it.
   */
  private receiveBatch(values: unknown[], meta: InboundMeta | undefined): RequestId | undefined {
    if (values.length === 0) return this.invalid("an empty batch", values, true);
    const reply = new BatchReply(this);
    let answered: RequestId | undefined;
    this.collecting = reply;
    try {
      for (const member of values) {
        const settled = Array.isArray(member) ? this.invalid("a batch inside a batch", member, true) : this.receive(member, meta, reply);
        if (settled !== undefined && settled === meta?.relatedRequestId) answered = settled;
      }
    } finally {
      this.collecting = undefined;
    }
    reply.seal();
    return answered;
  }

  /** One message; a request's answer goes to `sink` (the peer, or a batch's reply). */
  private receive(value: unknown, meta: InboundMeta | undefined, sink: ResponseSink): RequestId | undefined {
    if (!isObject(value)) return this.invalid(Array.isArray(value) ? "a batch (array)" : "not an object", value, true);
    if (value.jsonrpc !== "2.0") return this.invalid('"jsonrpc" is not "2.0"', value, "method" in value);
    const method = value.method;
    if (typeof method === "string") return this.receiveRequestOrNotification(value, method, meta, sink);
    if ("id" in value) return this.receiveResponse(value, meta);
    return this.invalid("neither a request, a notification nor a response", value, true);
  }

  parseError(raw: string, _meta: InboundMeta | undefined): void {
    if (this.countInvalid()) this.options.logger.warn(`dropped a message from server "${this.options.serverId}" that is not JSON${this.soFar()}`, { raw });
    this.handlers.onInvalid(ErrorCode.ParseError);
  }

  closed(error: ClientError | undefined): void {
    const reason = (error ?? new ClientError("closed", "the connection was closed")).withServer(this.options.serverId);
    this.close(reason);
    this.handlers.onClosed(error?.withServer(this.options.serverId));
  }

  // ---- inbound ---------------------------------------------------------------------------------

  private receiveRequestOrNotification(value: Record<string, unknown>, method: string, meta: InboundMeta | undefined, sink: ResponseSink): undefined {
    const params = value.params;
    if (params !== undefined && !isObject(params)) {
      if ("id" in value) return this.invalid('"params" is not an object', value, true);
      if (this.countInvalid()) this.options.logger.warn(`dropped notification "${excerpt(method, 100)}" whose params are not an object${this.soFar()}`);
      return undefined;
    }
    if (!("id" in value)) {
      this.receiveNotification(method, params, meta);
      return undefined;
    }
    const id = value.id;
    if (!isRequestId(id)) return this.invalid("request id is neither a string nor a number", value, true);
    if (this.closedWith !== undefined) return undefined;
    const inbound = (this.inbound ??= new Map<RequestId, InboundRequest>());
    if (inbound.has(id)) return this.invalid(`request id ${excerpt(id)} is already in use`, value, false);
    if (sink instanceof BatchReply) sink.expect();
    const request = new InboundRequest(id, method, params, meta, sink);
    inbound.set(id, request);
    this.handlers.onServerRequest(request);
    return undefined;
  }

  /**
   * @see ResponseSink. An answer that cannot be serialised (a BigInt in a Handler's result)
   * would leave the server waiting for ever: it gets an internal error instead.
   */
  respondWith(message: ResponseMessage): void {
    if (this.closedWith !== undefined) return;
    try {
      this.send(message);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) return this.undelivered(error);
      this.options.logger.warn(`the answer to server "${this.options.serverId}"'s request ${excerpt(message.id)} could not be serialised; sent an internal error instead`, { error });
      this.deliver({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InternalError, message: "Internal error" } });
    }
  }

  /** @see ResponseSink */
  settled(request: InboundRequest): void {
    this.inbound?.delete(request.id);
  }

  private receiveNotification(method: string, params: Record<string, unknown> | undefined, meta: InboundMeta | undefined): void {
    if (method === "notifications/progress") return this.progress(params);
    if (method === "notifications/cancelled" && params !== undefined && isRequestId(params.requestId)) {
      const request = this.inbound?.get(params.requestId);
      if (request !== undefined) {
        request.abandon(new ClientError("cancelled", "the server cancelled its request", { data: params.reason }));
        return;
      }
    }
    this.handlers.onNotification(method, params, meta);
  }

  private progress(params: Record<string, unknown> | undefined): void {
    const token = params?.progressToken;
    const call = typeof token === "number" ? this.pending.get(token) : undefined;
    if (call === undefined || params === undefined || typeof params.progress !== "number") {
      this.stats.strayProgress += 1;
      return;
    }
    if (call.resetOnProgress) call.deadline?.restart();
    const update: Progress = { progress: params.progress };
    if (typeof params.total === "number") update.total = params.total;
    if (typeof params.message === "string") update.message = params.message;
    if (call.onProgress !== undefined) callHost(this.options.logger, "a call's onProgress", call.onProgress, update);
  }

  /** Settles the call `value` answers; returns its id, or undefined when it answered none. */
  private receiveResponse(value: Record<string, unknown>, meta: InboundMeta | undefined): number | undefined {
    let id = value.id;
    // An error that could not name its request (id null) on the stream of one is that one's answer.
    if (id === null && typeof meta?.relatedRequestId === "number" && isObject(value.error) && this.pending.has(meta.relatedRequestId)) {
      id = meta.relatedRequestId;
    }
    const call = typeof id === "number" ? this.pending.get(id) : undefined;
    if (call === undefined) {
      this.stats.staleResponses += 1;
      if (id === null && isObject(value.error)) {
        if ((this.unnamedErrors ??= new Occurrences()).next()) this.options.logger.warn(`server "${this.options.serverId}" reported an error without an id (${this.unnamedErrors.count} so far)`, { error: excerpt(value.error) });
      } else if (worthLogging(this.stats.staleResponses)) {
        this.options.logger.debug(`dropped a response to unknown or settled id ${excerpt(id)} (${this.stats.staleResponses} stale so far, counted in stats().staleResponses)`);
      }
      return undefined;
    }
    this.finish(call);
    const error = value.error;
    if ("result" in value && !("error" in value)) call.resolve(value.result);
    else if ("error" in value && !("result" in value) && isRpcErrorObject(error)) {
      call.reject(
        new ClientError("rpc", `${call.method} failed: ${excerpt(error.message)} (code ${error.code})`, {
          serverId: this.options.serverId,
          code: error.code,
          data: error.data,
        }),
      );
    } else {
      call.reject(
        new ClientError("protocol", `the response to ${call.method} is malformed: it needs exactly one of "result" or a valid "error"`, {
          serverId: this.options.serverId,
          data: value,
        }),
      );
    }
    return call.id;
  }

  private invalid(why: string, value: unknown, answer: boolean): undefined {
    if (this.countInvalid()) this.options.logger.warn(`dropped an invalid message from server "${this.options.serverId}": ${why}${this.soFar()}`, { message: excerpt(value) });
    if (answer) this.handlers.onInvalid(ErrorCode.InvalidRequest);
    return undefined;
  }

  /** Counts one more invalid message; whether it is worth a log line. */
  private countInvalid(): boolean {
    this.stats.invalidMessages += 1;
    return worthLogging(this.stats.invalidMessages);
  }

  private soFar(): string {
    const count = this.stats.invalidMessages;
    return count === 1 ? "" : ` (${count} invalid so far, counted in stats().invalidMessages)`;
  }

  // ---- outbound ------------------------------------------------------------------------------

  /** Sends a message that is no request; a failure is logged (nothing waits for it). */
  private deliver(message: object): void {
    if (this.closedWith !== undefined) return;
    try {
      this.send(message);
    } catch (error) {
      this.undelivered(error);
    }
  }

  private send(message: object): void {
    const sent = this.transport.send(message, undefined, undefined);
    if (sent !== undefined) sent.catch((error: unknown) => this.options.logger.warn("a message to the server was not delivered", { error }));
  }

  private undelivered(error: unknown): void {
    this.options.logger.warn("a message to the server could not be sent", { error });
  }

  private finish(call: PendingCall): void {
    if (!this.pending.delete(call.id)) return;
    if (call.isCall) this.callCount -= 1;
    call.dispose();
  }

  private failCall(call: PendingCall, error: unknown): void {
    if (!this.pending.has(call.id)) return;
    this.finish(call);
    call.reject(
      error instanceof ClientError
        ? error.withServer(this.options.serverId)
        : new ClientError("transport", `${call.method} could not be sent: ${String(error)}`, {
            serverId: this.options.serverId,
            cause: error,
          }),
    );
  }

  /** @internal A call's deadline passed. */
  expire(call: PendingCall, reason: ExpiryReason): void {
    if (!this.pending.has(call.id)) return;
    this.finish(call);
    const ms = reason === "timeout" ? call.timeout : call.maxTotalTimeout;
    call.reject(
      new ClientError("timeout", `${call.method} timed out after ${ms} ms (${reason})`, {
        serverId: this.options.serverId,
      }),
    );
    this.giveUp(call, `${reason} after ${ms} ms`);
  }

  /** @internal A call's signal aborted. */
  abort(call: PendingCall): void {
    if (!this.pending.has(call.id)) return;
    this.finish(call);
    call.reject(this.cancelledError(call.method, call.signal));
    this.giveUp(call, "cancelled by the client");
  }

  private cancelledError(method: string, signal: AbortSignal | undefined): ClientError {
    return new ClientError("cancelled", `${method} was cancelled`, {
      serverId: this.options.serverId,
      cause: signal?.reason,
    });
  }

  /** The server hears of it as the era says; what carries the reply is released. */
  private giveUp(call: PendingCall, reason: string): void {
    this.handlers.onGaveUp(call, reason);
    this.transport.abandon(call.id);
  }
}

function isRpcErrorObject(value: unknown): value is { code: number; message: string; data?: unknown } {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

function withProgressToken(params: Record<string, unknown> | undefined, token: number): Record<string, unknown> {
  const meta = params?._meta;
  // Copied by hand, not spread: see `withField`.
  return withField(params, "_meta", withField(isObject(meta) ? meta : undefined, "progressToken", token));
}

/**
 * The reply to one batch: the answers to its requests, collected until every one of them is
 * answered (or withdrawn), then sent as one array. A batch that held no request gets none.
 */
class BatchReply implements ResponseSink {
  private readonly answers: object[] = [];
  private waiting = 0;
  private sealed = false;

  constructor(private readonly peer: RpcPeer) {}

  /** A request of the batch will answer through this reply. */
  expect(): void {
    this.waiting += 1;
  }

  /** An answer of the batch's own (to an invalid member). */
  add(message: object): void {
    this.answers.push(message);
  }

  respondWith(message: ResponseMessage): void {
    this.answers.push(message);
  }

  settled(request: InboundRequest): void {
    this.peer.settled(request);
    this.waiting -= 1;
    this.flush();
  }

  /** Every member was read. */
  seal(): void {
    this.sealed = true;
    this.flush();
  }

  private flush(): void {
    if (!this.sealed || this.waiting > 0 || this.answers.length === 0) return;
    this.peer.sendBatch(this.answers.splice(0));
  }
}
