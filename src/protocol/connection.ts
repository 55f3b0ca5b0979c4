/**
 * One negotiated connection to one server: the rpc peer over its transport, the era and
 * version agreed on, and what the server declared. It sends the client's requests under the
 * rules of the negotiated version and routes what the server sends: `ping` is answered here,
 * other server requests and notifications go to the hooks of the layer above.
 *
 * States: negotiating → ready → closed.
 */
import { ClientError, ErrorCode } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { PendingCall, RequestOptions } from "../rpc/pending-call.js";
import { RpcPeer } from "../rpc/peer.js";
import { HttpTransport } from "../transport/http.js";
import type { Transport } from "../transport/transport.js";
import { clientCapabilities, type InputFeatures } from "./capabilities.js";
import { initialize, type Negotiated } from "./initialize.js";
import { CALL_METHODS, unavailableReason } from "./methods.js";
import type { Implementation, ServerCapabilities } from "./types/index.js";
import { LEGACY_VERSIONS, eraOf, isLegacyVersion, type Era, type LegacyVersion, type ProtocolVersion } from "./versions.js";

export interface CallOptions extends RequestOptions {
  /** Handler context for server input tied to this call. */
  assigns?: unknown;
}

export interface ConnectionSettings {
  serverId: string;
  logger: Logger;
  clientInfo: Implementation;
  features: InputFeatures;
  /** Speak exactly this version, or fail. */
  protocolVersion?: ProtocolVersion | undefined;
  /** Bound on the handshake. */
  connectTimeout: number;
  signal?: AbortSignal | undefined;
  /** Per-request timeout when a call gives none. */
  requestTimeout: number;
}

export interface ConnectionHooks {
  /** A server request other than `ping` (legacy); `related` is the call it belongs to. */
  serverRequest(request: InboundRequest, related: PendingCall | undefined): void;
  /** A notification the protocol layer does not consume. */
  notification(method: string, params: Record<string, unknown>): void;
  /** The connection ended; `error` is undefined when the client closed it. */
  closed(error: ClientError | undefined): void;
}

export class Connection {
  readonly peer: RpcPeer;
  private state: "negotiating" | "ready" | "closed" = "negotiating";
  private negotiated: Negotiated | undefined;

  constructor(
    readonly transport: Transport,
    private readonly settings: ConnectionSettings,
    private readonly hooks: ConnectionHooks,
  ) {
    this.peer = new RpcPeer(transport, {
      serverId: settings.serverId,
      logger: settings.logger,
      answerInvalid: true,
      cancelWithNotification: true,
    });
  }

  get era(): Era {
    return eraOf(this.version);
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

  /** Starts the transport and negotiates. On failure everything is closed again. */
  async open(): Promise<void> {
    try {
      await this.peer.start({
        request: (request) => this.onServerRequest(request),
        notification: (method, params) => this.onNotification(method, params),
        closed: (error) => this.onClosed(error),
      });
      this.negotiated = await this.negotiateLegacy();
      this.afterLegacyHandshake();
      this.state = "ready";
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<unknown> {
    if (this.state !== "ready") return Promise.reject(this.notReady(method));
    const reason = unavailableReason(method, this.version, this.serverCapabilities);
    if (reason !== undefined) {
      return Promise.reject(new ClientError("unsupported", reason, { serverId: this.settings.serverId }));
    }
    return this.peer.request(method, params, {
      ...options,
      timeout: options.timeout ?? this.settings.requestTimeout,
      isCall: CALL_METHODS.has(method),
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (this.state === "ready") this.peer.notify(method, params);
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    await this.transport.close();
  }

  // ---- negotiation -----------------------------------------------------------------------------

  private legacyOffer(): { offered: LegacyVersion; accepted: readonly LegacyVersion[] } {
    const pin = this.settings.protocolVersion;
    if (pin === undefined) return { offered: LEGACY_VERSIONS[0], accepted: LEGACY_VERSIONS };
    if (!isLegacyVersion(pin)) {
      throw new ClientError("unsupported", `protocol version ${pin} is not available on this connection`, {
        serverId: this.settings.serverId,
      });
    }
    return { offered: pin, accepted: [pin] };
  }

  private negotiateLegacy(): Promise<Negotiated> {
    const { offered, accepted } = this.legacyOffer();
    return initialize(this.peer, {
      offered,
      accepted,
      // DESIGN: capabilities in `initialize` follow the offered version.
      capabilities: clientCapabilities(this.settings.features, offered),
      clientInfo: this.settings.clientInfo,
      timeout: this.settings.connectTimeout,
      signal: this.settings.signal,
    });
  }

  private afterLegacyHandshake(): void {
    const transport = this.transport;
    // Over HTTP the negotiated version's header must already be on `notifications/initialized`.
    if (transport instanceof HttpTransport) {
      transport.configure({ protocolVersion: this.version, sessions: true });
      transport.onSessionExpired(() => this.renewSession());
    }
    this.peer.notify("notifications/initialized");
    if (transport instanceof HttpTransport) transport.openStandaloneStream();
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

  private onServerRequest(request: InboundRequest): void {
    if (request.method === "ping") return request.respond({});
    if (this.state !== "ready") {
      request.fail(ErrorCode.InvalidRequest, "the client is not initialised yet");
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

  private onNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === "notifications/cancelled") {
      this.settings.logger.debug("a cancellation for no request in progress was ignored", { params });
      return;
    }
    this.hooks.notification(method, params ?? {});
  }

  private onClosed(error: ClientError | undefined): void {
    this.state = "closed";
    this.hooks.closed(error?.withServer(this.settings.serverId));
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
