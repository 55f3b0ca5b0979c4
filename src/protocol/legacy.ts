/**
 * The legacy era (2025-06-18 and 2025-11-25, basic/lifecycle): the version negotiated once by
 * `initialize`, requests sent as they are, the server's own requests answered (`ping` here,
 * the rest by the layer above), `notifications/cancelled` for a request given up (never for
 * `initialize`). Over HTTP the session is kept, the standalone GET stream opened, broken
 * streams resumed, and an expired session renewed by a fresh `initialize` that must land on
 * the same version. Malformed messages are answered on stdio only: over HTTP each answer would
 * be a POST of its own, which a server sending garbage could multiply at will.
 */
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { PendingCall, RelatedCall } from "../rpc/pending-call.js";
import type { RpcPeer } from "../rpc/peer.js";
import { Occurrences } from "../util/sparse-log.js";
import type { EraPolicy, TransportKind } from "../transport/transport.js";
import { clientCapabilities, since, type InputFeatures, type LegacyVersion } from "./versions.js";
import type { ConnectionHooks, EraCodec, Negotiated } from "./era-codec.js";
import { initialize } from "./initialize.js";
import { isCallMethod, unavailableReason, type CallOptions } from "./methods.js";
import type { ListenFilter, Subscription } from "./subscriptions.js";
import { relatedTaskOf } from "./tasks.js";
import { LegacyTasks, callsToolsAsTasks, type TaskSend } from "./tasks-legacy.js";
import { traceRequest, type Tracing } from "../tracing/tracing.js";
import type { Implementation, LoggingLevel, Tool } from "./types/index.js";
import { excerpt } from "../util/text.js";

/** What the codec reads of its connection's settings (it is given that very object, not a copy). */
export interface LegacySettings {
  readonly serverId: string;
  readonly logger: Logger;
  readonly clientInfo: Implementation;
  readonly features: InputFeatures;
  /** Bound on a session renewal's handshake. */
  readonly connectTimeout: number;
  /** The host's tracing: the tasks' requests (polls, results, cancels) are spans of their own. */
  readonly tracing?: Tracing | undefined;
}

export class LegacyCodec implements EraCodec {
  readonly era = "legacy" as const;
  readonly version: LegacyVersion;
  readonly answersInvalid: boolean;
  readonly acceptsBatches: boolean;
  /** These versions never gave "" another meaning, and a loop on it would repeat the first page. */
  readonly emptyCursorEnds = true;
  /** Made with its first use: most servers have no tasks, and a host's idle servers pay nothing for them. */
  private tasksMade: LegacyTasks | undefined;
  negotiated: Negotiated;
  /** The ends of the watches open (`watch`), told when the connection ends. */
  private watches: Set<(error: ClientError | undefined) => void> | undefined;
  /** Cancellations of no request in progress: a server may send them without end. */
  private strayCancels: Occurrences | undefined;

  constructor(
    private readonly peer: RpcPeer,
    negotiated: Negotiated<LegacyVersion>,
    private readonly settings: LegacySettings,
    private readonly transport: TransportKind,
    private readonly hooks: ConnectionHooks,
  ) {
    this.negotiated = negotiated;
    this.version = negotiated.protocolVersion;
    // One ordered stream (a pipe, a host's channel): an invalid message is answered there.
    this.answersInvalid = transport === "stdio" || transport === "channel";
    this.acceptsBatches = this.version === "2025-03-26";
  }

  /** Read once, when the transport is configured: made then rather than kept by every connection (stdio has no use for it). */
  get policy(): EraPolicy {
    return {
      // The header exists from 2025-06-18 (basic/transports of that version).
      protocolVersion: since(this.version, "2025-06-18") ? this.version : undefined,
      sessions: true,
      standaloneStream: true,
      resumable: true,
      renewSession: () => this.renewSession(),
    };
  }

  get tasks(): LegacyTasks {
    this.tasksMade ??= new LegacyTasks(this.peer, this.version, this.negotiated.serverCapabilities, this.settings.serverId, this.settings.logger, this.taskSend());
    return this.tasksMade;
  }

  /** How the tasks send a request (a poll, a result, a cancel): as a span of its own when traced, as each carries its own trace context. */
  private taskSend(): TaskSend | undefined {
    const tracing = this.settings.tracing;
    if (tracing === undefined) return undefined;
    const facts = { serverId: this.settings.serverId, protocolVersion: this.version, transport: this.transport };
    return (method, params, init, isCall) => traceRequest(tracing, facts, method, params, (sent) => this.peer.request(method, sent, init, isCall));
  }

  get callsInFlight(): number {
    // A task followed is a call in flight between its polls too.
    return this.peer.callsInFlight + (this.tasksMade?.following ?? 0);
  }

  start(): void {
    // Sent after the transport was configured: over HTTP the version's header goes on it.
    this.peer.notify("notifications/initialized");
  }

  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions): Promise<unknown> {
    return this.peer.request(method, params, options, isCallMethod(method));
  }

  /** A legacy server's request waits on its connection for the answer: nothing can be parked. */
  refusal(options: CallOptions): string | undefined {
    if (options.inputRequired !== "return") return undefined;
    return `inputRequired: "return" needs the modern era (2026-07-28); this server speaks ${this.version} (legacy era), where a server's request waits on its connection and cannot be parked`;
  }

  /** basic/utilities/cancellation: the receiver is told, unless the request may not be cancelled. */
  cancel(call: PendingCall, reason: string): void {
    if (call.cancellable) this.peer.notify("notifications/cancelled", { requestId: call.id, reason });
  }

  serverRequest(request: InboundRequest): void {
    if (request.method === "ping") return request.respond({});
    // 2025-11-25: a request of a task is answered with the same tag.
    const taskId = relatedTaskOf(request.params);
    if (taskId !== undefined) request.resultMeta = LegacyTasks.answerMeta(taskId);
    this.hooks.serverRequest(request, this.relatedCall(request), this);
  }

  consume(method: string, params: Record<string, unknown>): boolean {
    // Used by a follower of the task, and passed on to the Handler like any notification.
    if (method === "notifications/tasks/status") this.tasksMade?.statusNotified(params);
    if (method !== "notifications/cancelled") return false;
    if ((this.strayCancels ??= new Occurrences()).next()) this.settings.logger.debug(`a cancellation for no request in progress was ignored (${this.strayCancels.count} so far)`, { params: excerpt(params) });
    return true;
  }

  acceptTools(tools: Tool[]): Tool[] {
    // A listing of a server that runs no call as a task makes no task record for the connection to keep.
    if (this.tasksMade !== undefined || callsToolsAsTasks(this.version, this.negotiated.serverCapabilities)) this.tasks.recordTools(tools);
    return tools;
  }

  rootsChanged(): void {
    this.peer.notify("notifications/roots/list_changed");
  }

  listen(): Promise<Subscription> {
    return Promise.reject(
      new ClientError("unsupported", `subscriptions/listen does not exist in protocol version ${this.version} (legacy era)`, { serverId: this.settings.serverId }),
    );
  }

  async watch(filter: ListenFilter, options: CallOptions): Promise<Subscription> {
    const uris = filter.resourceSubscriptions ?? [];
    // List changes come unasked in this era; resource updates once subscribed.
    const subscribed: string[] = [];
    try {
      for (const uri of uris) {
        await this.requestChecked("resources/subscribe", { uri }, options);
        subscribed.push(uri);
      }
    } catch (error) {
      await Promise.all(subscribed.map((uri) => this.requestChecked("resources/unsubscribe", { uri }, {}).catch(() => undefined)));
      throw error;
    }
    let close: Promise<void> | undefined;
    let endedWith: (error: ClientError | undefined) => void = () => {};
    const ended = new Promise<ClientError | undefined>((resolve) => (endedWith = resolve));
    (this.watches ??= new Set()).add(endedWith);
    const capabilities = this.negotiated.serverCapabilities;
    const honoured: ListenFilter = {
      ...(filter.toolsListChanged === true && capabilities.tools?.listChanged === true ? { toolsListChanged: true } : {}),
      ...(filter.promptsListChanged === true && capabilities.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
      ...(filter.resourcesListChanged === true && capabilities.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
      ...(subscribed.length > 0 ? { resourceSubscriptions: subscribed } : {}),
    };
    return {
      honoured,
      ended,
      close: () => {
        this.watches?.delete(endedWith);
        close ??= Promise.all(subscribed.map((uri) => this.requestChecked("resources/unsubscribe", { uri }, {}).catch(() => undefined))).then(() => endedWith(undefined));
        return close;
      },
    };
  }

  async setLogLevel(level: LoggingLevel, options: CallOptions): Promise<void> {
    await this.requestChecked("logging/setLevel", { level }, options);
  }

  /** A request of the method table, its availability checked. */
  private requestChecked(method: string, params: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const reason = unavailableReason(method, this.version, this.negotiated.serverCapabilities);
    if (reason !== undefined) return Promise.reject(new ClientError("unsupported", reason, { serverId: this.settings.serverId }));
    return this.request(method, params, options);
  }

  end(reason: ClientError): void {
    // Followers of tasks may be between polls: they end now; watches with the connection.
    this.tasksMade?.end(reason);
    if (this.watches === undefined) return;
    for (const ended of this.watches) ended(reason);
    this.watches.clear();
  }

  /**
   * The call a server request belongs to: the followed task it is tagged with (2025-11-25); over
   * Streamable HTTP the one whose POST stream carried it; on stdio and HTTP+SSE the one call in flight, when there is exactly one. Only calls count
   * (DESIGN).
   */
  private relatedCall(request: InboundRequest): RelatedCall | undefined {
    const task = this.tasksMade?.relatedCall(request.params);
    if (task !== undefined) return task;
    const id = request.meta?.relatedRequestId;
    if (id !== undefined) return this.peer.pendingCall(id);
    // One pipe, or one HTTP+SSE stream, carries every reply: nothing tells which call a request is for.
    return this.transport === "http" ? undefined : this.peer.soleCall();
  }

  /** The HTTP session expired (404): a fresh handshake, which must land on the same version. */
  private async renewSession(): Promise<void> {
    this.negotiated = await initialize(this.peer, {
      offered: this.version,
      accepted: [this.version],
      capabilities: clientCapabilities(this.settings.features, this.version),
      clientInfo: this.settings.clientInfo,
      timeout: this.settings.connectTimeout,
    });
    this.peer.notify("notifications/initialized");
  }
}
