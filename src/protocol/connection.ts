/**
 * One connection to one server: the rpc peer over its transport and, once negotiated
 * (`negotiate.ts`), the codec of its era, which the connection holds and asks for everything
 * that differs between eras. What the server sends before that is held (`early-messages.ts`).
 *
 * States: negotiating → ready → closing → closed. `close()` is graceful, `destroy()` at once;
 * both reject every pending call as they start, and every caller gets the one promise of the
 * end, which settles when nothing of the connection is left. `ended` resolves then too: with
 * the error when the connection broke on its own, undefined when the client ended it. A failed
 * `open()` rejects within `connectTimeout`; the graceful end it started may outlast that.
 */
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { SpanBound, delay, now } from "../util/time.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { DeadlineQueue } from "../rpc/deadline.js";
import type { PendingCall } from "../rpc/pending-call.js";
import { RpcPeer, type PeerHandlers } from "../rpc/peer.js";
import { Occurrences } from "../util/sparse-log.js";
import type { InboundMeta, Transport } from "../transport/transport.js";
import { type InputFeatures, isModernVersion, type Era, type LegacyVersion, type ModernVersion, type ProtocolVersion } from "./versions.js";
import { EarlyMessages, type EarlyReceiver } from "./early-messages.js";
import type { ConnectionHooks, EraCodec, Negotiated } from "./era-codec.js";
import { LegacyCodec } from "./legacy.js";
import { unavailableReason, type CallOptions } from "./methods.js";
import type { ResumedRound } from "./mrtr.js";
import { ModernCodec } from "./modern.js";
import { negotiate } from "./negotiate.js";
import type { ListenFilter, Subscription } from "./subscriptions.js";
import { traceRequest, type Tracing } from "../tracing/tracing.js";
import { followTask, type EraTasks, type FollowOptions } from "./task-follow.js";
import type { TaskSnapshot } from "./tasks.js";
import type { Implementation, LoggingLevel, ServerCapabilities, Tool } from "./types/index.js";
import { excerpt } from "../util/text.js";

export interface ConnectionSettings {
  serverId: string;
  logger: Logger;
  clientInfo: Implementation;
  features: InputFeatures;
  /** Speak exactly this version, or fail. */
  protocolVersion?: ProtocolVersion | undefined;
  /** How long the `server/discover` probe may stay unanswered. */
  probeTimeout: number;
  /** Bound on the whole of connecting: starting, negotiating, and ending again on failure. */
  connectTimeout: number;
  /** Per-request timeout when a call gives none. */
  requestTimeout: number;
  /** The client's deadline timer, shared by its connections. */
  deadlines?: DeadlineQueue | undefined;
  maxInputRounds: number;
  /** Modern era: the log level asked for on every request that names none. */
  logLevel?: LoggingLevel | undefined;
  /** The host's tracing; no span is made without it. */
  tracing?: Tracing | undefined;
}

/** What is told of a connection's end: the server's life (`Connection.watchEnd`). */
export interface EndWatcher {
  connectionEnded(connection: Connection, error: ClientError | undefined): void;
}

export type ConnectionState = "negotiating" | "ready" | "closing" | "closed";

const NO_OPTIONS: CallOptions = Object.freeze({});

export class Connection implements PeerHandlers, EarlyReceiver {
  readonly peer: RpcPeer;
  private current: ConnectionState = "negotiating";
  private codec: EraCodec | undefined;
  /** What the server sent while negotiating, made with the first of it. */
  private early: EarlyMessages | undefined;
  private ending: Promise<void> | undefined;
  /** Why the connection broke on its own, if it did. */
  private failure: ClientError | undefined;
  /** `ended`, made when first asked for: a connection that ends with nobody waiting keeps no promise and resolver. */
  private endedPromise: Promise<ClientError | undefined> | undefined;
  private resolveEnded: ((error: ClientError | undefined) => void) | undefined;
  /** Told once the connection has ended (`watchEnd`): the server's life, which restarts it or fails. */
  private endWatcher: EndWatcher | undefined;
  /** What was ignored for coming too early or too late: a server may send it without end. */
  private ignoredRequests: Occurrences | undefined;
  private droppedEarly: Occurrences | undefined;
  /** The connect's bound while `open()` runs: a person's wait pauses it. */
  private connectBound: SpanBound | undefined;

  /**
   * `settings` are the server's, shared by each connection a restart makes (and read by the peer
   * and the codec as they are); what is this connection's own, the era an earlier connect to the
   * same target found and the signal that stops the opening, is read by `open()` alone.
   */
  constructor(
    readonly transport: Transport,
    private readonly settings: ConnectionSettings,
    private readonly hooks: ConnectionHooks,
    private remembered?: Era | undefined,
    private openSignal?: AbortSignal | undefined,
  ) {
    // The peer reads what it needs of the settings themselves (no copy kept beside them).
    this.peer = new RpcPeer(transport, this, settings);
  }

  /** Resolves once the connection has ended: with what broke it, or undefined when it was closed. */
  get ended(): Promise<ClientError | undefined> {
    if (this.endedPromise === undefined) {
      this.endedPromise = this.current === "closed" ? Promise.resolve(this.failure) : new Promise((resolve) => (this.resolveEnded = resolve));
    }
    return this.endedPromise;
  }

  /** Tells `watcher` when the connection has ended (in a later microtask, as a promise would), or soon if it has. */
  watchEnd(watcher: EndWatcher): void {
    this.endWatcher = watcher;
    if (this.current === "closed") this.tellEnd();
  }

  private tellEnd(): void {
    const watcher = this.endWatcher;
    if (watcher === undefined) return;
    this.endWatcher = undefined;
    const failure = this.failure;
    queueMicrotask(() => watcher.connectionEnded(this, failure));
  }

  get state(): ConnectionState {
    return this.current;
  }

  get era(): Era {
    return this.need().era;
  }

  get version(): ProtocolVersion {
    return this.need().version;
  }

  get serverInfo(): Implementation {
    return this.need().negotiated.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.need().negotiated.serverCapabilities;
  }

  get instructions(): string | undefined {
    return this.need().negotiated.instructions;
  }

  /** What negotiation settled, undefined until it has: read where "not yet" is an answer, not an error. */
  get settled(): Pick<EraCodec, "era" | "version" | "negotiated"> | undefined {
    return this.codec;
  }

  /**
   * Starts the transport and negotiates, within `connectTimeout` in all, however many steps
   * negotiation takes. On failure it starts a graceful end and waits for it with what is left of
   * that time; the end goes on past it if it must (`unfinished` says so), so that a slow server
   * still gets its stdin's end and its grace period.
   */
  async open(): Promise<void> {
    const started = now();
    const limit = this.settings.connectTimeout;
    const bound = new SpanBound([this.openSignal], limit, () => new Error(`connect timeout of ${limit} ms`));
    this.connectBound = bound;
    try {
      if (bound.signal.aborted) throw new ClientError("cancelled", "connecting was cancelled before it began", { cause: bound.signal.reason });
      await this.peer.start(bound.signal);
      this.stillNegotiating();
      const negotiated = await negotiate({
        peer: this.peer,
        transport: this.transport.kind,
        clientInfo: this.settings.clientInfo,
        features: this.settings.features,
        pin: this.settings.protocolVersion,
        remembered: this.remembered,
        probeTimeout: this.settings.probeTimeout,
        connectTimeout: limit,
        signal: bound.signal,
      });
      this.stillNegotiating();
      const codec = this.codecFor(negotiated);
      this.codec = codec;
      this.transport.configure(codec.policy);
      codec.start();
      this.current = "ready";
      const early = this.early;
      this.early = undefined;
      early?.flush(this);
    } catch (error) {
      // A request of the handshake bounded by the same length (initialize has connectTimeout of
      // its own) may fire first when both are due in one turn of a late loop: a timeout at or
      // past the connect's bound is the connect's.
      const spent = now() - started - bound.pausedMs;
      const connectTimedOut = bound.timedOut || (error instanceof ClientError && error.kind === "timeout" && spent >= limit);
      const failure = connectTimedOut
        ? new ClientError("timeout", `connecting timed out after ${limit} ms`, { cause: error })
        : bound.signal.aborted && !(error instanceof ClientError && error.kind === "cancelled")
          ? new ClientError("cancelled", "connecting was cancelled", { cause: bound.signal.reason })
          : error;
      // The timeout bounds the whole connect: what is left of it bounds the wait for the end,
      // which goes on past it in the background (see `unfinished`).
      await this.closeWithin(bound.signal.aborted ? 0 : limit - spent);
      throw failure;
    } finally {
      this.connectBound = undefined;
      // The caller's signal is not kept past the opening it stops.
      this.openSignal = undefined;
      bound.dispose();
    }
  }

  private stillNegotiating(): void {
    if (this.current !== "negotiating") throw new ClientError("closed", "the connection was closed while it was negotiated", { serverId: this.settings.serverId });
  }

  private codecFor(negotiated: Awaited<ReturnType<typeof negotiate>>): EraCodec {
    const { serverId, logger, clientInfo, features } = this.settings;
    const transport = this.transport.kind;
    const version = negotiated.protocolVersion;
    if (isModernVersion(version)) {
      return new ModernCodec(
        this.peer,
        negotiated as Negotiated<ModernVersion>,
        { serverId, logger, transport, clientInfo, features, maxInputRounds: this.settings.maxInputRounds, logLevel: this.settings.logLevel, tracing: this.settings.tracing },
        this.hooks,
      );
    }
    // The negotiated facts and the settings as they are: no copy for the connection to keep.
    return new LegacyCodec(this.peer, negotiated as Negotiated<LegacyVersion>, this.settings, transport, this.hooks);
  }

  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = NO_OPTIONS, resumed?: ResumedRound): Promise<unknown> {
    const codec = this.codec;
    if (this.current !== "ready" || codec === undefined) return Promise.reject(this.notReady(method));
    const reason = unavailableReason(method, codec.version, codec.negotiated.serverCapabilities);
    if (reason !== undefined) return Promise.reject(new ClientError("unsupported", reason, { serverId: this.settings.serverId }));
    const refused = options.inputRequired === undefined && resumed === undefined ? undefined : this.refusal(options, resumed);
    if (refused !== undefined) return Promise.reject(refused);
    const tracing = this.settings.tracing;
    if (tracing === undefined) return codec.request(method, params, options, resumed);
    const facts = { serverId: this.settings.serverId, protocolVersion: codec.version, transport: this.transport.kind };
    return traceRequest(tracing, facts, method, params, (sent) => codec.request(method, sent, options, resumed));
  }

  /** What the era cannot do of what `options` ask (parking input in the legacy era), as the error to raise. */
  refusal(options: CallOptions, resumed?: ResumedRound): ClientError | undefined {
    const codec = this.codec;
    if (codec === undefined) return this.notReady("request");
    const reason = codec.refusal(resumed === undefined ? options : { ...options, inputRequired: "return" });
    return reason === undefined ? undefined : new ClientError("usage", reason, { serverId: this.settings.serverId });
  }

  /** Tasks in the era's wire form; a `"closed"` error once the connection ends. */
  get tasks(): EraTasks {
    const codec = this.codec;
    if (this.current !== "ready" || codec === undefined) throw this.notReady("tasks");
    return codec.tasks;
  }

  /** The timeout of requests that name none. */
  get requestTimeout(): number {
    return this.settings.requestTimeout;
  }

  /** Whether a `tools/call` may make a task without being asked (the server declared tasks). */
  get mayMakeTasks(): boolean {
    return this.codec?.tasks.unavailable === undefined && this.codec?.tasks.makesUnasked === true;
  }

  /** Follows a task to its end: what its call would have returned, unchecked. */
  followTask(start: TaskSnapshot | string, options: FollowOptions): Promise<Record<string, unknown>> {
    let tasks: EraTasks;
    try {
      tasks = this.tasks;
    } catch (error) {
      return Promise.reject(error);
    }
    if (tasks.unavailable !== undefined) return Promise.reject(new ClientError("unsupported", tasks.unavailable, { serverId: this.settings.serverId }));
    return followTask(tasks, start, options, this.settings.logger);
  }

  /** Whether an empty `nextCursor` ends a list, by the era's rule. */
  get emptyCursorEnds(): boolean {
    return this.need().emptyCursorEnds;
  }

  rootsChanged(): void {
    if (this.current === "ready") this.codec?.rootsChanged();
  }

  /** Makes the server send what `filter` asks for, in the era's way. */
  watch(filter: ListenFilter, options: CallOptions): Promise<Subscription> {
    if (this.current !== "ready" || this.codec === undefined) return Promise.reject(this.notReady("watch"));
    return this.codec.watch(filter, options);
  }

  /** The log level from now on, in the era's way. */
  setLogLevel(level: LoggingLevel, options: CallOptions): Promise<void> {
    if (this.current !== "ready" || this.codec === undefined) return Promise.reject(this.notReady("setLogLevel"));
    return this.codec.setLogLevel(level, options);
  }

  /** Modern era: opens a `subscriptions/listen` subscription. */
  listen(filter: ListenFilter, ackTimeout?: number): Promise<Subscription> {
    if (this.current !== "ready" || this.codec === undefined) return Promise.reject(this.notReady("subscriptions/listen"));
    return this.codec.listen(filter, ackTimeout ?? this.settings.requestTimeout);
  }

  /** The tools of a `tools/list` page a client may expose (modern HTTP drops invalid ones). */
  acceptTools(tools: Tool[], first: boolean, last: boolean): Tool[] {
    return this.codec?.acceptTools(tools, first, last) ?? tools;
  }

  /** Ends gracefully (stdio: stdin's end, then signals; HTTP: the session's DELETE). */
  close(): Promise<void> {
    this.ending ??= this.finish(false);
    return this.ending;
  }

  /** Ends at once, also a graceful close under way; pending calls get `reason` (else `"closed"`). */
  destroy(reason?: ClientError): Promise<void> {
    this.stop(reason);
    const destroyed = this.transport.destroy();
    this.ending ??= this.finish(true);
    return destroyed.then(() => this.ending);
  }

  /** Starts a graceful close and waits for it at most `ms`. */
  private async closeWithin(ms: number): Promise<void> {
    const closing = this.close();
    if (!(ms > 0)) return;
    const timeUp = new AbortController();
    await Promise.race([closing, delay(ms, timeUp.signal).catch(() => {})]);
    timeUp.abort();
  }

  /** Whether something of the connection still runs (after a failed `open`, its end may). */
  get unfinished(): boolean {
    return this.current !== "closed";
  }

  /** Pending calls are rejected, and the codec's flows stopped, the moment the end begins. */
  private stop(reason: ClientError | undefined): void {
    if (this.current === "closing" || this.current === "closed") return;
    this.current = "closing";
    this.early = undefined;
    const error = reason ?? this.failure ?? this.closedError();
    this.peer.close(error);
    this.codec?.end(error);
  }

  private async finish(immediate: boolean): Promise<void> {
    this.stop(undefined);
    try {
      await (immediate ? this.transport.destroy() : this.transport.close());
    } catch (error) {
      this.settings.logger.warn(`the transport of server "${this.settings.serverId}" failed to end cleanly`, { error });
    } finally {
      this.current = "closed";
      this.resolveEnded?.(this.failure);
      this.tellEnd();
    }
  }

  private closedError(): ClientError {
    return new ClientError("closed", "the connection was closed", { serverId: this.settings.serverId });
  }

  // ---- PeerHandlers ----------------------------------------------------------------------------

  onServerRequest(request: InboundRequest): void {
    if (this.current === "ready" && this.codec !== undefined) return this.codec.serverRequest(request);
    const id = this.settings.serverId;
    const negotiating = this.current === "negotiating";
    if (negotiating && request.method === "ping" && (this.early ??= new EarlyMessages()).holdPing(request)) return;
    request.abandon(undefined);
    if (!(this.ignoredRequests ??= new Occurrences()).next()) return;
    const ignored = `server "${id}" sent a request (${excerpt(request.method, 100)}) ${negotiating ? "before the connection was negotiated" : "while the connection was closing"}; ignored (${this.ignoredRequests.count} so far)`;
    // The era is not known yet, and a modern server may get no response at all.
    if (negotiating) this.settings.logger.warn(ignored);
    else this.settings.logger.debug(ignored);
  }

  /** @see EarlyReceiver: what was held while negotiating. */
  serverRequest(request: InboundRequest): void {
    this.onServerRequest(request);
  }

  /** @see EarlyReceiver */
  notification(method: string, params: Record<string, unknown>): void {
    this.onNotification(method, params, undefined);
  }

  onNotification(method: string, given: Record<string, unknown> | undefined, _meta: InboundMeta | undefined): void {
    const params = given ?? {};
    if (this.current === "negotiating") {
      // The era is unknown, and hooks need it: kept for when it is.
      if (!(this.early ??= new EarlyMessages()).holdNotification(method, params) && (this.droppedEarly ??= new Occurrences()).next()) {
        this.settings.logger.warn(`server "${this.settings.serverId}": a notification sent before negotiation ended was dropped (${this.droppedEarly.count} so far)`);
      }
      return;
    }
    const codec = this.codec;
    if (codec === undefined || codec.consume(method, params)) return;
    this.hooks.notification(method, params, codec);
  }

  acceptsBatches(): boolean {
    return this.codec?.acceptsBatches === true;
  }

  onInvalid(code: number): void {
    if (this.current === "ready" && this.codec?.answersInvalid === true) this.peer.replyInvalid(code);
  }

  onGaveUp(call: PendingCall, reason: string): void {
    this.codec?.cancel(call, reason);
  }

  onClosed(error: ClientError | undefined): void {
    if (error === undefined || this.current === "closing" || this.current === "closed") return;
    // The transport broke on its own: the connection ends with its error.
    this.failure = error;
    this.ending ??= this.finish(false);
  }

  /**
   * An OAuth consent takes the person's time, not the server's: neither the connect's bound nor
   * (paused by the peer) a waiting call's clock counts it; the flow's own timeout and the signals
   * still apply.
   */
  onPersonWait(waiting: boolean): void {
    if (waiting) this.connectBound?.pause();
    else this.connectBound?.resume();
  }

  private need(): EraCodec {
    if (this.codec === undefined) throw new ClientError("usage", "the connection is not negotiated yet", { serverId: this.settings.serverId });
    return this.codec;
  }

  private notReady(method: string): ClientError {
    const closed = this.current === "closing" || this.current === "closed";
    return new ClientError(closed ? "closed" : "usage", `${method}: the connection is ${closed ? "closed" : "not ready"}`, {
      serverId: this.settings.serverId,
    });
  }
}
