/**
 * The modern era (2026-07-28): no handshake and no session; each request carries the envelope
 * in `_meta` (and over HTTP the headers that mirror it), each result's `resultType` is
 * checked, and calls that ask for input run the MRTR flow. The server sends no requests and
 * the client no responses: a server request is logged and left unanswered, garbage is only
 * logged. A request given up is cancelled by notification over stdio, by closing its stream
 * over HTTP. Over HTTP, tools whose `x-mcp-header` annotations are invalid are dropped from
 * `tools/list`, and the others' annotations are remembered to build the `Mcp-Param-*` headers
 * of their calls.
 */
import { traceRequest, tracedStep, type Tracing } from "../tracing/tracing.js";
import { lowRuntime } from "../util/runtime.js";
import { ClientError, ErrorCode } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { now } from "../util/time.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { PendingCall } from "../rpc/pending-call.js";
import type { RpcPeer } from "../rpc/peer.js";
import { Occurrences, logDroppedEntry, worthLogging } from "../util/sparse-log.js";
import type { EraPolicy, TransportKind } from "../transport/transport.js";
import { clientCapabilities, type InputFeatures, type ModernVersion } from "./versions.js";
import type { ConnectionHooks, EraCodec, Negotiated } from "./era-codec.js";
import { modernHeaders, Envelope } from "./envelope.js";
import { isCallMethod, type CallOptions } from "./methods.js";
import { classifyResult, runWithInput, type AnswerInputs, type ParkedRound, type ResumedRound, type RoundAnswers } from "./mrtr.js";
import { checkListTools, walkPages, type CheckContext } from "./results.js";
import { Subscriptions, type ListenFilter, type Subscription } from "./subscriptions.js";
import { ModernTasks } from "./tasks-modern.js";
import type { Implementation, LoggingLevel, Tool } from "./types/index.js";
import { headerParams, type HeaderParam } from "./x-mcp-header.js";
import { excerpt } from "../util/text.js";

export interface ModernSettings {
  serverId: string;
  logger: Logger;
  transport: TransportKind;
  clientInfo: Implementation;
  features: InputFeatures;
  maxInputRounds: number;
  /** The log level asked for on every request that names none (`setLogLevel` changes it). */
  logLevel: LoggingLevel | undefined;
  tracing?: Tracing | undefined;
}

type LegOptions = CallOptions & { onId?: (id: number) => void; cancellable?: boolean };

/**
 * What a call's later MRTR legs keep of its first: the params it sent, whose text they repeat,
 * and its headers (over HTTP), which mirror that text; made for calls alone, the requests that ask
 * for input in practice.
 */
interface CallLegs {
  first: Record<string, unknown> | undefined;
  headers: Record<string, string> | undefined;
}

/** Tools of one listing dropped for their annotations that are each named in a log line; then the 100th, 1 000th, …. */
const NAMED_TOOL_DROPS = 20;

export class ModernCodec implements EraCodec {
  readonly era = "modern" as const;
  readonly version: ModernVersion;
  readonly negotiated: Negotiated;
  readonly answersInvalid = false;
  readonly acceptsBatches = false;
  /** "" is a valid cursor in 2026-07-28: only its absence ends a list. */
  readonly emptyCursorEnds = false;
  readonly policy: EraPolicy;
  readonly tasks: ModernTasks;
  private readonly http: boolean;
  private readonly envelope: Envelope;
  private readonly subscriptions: Subscriptions;
  /** The `x-mcp-header` params of each listed tool; replaced when a whole listing is done. */
  private toolHeaders = new Map<string, HeaderParam[]>();
  /** The params seen so far by a listing under way (from its first page). */
  private listing: Map<string, HeaderParam[]> | undefined;
  /** Aborts when the connection ends; made only when a flow needs it (MRTR). */
  private lifetime: AbortController | undefined;
  private endedWith: ClientError | undefined;
  /** Made once: every request's flow shares them. */
  private readonly lifetimeOf = (): AbortSignal => this.lifetimeSignal;
  private readonly answerRound: AnswerInputs = (requests, call) => {
    const tracing = this.settings.tracing;
    if (tracing === undefined) return this.hooks.answerInputs(requests, call, this);
    // A round is a child of its request's span: what the Handler does for it nests under it.
    const step = { name: "mcp.input_round", serverId: this.settings.serverId, attributes: { "mcp.input_requests": Object.keys(requests).length } };
    return tracedStep(tracing, step, async () => this.hooks.answerInputs(requests, call, this));
  };
  /** Requests the server sent, which this era has none of, and stray cancellations: logged sparsely. */
  private ignoredRequests: Occurrences | undefined;
  private strayCancels: Occurrences | undefined;
  private droppedEntries: Occurrences | undefined;
  /** Tools dropped for their annotations in the listing under way. */
  private toolDrops = 0;

  constructor(
    private readonly peer: RpcPeer,
    negotiated: Negotiated<ModernVersion>,
    private readonly settings: ModernSettings,
    private readonly hooks: ConnectionHooks,
  ) {
    this.negotiated = negotiated;
    this.version = negotiated.protocolVersion;
    this.http = settings.transport === "http";
    this.policy = { protocolVersion: this.version, sessions: false, standaloneStream: false, resumable: false };
    this.envelope = new Envelope(this.version, settings.clientInfo, clientCapabilities(settings.features, this.version));
    this.subscriptions = new Subscriptions(peer, this, !this.http);
    this.tasks = new ModernTasks(
      {
        // Never cancelled by notification: a task is cancelled with tasks/cancel alone.
        send: (method, params, signal) => this.taskRequest(method, params, signal),
        answer: this.answerRound,
        lifetime: this.lifetimeOf,
        listen: (filter, signal) => this.subscriptions.listen(filter, peer.requestTimeout, signal),
      },
      negotiated.serverCapabilities,
      settings.serverId,
      settings.logger,
      settings.maxInputRounds,
    );
  }

  /** A request of the tasks extension (a poll, an update, a cancel): a span of its own when traced. */
  private async taskRequest(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    const tracing = this.settings.tracing;
    const send = async (sent: Record<string, unknown>): Promise<unknown> => classifyResult(method, await this.leg(method, sent, { cancellable: false }, signal, undefined)).result;
    if (tracing === undefined) return send(params);
    const facts = { serverId: this.settings.serverId, protocolVersion: this.version, transport: this.settings.transport };
    return traceRequest(tracing, facts, method, params, (sent) => send(sent ?? params));
  }

  get callsInFlight(): number {
    return this.peer.callsInFlight;
  }

  start(): void {
    // No handshake: the first request is normal operation.
  }

  /** One request, and the MRTR flow when its result asks for input (parked with `inputRequired: "return"`). */
  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions, resumed?: ResumedRound): Promise<Record<string, unknown> | ParkedRound> {
    const legs: CallLegs | undefined = isCallMethod(method) ? { first: undefined, headers: undefined } : undefined;
    return runWithInput(
      params ?? {},
      {
        method,
        maxRounds: this.settings.maxInputRounds,
        maxTotalTimeout: options.maxTotalTimeout,
        signal: options.signal,
        assigns: options.assigns,
        lifetime: this.lifetimeOf,
        park: options.inputRequired === "return",
        resumed,
      },
      (sent, signal, total, answers) => this.leg(method, sent, options, signal, total, answers, legs),
      this.answerRound,
    );
  }

  refusal(): undefined {
    return undefined;
  }

  /** 2026-07-28 cancellation: a notification on stdio; over HTTP closing the stream is the cancel. */
  cancel(call: PendingCall, reason: string): void {
    if (!this.http && call.cancellable) this.peer.notify("notifications/cancelled", { requestId: call.id, reason });
  }

  serverRequest(request: InboundRequest): void {
    // Servers MUST NOT send requests, and clients never send responses.
    request.abandon(undefined);
    if (!(this.ignoredRequests ??= new Occurrences()).next()) return;
    this.settings.logger.warn(`server "${this.settings.serverId}" sent a request (${excerpt(request.method, 100)}) on a modern connection; ignored (${this.ignoredRequests.count} so far)`);
  }

  consume(method: string, params: Record<string, unknown>): boolean {
    if (this.subscriptions.consume(method, params)) return true;
    // Used by a follower of the task, and passed on like any notification.
    if (method === "notifications/tasks") this.tasks.notified(params);
    if (method !== "notifications/cancelled") return false;
    if ((this.strayCancels ??= new Occurrences()).next()) this.settings.logger.debug(`a cancellation for no request in progress was ignored (${this.strayCancels.count} so far)`, { params: excerpt(params) });
    return true;
  }

  rootsChanged(): void {
    // No roots notification in this era: each request carries the capabilities afresh.
  }

  listen(filter: ListenFilter, ackTimeout: number): Promise<Subscription> {
    return this.subscriptions.listen(filter, ackTimeout);
  }

  watch(filter: ListenFilter, options: CallOptions): Promise<Subscription> {
    return this.subscriptions.listen(filter, options.timeout ?? this.peer.requestTimeout);
  }

  setLogLevel(level: LoggingLevel): Promise<void> {
    // No setLevel in this era: every request from now on asks for the level.
    this.settings.logLevel = level;
    return Promise.resolve();
  }

  end(reason: ClientError): void {
    this.endedWith ??= reason;
    this.lifetime?.abort(reason);
    this.subscriptions.endAll(reason);
  }

  /** An abort signal for the connection's life (MRTR flows stop with it). */
  private get lifetimeSignal(): AbortSignal {
    if (this.lifetime === undefined) {
      this.lifetime = new AbortController();
      // Every flow (MRTR, a followed task) listens to it, and a host may run hundreds at once.
      lowRuntime().unboundListeners?.(this.lifetime.signal);
      if (this.endedWith !== undefined) this.lifetime.abort(this.endedWith);
    }
    return this.lifetime.signal;
  }

  /**
   * Sends one request; resolves with its raw result. Over HTTP, a tool call refused with
   * -32020 (its Mcp-Param headers do not match) is sent again once, after the tools are listed
   * afresh: the tool's schema may have changed (2026-07-28 streamable-http, "Client Behavior").
   */
  leg(
    method: string,
    params: Record<string, unknown> | undefined,
    options: LegOptions,
    signal: AbortSignal | undefined,
    maxTotalTimeout: number | undefined,
    answers?: RoundAnswers,
    legs?: CallLegs,
  ): Promise<unknown> {
    if (!this.http || method !== "tools/call") return this.send(method, params, options, signal, maxTotalTimeout, answers, legs);
    const started = maxTotalTimeout === undefined ? 0 : now();
    return this.send(method, params, options, signal, maxTotalTimeout, answers, legs).catch(async (error: unknown) => {
      if (!(error instanceof ClientError && error.kind === "rpc" && error.code === ErrorCode.HeaderMismatch)) throw error;
      // The re-listing and the second try share what is left of the leg's total bound.
      const left = (): number | undefined => {
        if (maxTotalTimeout === undefined) return undefined;
        const ms = maxTotalTimeout - (now() - started);
        if (ms > 0) return ms;
        throw new ClientError("timeout", `${method} timed out after ${maxTotalTimeout} ms (maxTotalTimeout)`, { serverId: this.settings.serverId });
      };
      await this.refreshTools(options, signal, left);
      // A later leg is then written afresh, headers and text alike, from the params as they are:
      // headers of the listing now beside the text of the first leg could disagree again.
      if (answers !== undefined && legs !== undefined) {
        legs.first = undefined;
        legs.headers = undefined;
      }
      return this.send(method, params, options, signal, left(), answers, legs);
    });
  }

  private send(
    method: string,
    params: Record<string, unknown> | undefined,
    options: LegOptions,
    signal: AbortSignal | undefined,
    maxTotalTimeout: number | undefined,
    answers?: RoundAnswers,
    legs?: CallLegs,
  ): Promise<unknown> {
    // A later leg repeats the first one's text, and so its headers, which say the same.
    const repeats = answers !== undefined && legs?.first !== undefined;
    const headers = !this.http ? undefined : repeats && legs.headers !== undefined ? legs.headers : modernHeaders(method, params, this.headerParamsFor(method, params));
    const sent = this.envelope.wrap(params, options.logLevel ?? this.settings.logLevel, answers, answers !== undefined ? legs?.first : legs === undefined ? undefined : true);
    if (legs !== undefined && answers === undefined) {
      legs.first = sent;
      legs.headers = headers;
    }
    // The caller's own options say all a first leg over stdio needs: no copy of them then.
    if (headers === undefined && signal === options.signal && maxTotalTimeout === options.maxTotalTimeout) {
      return this.peer.request(method, sent, options, isCallMethod(method));
    }
    const init = {
      timeout: options.timeout,
      maxTotalTimeout,
      signal,
      onProgress: options.onProgress,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      assigns: options.assigns,
      headers,
      onId: options.onId,
      cancellable: options.cancellable,
    };
    return this.peer.request(method, sent, init, isCallMethod(method));
  }

  /**
   * Keeps the tools a client may expose over HTTP: a tool with an invalid `x-mcp-header`
   * annotation is dropped (and logged); the others' annotations are remembered for their
   * calls, and when a listing from its first page to its last is done, a tool it did not list
   * is forgotten. Over stdio the annotations may be ignored, and are.
   */
  acceptTools(tools: Tool[], first: boolean, last: boolean): Tool[] {
    if (!this.http) return tools;
    if (first) {
      this.listing = new Map();
      this.toolDrops = 0;
    }
    const kept = this.keepTools(tools, this.listing);
    if (last && this.listing !== undefined) {
      this.toolHeaders = this.listing;
      this.listing = undefined;
    }
    return kept;
  }

  /** The tools of one page with valid annotations; theirs are remembered, and put in `listing`. */
  private keepTools(tools: Tool[], listing: Map<string, HeaderParam[]> | undefined): Tool[] {
    return tools.filter((tool) => {
      const found = headerParams(tool.inputSchema);
      if (!found.ok) {
        // A listing's first few are named, then its 100th, 1 000th, …: 100 000 are not 100 000 lines.
        const drops = ++this.toolDrops;
        if (worthLogging(drops, NAMED_TOOL_DROPS)) {
          this.settings.logger.warn(`server "${this.settings.serverId}": dropped tool "${excerpt(tool.name, 100)}": ${found.reason}${drops > NAMED_TOOL_DROPS ? ` (${drops} so far in this listing)` : ""}`);
        }
        this.toolHeaders.delete(tool.name);
        return false;
      }
      if (found.params.length > 0) {
        this.toolHeaders.set(tool.name, found.params);
        listing?.set(tool.name, found.params);
      } else this.toolHeaders.delete(tool.name);
      return true;
    });
  }

  private headerParamsFor(method: string, params: Record<string, unknown> | undefined): HeaderParam[] | undefined {
    return method === "tools/call" && typeof params?.name === "string" ? this.toolHeaders.get(params.name) : undefined;
  }

  /** Lists the tools afresh; each page's request is bounded by what `left()` says remains. */
  private async refreshTools(options: CallOptions, signal: AbortSignal | undefined, left: () => number | undefined): Promise<void> {
    const context: CheckContext = {
      version: this.version,
      dropped: (method, index, reason) => logDroppedEntry(this.settings.logger, this.settings.serverId, (this.droppedEntries ??= new Occurrences()), method, index, reason),
    };
    // A listing of its own: one the host runs meanwhile keeps its own (and shares the drop count).
    const listing = new Map<string, HeaderParam[]>();
    this.toolDrops = 0;
    await walkPages("tools/list", this.emptyCursorEnds, async (cursor) => {
      const raw = await this.send("tools/list", cursor === undefined ? undefined : { cursor }, { timeout: options.timeout }, signal, left());
      const page = checkListTools(classifyResult("tools/list", raw).result, context);
      return { count: page.tools.length, nextCursor: page.nextCursor, keep: () => this.keepTools(page.tools, listing) };
    });
    this.toolHeaders = listing;
  }
}
