/**
 * What the rpc layer needs from a way of moving messages. A transport frames and parses; it
 * never looks inside a message. What it must know of one, the sender says (this is a request
 * and this its id; this one starts a session); what an era changes in its behaviour (sessions,
 * the protocol version header, the standalone stream, resumption) it is told once, by
 * `configure`, when negotiation is over.
 *
 * Lifecycle: created → started → closing → closed. `close()` is graceful (stdio: stdin's end,
 * then signals; HTTP: the session's DELETE) and `destroy()` immediate; both return the one
 * promise of the transport's end, which every later call returns too.
 */
import type { ClientError } from "../util/errors.js";
import type { RequestId } from "../util/json.js";

export type { RequestId } from "../util/json.js";

/** Where an inbound message came from, when the transport can tell. */
export interface InboundMeta {
  /**
   * HTTP: the id of the request whose POST response stream carried this message. Server
   * requests that arrive there belong to that call.
   */
  readonly relatedRequestId?: RequestId | undefined;
}

export interface TransportSink {
  /**
   * One parsed JSON value, of any shape: the rpc layer judges it, and says which of the
   * client's requests it answered, if any (an HTTP reply then knows its request is answered).
   */
  message(value: unknown, meta: InboundMeta | undefined): RequestId | undefined;
  /** Bytes that were not JSON. `raw` is a bounded, cleaned excerpt for the log. */
  parseError(raw: string, meta: InboundMeta | undefined): void;
  /** The connection ended. `error` is undefined when the client closed it. */
  closed(error: ClientError | undefined): void;
  /**
   * The transport starts (`true`) or stops waiting on a person (an OAuth consent): no bound of
   * the connect or of a call counts that time.
   */
  personWait(waiting: boolean): void;
}

/** What the sender says about one message beyond its bytes. */
export interface SendOptions {
  /** Extra HTTP headers for this message (the modern era's Mcp-Method, Mcp-Name, …), lower-case names. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The reply to this message starts a session (legacy `initialize` over HTTP). */
  readonly startsSession?: boolean | undefined;
  /**
   * How long the sender waits for the reply to this request (ms), when it says: over HTTP a
   * server's `Retry-After` that would outlast it is not waited for.
   */
  readonly timeout?: number | undefined;
  /** The bound of the request's whole life (ms), which its timeout's restarts never pass. */
  readonly maxTotalTimeout?: number | undefined;
}

/** What the negotiated era asks of the transport; stdio has nothing to do with it. */
export interface EraPolicy {
  /** The `MCP-Protocol-Version` header on every request after negotiation; none when undefined. */
  readonly protocolVersion: string | undefined;
  /** Keep the session a `startsSession` reply minted, send it back, and end it on close. */
  readonly sessions: boolean;
  /** Open the standalone GET stream on which the server speaks unasked. */
  readonly standaloneStream: boolean;
  /** Resume a broken event stream with `Last-Event-ID`. */
  readonly resumable: boolean;
  /** The session expired (HTTP 404): start a new one, or reject to end the connection. */
  readonly renewSession?: (() => Promise<void>) | undefined;
}

/**
 * `"sse"`: HTTP+SSE, one stream that carries every reply (like stdio's one pipe); `"channel"`: a
 * host's own transport, one ordered stream as stdio is.
 */
export type TransportKind = "stdio" | "http" | "sse" | "channel";

export interface Transport {
  readonly kind: TransportKind;
  /** The server's origin (`https://host:port`) when the transport knows it. */
  readonly origin: string | undefined;
  /** Starts; `signal` ends a start that waits on the server (the HTTP+SSE stream's endpoint). */
  start(sink: TransportSink, signal?: AbortSignal): Promise<void>;
  /**
   * Sends one message; `id` is given for a request. Stdio returns nothing: a write failure
   * is a closed connection. HTTP returns a promise that rejects when this message could not be
   * delivered (a refused POST); messages the reply carries still arrive through the sink. A
   * message that cannot be serialised throws `InvalidArgumentError`; one the transport cannot
   * take now (stdio: the server stopped reading) throws a `"transport"` ClientError.
   */
  send(message: object, id: RequestId | undefined, options: SendOptions | undefined): Promise<void> | undefined;
  /** The caller no longer wants the reply to request `id`: release what carries it. */
  abandon(id: RequestId): void;
  /** The era's rules, once negotiated. */
  configure(policy: EraPolicy): void;
  /** Ends gracefully; the same promise for every caller. */
  close(): Promise<void>;
  /** Ends at once; resolves when nothing of the connection is left. */
  destroy(): Promise<void>;
  /** A short description for error messages (the command line or the URL, secrets redacted). */
  describe(): string;
}
