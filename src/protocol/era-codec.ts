/**
 * What differs between the two eras, behind one interface that a connection holds once
 * negotiation is over: how requests are sent and their results read, how the server hears of
 * a request given up, what is answered, what the transport is told. `legacy.ts` (the
 * `initialize` versions) and `modern.ts` (2026-07-28) implement it; nothing else branches on
 * the era.
 */
import type { ClientError } from "../util/errors.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { PendingCall, RelatedCall } from "../rpc/pending-call.js";
import type { EraPolicy } from "../transport/transport.js";
import type { CallOptions } from "./methods.js";
import type { InputRequest, ResumedRound } from "./mrtr.js";
import type { ListenFilter, Subscription } from "./subscriptions.js";
import type { EraTasks } from "./task-follow.js";
import type { Implementation, LoggingLevel, ServerCapabilities, Tool } from "./types/index.js";
import type { Era, ProtocolVersion } from "./versions.js";
import type { Awaitable } from "../util/awaitable.js";

/** What negotiation settled; the era follows from the version. */
export interface Negotiated<V extends ProtocolVersion = ProtocolVersion> {
  protocolVersion: V;
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions: string | undefined;
}

/** What the layer above is told of the connection an input or a notification came on. */
export interface ConnectionFacts {
  readonly era: Era;
  readonly version: ProtocolVersion;
  /** Calls in flight on the connection (for idle sampling). */
  readonly callsInFlight: number;
}

/** What the layer above answers for a connection. */
export interface ConnectionHooks {
  /** A legacy server request other than `ping`; `related` is the call it belongs to. */
  serverRequest(request: InboundRequest, related: RelatedCall | undefined, from: ConnectionFacts): void;
  /** A notification the protocol layer does not consume. */
  notification(method: string, params: Record<string, unknown>, from: ConnectionFacts): void;
  /** Answers one MRTR round of input requests (modern), in the server's order: a value when the Handler answered at once. */
  answerInputs(requests: Record<string, InputRequest>, call: { assigns: unknown; signal: AbortSignal | undefined }, from: ConnectionFacts): Awaitable<Record<string, unknown>>;
}

export interface EraCodec extends ConnectionFacts {
  /** What negotiation settled (a legacy session renewal may refresh it). */
  readonly negotiated: Negotiated;
  /** What the transport is told of the era. */
  readonly policy: EraPolicy;
  /** Whether malformed messages are answered -32700/-32600. */
  readonly answersInvalid: boolean;
  /** Whether JSON-RPC batches may arrive (2025-03-26 only; the client never sends one). */
  readonly acceptsBatches: boolean;
  /** Whether an empty `nextCursor` ends a list (legacy) or names a page (2026-07-28). */
  readonly emptyCursorEnds: boolean;
  /** Tasks, in the era's wire form. */
  readonly tasks: EraTasks;
  /** Normal operation begins (legacy: `notifications/initialized`). */
  start(): void;
  /**
   * Sends one request under the era's rules; resolves with its raw, complete result, or with a
   * `ParkedRound` when the call asked for `inputRequired: "return"` (modern). `resumed` answers
   * a round parked before.
   */
  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions, resumed?: ResumedRound): Promise<unknown>;
  /** Why the era cannot do what `options` ask before anything is sent, or undefined. */
  refusal(options: CallOptions): string | undefined;
  /** The client gave up on `call`: tell the server, if the era has a way to. */
  cancel(call: PendingCall, reason: string): void;
  /** A request from the server. */
  serverRequest(request: InboundRequest): void;
  /** Takes the notifications the era itself consumes; true when taken. */
  consume(method: string, params: Record<string, unknown>): boolean;
  /**
   * The tools of one page of a listing that a host may expose; `first` and `last` say where the
   * page lies, so that what is remembered per tool follows the whole list.
   */
  acceptTools(tools: Tool[], first: boolean, last: boolean): Tool[];
  /** The Handler's roots changed: tell the server, if the era has a way to. */
  rootsChanged(): void;
  /** Modern: a `subscriptions/listen` subscription. */
  listen(filter: ListenFilter, ackTimeout: number): Promise<Subscription>;
  /**
   * Makes the server send what `filter` asks for, whatever the era (legacy: list changes come
   * unasked and resource updates after `resources/subscribe`; modern: `subscriptions/listen`).
   */
  watch(filter: ListenFilter, options: CallOptions): Promise<Subscription>;
  /** The log level from now on (legacy: `logging/setLevel`; modern: asked on every request). */
  setLogLevel(level: LoggingLevel, options: CallOptions): Promise<void>;
  /** The connection ended with `reason`: stop what waits on it. */
  end(reason: ClientError): void;
}
