/**
 * One negotiated connection to one server: the rpc peer over its transport, the era and
 * version agreed on (negotiate.ts), and what the server declared. It sends the client's
 * requests under the rules of that version and routes what the server sends: `ping` is
 * answered here; legacy server requests and notifications go to the hooks of the layer above;
 * a modern server's requests, which the spec forbids, are logged and left unanswered.
 *
 * States: negotiating → ready → closed.
 */
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { DeadlineQueue } from "../rpc/deadline.js";
import type { PendingCall } from "../rpc/pending-call.js";
import { RpcPeer, type PeerHandlers } from "../rpc/peer.js";
import { HttpTransport } from "../transport/http.js";
import type { Transport } from "../transport/transport.js";
import type { CallOptions } from "./call-options.js";
import { clientCapabilities, type InputFeatures } from "./capabilities.js";
import { initialize } from "./initialize.js";
import { Envelope } from "./meta.js";
import { CALL_METHODS, unavailableReason } from "./methods.js";
import { ModernCodec } from "./modern.js";
import type { AnswerInputs } from "./mrtr.js";
import { negotiate, type Negotiated } from "./negotiate.js";
import { SpanBound } from "./span-bound.js";
import { Subscriptions, type ListenFilter, type Subscription } from "./subscriptions.js";
import type { Implementation, LoggingLevel, ServerCapabilities, Tool } from "./types/index.js";
import { eraOf, isModernVersion, type Era, type LegacyVersion, type ProtocolVersion } from "./versions.js";

export type { CallOptions } from "./call-options.js";

export interface ConnectionSettings {
  serverId: string;
  logger: Logger;
  clientInfo: Implementation;
  features: InputFeatures;
  /** Speak exactly this version, or fail. */
  protocolVersion?: ProtocolVersion | undefined;
  /** The era an earlier connect to the same target found. */
  remembered?: Era | undefined;
  /** How long a stdio `server/discover` probe may stay unanswered. */
  probeTimeout: number;
  /** Bound on the handshake. */
  connectTimeout: number;
  signal?: AbortSignal | undefined;
  /** Per-request timeout when a call gives none. */
  requestTimeout: number;
  /** The client's deadline timer, shared by its connections. */
  deadlines?: DeadlineQueue | undefined;
  maxInputRounds: number;
  /** Modern era: the log level asked for on every request that names none. */
  logLevel?: LoggingLevel | undefined;
}

export interface ConnectionHooks {
  /** A legacy server request other than `ping`; `related` is the call it belongs to. */
  serverRequest(request: InboundRequest, related: PendingCall | undefined): void;
  /** A notification the protocol layer does not consume. */
  notification(method: string, params: Record<string, unknown>): void;
  /** Answers a round of modern input requests (MRTR). */
  answerInputs: AnswerInputs;
  /** The connection ended; `error` is undefined when the client closed it. */
  closed(error: ClientError | undefined): void;
}

/** Notifications kept while negotiating (a legacy server may log before `initialized`). */
const EARLY_NOTIFICATIONS = 256;

export class Connection implements PeerHandlers {
  readonly peer: RpcPeer;
  private state: "negotiating" | "ready" | "closed" = "negotiating";
  private negotiated: Negotiated | undefined;
  private modern: ModernCodec | undefined;
  private subscriptions: Subscriptions | undefined;
  private early: [method: string, params: Record<string, unknown>][] | undefined = [];
  /** Aborts when the connection ends; made only when a flow needs it (MRTR). */
  private lifetime: AbortController | undefined;

  constructor(
    readonly transport: Transport,
    private readonly settings: ConnectionSettings,
    private readonly hooks: ConnectionHooks,
  ) {
    this.peer = new RpcPeer(transport, {
      serverId: settings.serverId,
      logger: settings.logger,
      // Until the legacy era is confirmed, nothing is answered: a modern server gets no responses.
      answerInvalid: false,
      cancelWithNotification: true,
      requestTimeout: settings.requestTimeout,
      deadlines: settings.deadlines,
    });
  }

  get era(): Era {
    return eraOf(this.need().protocolVersion);
  }

  get version(): ProtocolVersion {
    return this.need().protocolVersion;
  }

  get serverInfo(): Implementation {
    return this.need().serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.need().serverCapabilities;
  }

  get instructions(): string | undefined {
    return this.need().instructions;
  }

  /**
   * Starts the transport and negotiates, within `connectTimeout` in all (however many steps
   * negotiation takes). On failure everything is closed again.
   */
  async open(): Promise<void> {
    // One bound on the whole of connecting: the caller's signal, or the connect timeout.
    const bound = new SpanBound([this.settings.signal], this.settings.connectTimeout, () => new Error(`connect timeout of ${this.settings.connectTimeout} ms`));
    try {
      await this.peer.start(this);
      const http = this.transport instanceof HttpTransport ? this.transport : undefined;
      const negotiated = await negotiate({
        peer: this.peer,
        transport: this.transport,
        clientInfo: this.settings.clientInfo,
        features: this.settings.features,
        pin: this.settings.protocolVersion,
        remembered: this.settings.remembered,
        probeTimeout: this.settings.probeTimeout,
        connectTimeout: this.settings.connectTimeout,
        signal: bound.signal,
      });
      if (this.state === "closed") throw new ClientError("closed", "the connection was closed while it was negotiated");
      this.negotiated = negotiated;
      if (isModernVersion(negotiated.protocolVersion)) this.becomeModern(http);
      else this.becomeLegacy(http);
      this.state = "ready";
      this.flushEarly();
    } catch (error) {
      await this.close();
      throw bound.timedOut ? new ClientError("timeout", `connecting timed out after ${this.settings.connectTimeout} ms`, { cause: error }) : error;
    } finally {
      bound.dispose();
    }
  }

  /** An abort signal for the connection's life (MRTR flows stop with it). */
  private get lifetimeSignal(): AbortSignal {
    if (this.lifetime === undefined) {
      this.lifetime = new AbortController();
      if (this.state === "closed") this.lifetime.abort(this.closedError());
    }
    return this.lifetime.signal;
  }

  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<unknown> {
    if (this.state !== "ready") return Promise.reject(this.notReady(method));
    const reason = unavailableReason(method, this.version, this.serverCapabilities);
    if (reason !== undefined) {
      return Promise.reject(new ClientError("unsupported", reason, { serverId: this.settings.serverId }));
    }
    if (this.modern !== undefined) return this.modern.request(method, params, options);
    return this.peer.request(method, params, options, CALL_METHODS.has(method));
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (this.state === "ready") this.peer.notify(method, params);
  }

  /** Modern era: opens a `subscriptions/listen` subscription. */
  listen(filter: ListenFilter, ackTimeout?: number): Promise<Subscription> {
    if (this.state !== "ready") return Promise.reject(this.notReady("subscriptions/listen"));
    if (this.subscriptions === undefined) {
      return Promise.reject(new ClientError("unsupported", `subscriptions/listen does not exist in protocol version ${this.version} (legacy era)`, {
        serverId: this.settings.serverId,
      }));
    }
    return this.subscriptions.listen(filter, ackTimeout ?? this.settings.requestTimeout);
  }

  /** The tools of a `tools/list` page a client may expose (modern HTTP drops invalid ones). */
  acceptTools(tools: Tool[]): Tool[] {
    return this.modern?.acceptTools(tools) ?? tools;
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    const closed = this.closedError();
    this.lifetime?.abort(closed);
    this.subscriptions?.endAll(closed);
    await this.transport.close();
  }

  private closedError(): ClientError {
    return new ClientError("closed", "the connection was closed", { serverId: this.settings.serverId });
  }

  // ---- after negotiation -----------------------------------------------------------------------

  private becomeModern(http: HttpTransport | undefined): void {
    // Modern clients never send responses, and over HTTP a closed stream is the cancellation.
    this.peer.options.cancelWithNotification = http === undefined;
    http?.configure({ protocolVersion: this.version, sessions: false });
    this.modern = new ModernCodec(this.peer, {
      serverId: this.settings.serverId,
      logger: this.settings.logger,
      http: http !== undefined,
      envelope: new Envelope(this.version, this.settings.clientInfo, clientCapabilities(this.settings.features, this.version)),
      maxInputRounds: this.settings.maxInputRounds,
      logLevel: this.settings.logLevel,
      answer: (requests, call) => this.hooks.answerInputs(requests, call),
      lifetime: () => this.lifetimeSignal,
    });
    this.subscriptions = new Subscriptions(this.peer, this.modern);
  }

  private becomeLegacy(http: HttpTransport | undefined): void {
    // Garbage is answered -32700/-32600 on stdio only: over HTTP each answer would be a POST of
    // its own, which a server sending garbage could multiply at will.
    this.peer.options.answerInvalid = http === undefined;
    // Over HTTP the negotiated version's header must already be on `notifications/initialized`.
    if (http !== undefined) {
      http.configure({ protocolVersion: this.version, sessions: true });
      http.onSessionExpired(() => this.renewSession());
    }
    this.peer.notify("notifications/initialized");
    http?.openStandaloneStream();
  }

  /** The HTTP session expired (404): a fresh handshake, which must land on the same version. */
  private async renewSession(): Promise<void> {
    const version = this.version as LegacyVersion;
    const renewed = await initialize(this.peer, {
      offered: version,
      accepted: [version],
      capabilities: clientCapabilities(this.settings.features, version),
      clientInfo: this.settings.clientInfo,
      timeout: this.settings.connectTimeout,
    });
    this.negotiated = renewed;
    this.peer.notify("notifications/initialized");
  }

  // ---- inbound ---------------------------------------------------------------------------------

  /** @internal (PeerHandlers) */
  onServerRequest(request: InboundRequest): void {
    if (this.negotiated !== undefined && isModernVersion(this.negotiated.protocolVersion)) {
      // 2026-07-28: servers MUST NOT send requests, and clients never send responses.
      this.settings.logger.warn(`server "${this.settings.serverId}" sent a request (${request.method}) on a modern connection; ignored`);
      request.abandon(undefined);
      return;
    }
    if (request.method === "ping") return request.respond({});
    if (this.state !== "ready") {
      // The era is not known yet, and a modern server may get no response at all.
      this.settings.logger.warn(`server "${this.settings.serverId}" sent a request (${request.method}) before the connection was negotiated; ignored`);
      request.abandon(undefined);
      return;
    }
    this.hooks.serverRequest(request, this.relatedCall(request));
  }

  /**
   * The call a server request belongs to: over HTTP the one whose POST stream carried it; on
   * stdio the one call in flight, when there is exactly one. Only calls count (DESIGN).
   */
  private relatedCall(request: InboundRequest): PendingCall | undefined {
    const id = request.meta?.relatedRequestId;
    if (id !== undefined) {
      const call = this.peer.pendingCall(id);
      return call?.isCall === true ? call : undefined;
    }
    return this.transport.kind === "stdio" ? this.peer.soleCall() : undefined;
  }

  /** @internal (PeerHandlers) */
  onNotification(method: string, given: Record<string, unknown> | undefined): void {
    const params = given ?? {};
    if (this.early !== undefined) {
      // Negotiating: the era is unknown, and hooks need it. Kept for when it is.
      if (this.early.length < EARLY_NOTIFICATIONS) this.early.push([method, params]);
      else this.settings.logger.warn(`server "${this.settings.serverId}": a notification sent before negotiation ended was dropped`);
      return;
    }
    if (this.subscriptions?.consume(method, params) === true) return;
    if (method === "notifications/cancelled") {
      this.settings.logger.debug("a cancellation for no request in progress was ignored", { params });
      return;
    }
    this.hooks.notification(method, params);
  }

  /** @internal (PeerHandlers) */
  onClosed(error: ClientError | undefined): void {
    this.state = "closed";
    this.early = undefined;
    const named = error?.withServer(this.settings.serverId);
    this.lifetime?.abort(named ?? this.closedError());
    this.subscriptions?.endAll(named);
    this.hooks.closed(named);
  }

  private flushEarly(): void {
    const early = this.early ?? [];
    this.early = undefined;
    for (const [method, params] of early) this.onNotification(method, params);
  }

  private need(): Negotiated {
    if (this.negotiated === undefined) throw new ClientError("usage", "the connection is not negotiated yet");
    return this.negotiated;
  }

  private notReady(method: string): ClientError {
    const closed = this.state === "closed";
    return new ClientError(closed ? "closed" : "usage", `${method}: the connection is ${closed ? "closed" : "not ready"}`, {
      serverId: this.settings.serverId,
    });
  }
}
