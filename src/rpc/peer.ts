/**
 * The JSON-RPC 2.0 peer: numbers outbound requests, matches responses to them by id (exactly:
 * number against number), runs their deadlines, cancellation and progress, and sorts what
 * arrives into responses, server requests and notifications.
 *
 * It never throws on what a server sends. Garbage is logged and dropped, or answered
 * `-32700`/`-32600` with a null id when `answerInvalid` is on (the eras in which a client may
 * send responses at all). The peer knows nothing of MCP eras or methods beyond
 * `notifications/progress` and `notifications/cancelled`, which are JSON-RPC-level utilities.
 */
import { ClientError, ErrorCode } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import type { InboundMeta, RequestId, Transport, TransportSink } from "../transport/transport.js";
import { DeadlineQueue, type ExpiryReason } from "./deadline.js";
import { InboundRequest, type ResponseSink } from "./inbound-request.js";
import { PendingCall, type CallHost, type PendingCallInit, type Progress } from "./pending-call.js";

export interface PeerHandlers {
  onServerRequest(request: InboundRequest): void;
  onNotification(method: string, params: Record<string, unknown> | undefined, meta: InboundMeta | undefined): void;
  /** The transport ended; `error` is undefined after a requested close. */
  onClosed(error: ClientError | undefined): void;
}

export interface PeerOptions {
  readonly serverId: string;
  readonly logger: Logger;
  /** Answer unparseable or invalid messages with -32700/-32600 (legacy) or only log them (modern). */
  answerInvalid: boolean;
  /** Cancel by sending notifications/cancelled (legacy, stdio) or only by abandoning the reply. */
  cancelWithNotification: boolean;
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

const isRequestId = (id: unknown): id is RequestId =>
  typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

export class RpcPeer implements TransportSink, CallHost, ResponseSink {
  readonly stats: PeerStats = { staleResponses: 0, invalidMessages: 0, strayProgress: 0 };
  readonly deadlines: DeadlineQueue;
  private readonly pending = new Map<number, PendingCall>();
  private readonly inbound = new Map<RequestId, InboundRequest>();
  private nextId = 1;
  private callCount = 0;
  private closedWith: ClientError | undefined;
  private handlers: PeerHandlers | undefined;

  constructor(
    private readonly transport: Transport,
    readonly options: PeerOptions,
  ) {
    this.deadlines = options.deadlines ?? new DeadlineQueue();
  }

  /** Starts the transport with this peer as its sink. */
  async start(handlers: PeerHandlers): Promise<void> {
    this.handlers = handlers;
    await this.transport.start(this);
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Calls in flight (tools/call, resources/read, prompts/get, tasks/result). */
  get callsInFlight(): number {
    return this.callCount;
  }

  /** The one call in flight, when there is exactly one. */
  soleCall(): PendingCall | undefined {
    if (this.callCount !== 1) return undefined;
    for (const call of this.pending.values()) if (call.isCall) return call;
    return undefined;
  }

  /** The pending request with this id (HTTP reports the id a server request came with). */
  pendingCall(id: RequestId | undefined): PendingCall | undefined {
    return typeof id === "number" ? this.pending.get(id) : undefined;
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
    const sentParams = init.onProgress === undefined ? params : withProgressToken(params, id);
    const message = sentParams === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: sentParams };
    this.pending.set(id, call);
    if (call.isCall) this.callCount += 1;
    call.watch();
    try {
      const sent = init.headers === undefined ? this.transport.send(message) : this.transport.send(message, { headers: init.headers });
      if (sent !== undefined) sent.catch((error: unknown) => this.failCall(call, error));
    } catch (error) {
      this.finish(call);
      return Promise.reject(error);
    }
    return promise;
  }

  notify(method: string, params?: Record<string, unknown>, headers?: Readonly<Record<string, string>>): void {
    if (this.closedWith !== undefined) return;
    const message = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    this.deliver(message, headers);
  }

  /** Rejects everything pending with `error` and stops answering the server. Idempotent. */
  close(error: ClientError): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = error;
    for (const call of [...this.pending.values()]) {
      this.finish(call);
      call.reject(error);
    }
    for (const request of [...this.inbound.values()]) request.abandon(error);
  }

  // ---- TransportSink -------------------------------------------------------------------------

  message(value: unknown, meta: InboundMeta | undefined): void {
    if (!isObject(value)) return this.invalid(Array.isArray(value) ? "a batch (array)" : "not an object", value, true);
    if (value.jsonrpc !== "2.0") return this.invalid('"jsonrpc" is not "2.0"', value, "method" in value);
    const method = value.method;
    if (typeof method === "string") return this.receiveRequestOrNotification(value, method, meta);
    if ("id" in value) return this.receiveResponse(value);
    this.invalid("neither a request, a notification nor a response", value, true);
  }

  parseError(raw: string, _meta: InboundMeta | undefined): void {
    this.stats.invalidMessages += 1;
    this.options.logger.warn(`dropped a message from server "${this.options.serverId}" that is not JSON`, { raw });
    if (this.options.answerInvalid) this.reply(null, ErrorCode.ParseError, "Parse error");
  }

  closed(error: ClientError | undefined): void {
    const reason = (error ?? new ClientError("closed", "the connection was closed")).withServer(this.options.serverId);
    this.close(reason);
    this.handlers?.onClosed(error);
  }

  // ---- inbound ---------------------------------------------------------------------------------

  private receiveRequestOrNotification(value: Record<string, unknown>, method: string, meta: InboundMeta | undefined): void {
    const params = value.params;
    if (params !== undefined && !isObject(params)) {
      if ("id" in value) return this.invalid('"params" is not an object', value, true);
      this.stats.invalidMessages += 1;
      this.options.logger.warn(`dropped notification "${method}" whose params are not an object`);
      return;
    }
    if (!("id" in value)) return this.receiveNotification(method, params, meta);
    const id = value.id;
    if (!isRequestId(id)) return this.invalid("request id is neither a string nor a number", value, true);
    if (this.closedWith !== undefined) return;
    if (this.inbound.has(id)) return this.invalid(`request id ${JSON.stringify(id)} is already in use`, value, false);
    const request = new InboundRequest(id, method, params, meta, this);
    this.inbound.set(id, request);
    this.handlers?.onServerRequest(request);
  }

  /** @internal Sends an inbound request's response. */
  respondWith(message: object): void {
    this.deliver(message, undefined);
  }

  /** @internal An inbound request was answered or withdrawn. */
  settled(request: InboundRequest): void {
    this.inbound.delete(request.id);
  }

  private receiveNotification(method: string, params: Record<string, unknown> | undefined, meta: InboundMeta | undefined): void {
    if (method === "notifications/progress") return this.progress(params);
    if (method === "notifications/cancelled" && params !== undefined && isRequestId(params.requestId)) {
      const request = this.inbound.get(params.requestId);
      if (request !== undefined) {
        request.abandon(new ClientError("cancelled", "the server cancelled its request", { data: params.reason }));
        return;
      }
    }
    this.handlers?.onNotification(method, params, meta);
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
    try {
      call.onProgress?.(update);
    } catch (error) {
      this.options.logger.warn(`onProgress threw for ${call.method}`, { error });
    }
  }

  private receiveResponse(value: Record<string, unknown>): void {
    const id = value.id;
    const call = typeof id === "number" ? this.pending.get(id) : undefined;
    if (call === undefined) {
      this.stats.staleResponses += 1;
      if (id === null && isObject(value.error)) {
        this.options.logger.warn(`server "${this.options.serverId}" reported an error without an id`, { error: value.error });
      } else {
        this.options.logger.debug(`dropped a response to unknown or settled id ${JSON.stringify(id)}`);
      }
      return;
    }
    this.finish(call);
    if ("result" in value && !("error" in value)) return call.resolve(value.result);
    const error = value.error;
    if ("error" in value && !("result" in value) && isRpcErrorObject(error)) {
      call.reject(
        new ClientError("rpc", `${call.method} failed: ${error.message} (code ${error.code})`, {
          serverId: this.options.serverId,
          code: error.code,
          data: error.data,
        }),
      );
      return;
    }
    call.reject(
      new ClientError("protocol", `the response to ${call.method} is malformed: it needs exactly one of "result" or a valid "error"`, {
        serverId: this.options.serverId,
        data: value,
      }),
    );
  }

  private invalid(why: string, value: unknown, answer: boolean): void {
    this.stats.invalidMessages += 1;
    this.options.logger.warn(`dropped an invalid message from server "${this.options.serverId}": ${why}`, {
      message: excerpt(value),
    });
    if (answer && this.options.answerInvalid) this.reply(null, ErrorCode.InvalidRequest, "Invalid Request");
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    this.deliver({ jsonrpc: "2.0", id, error: { code, message } }, undefined);
  }

  // ---- outbound ------------------------------------------------------------------------------

  private deliver(message: object, headers: Readonly<Record<string, string>> | undefined): void {
    if (this.closedWith !== undefined) return;
    try {
      const sent = this.transport.send(message, headers === undefined ? undefined : { headers });
      if (sent !== undefined) {
        sent.catch((error: unknown) => this.options.logger.warn("a message to the server was not delivered", { error }));
      }
    } catch (error) {
      this.options.logger.warn("a message to the server could not be sent", { error });
    }
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
    this.cancelRemote(call, `${reason} after ${ms} ms`);
  }

  /** @internal A call's signal aborted. */
  abort(call: PendingCall): void {
    if (!this.pending.has(call.id)) return;
    this.finish(call);
    call.reject(this.cancelledError(call.method, call.signal));
    this.cancelRemote(call, "cancelled by the client");
  }

  private cancelledError(method: string, signal: AbortSignal | undefined): ClientError {
    return new ClientError("cancelled", `${method} was cancelled`, {
      serverId: this.options.serverId,
      cause: signal?.reason,
    });
  }

  /** Tells the server we gave up (2025-11-25 basic/utilities/cancellation; never `initialize`). */
  private cancelRemote(call: PendingCall, reason: string): void {
    if (call.cancellable && this.options.cancelWithNotification) {
      this.notify("notifications/cancelled", { requestId: call.id, reason });
    }
    this.transport.abandon(call.id);
  }
}

function isRpcErrorObject(value: unknown): value is { code: number; message: string; data?: unknown } {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

function withProgressToken(params: Record<string, unknown> | undefined, token: number): Record<string, unknown> {
  const meta = params?._meta;
  return { ...params, _meta: isObject(meta) ? { ...meta, progressToken: token } : { progressToken: token } };
}

function excerpt(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
