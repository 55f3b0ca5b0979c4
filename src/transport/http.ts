/**
 * Streamable HTTP transport, both eras (2025-11-25 and 2026-07-28 basic/transports).
 *
 * Every message is one POST (`http-post.ts`); the session and the headers every request
 * carries are `http-session.ts`; the legacy standalone GET stream is `http-stream.ts`. What
 * differs between eras reaches the transport through `configure()`: legacy keeps its session,
 * opens the GET stream with the first message after negotiation, resumes broken
 * streams and DELETEs the session on close; modern has none of that, and abandoning a request
 * (closing its stream) is how it is cancelled.
 *
 * A server of the old HTTP+SSE transport (2024-11-05) answers the POST of `initialize` with 400,
 * 404 or 405: then the transport opens that transport's stream on the same URL and carries on
 * over it (`http-sse.ts`; 2025-03-26 basic/transports, "Backwards Compatibility"), unless the
 * target says which transport to speak.
 *
 * States: idle → open → closing → closed. `close()` cancels what is under way and DELETEs the
 * session; `destroy()` only cancels.
 */
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import type { RequestId } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import { excerpt, redactUrl } from "../util/text.js";
import { now } from "../util/time.js";
import { messageText } from "../util/message-text.js";
import { BodyTooLargeError, HttpStatusError } from "./http-body.js";
import { Ticket, fetchBackend, fetchExchange, type Credentials, type Exchange, type FetchLike, type HttpBackend, type NetworkRoute } from "./http-exchange.js";
import { post, type HttpLink } from "./http-post.js";
import { HttpSession } from "./http-session.js";
import { SseChannel, type SseLink } from "./http-sse.js";
import { authorizingExchange, type Authorizer } from "./http-authorizer.js";
import { StandaloneStream } from "./http-stream.js";
import { malformedHttp, oversize, socketFailure, unreachable } from "./http-failure.js";
import { HttpOutbox, MAX_WAITING_BYTES } from "./http-outbox.js";
import { Lingering } from "./http-linger.js";
import type { EraPolicy, SendOptions, Transport, TransportSink } from "./transport.js";

export interface HttpTarget {
  url: string | URL;
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Use this `fetch` instead of the client's default (`node:http` on Node, the runtime's `fetch` elsewhere). */
  fetch?: FetchLike | undefined;
  /**
   * Speak only this transport: `"sse"` opens the HTTP+SSE stream at once, `"streamable-http"`
   * never falls back to it. By default Streamable HTTP, and HTTP+SSE when the server refuses it.
   */
  transport?: "streamable-http" | "sse" | undefined;
  /**
   * Whether `fetch` sends the browser's cookies and HTTP authentication with each request
   * (Fetch's credentials mode): `"same-origin"` by default. The cookies are the browser's;
   * Conduit never sets or reads one. Without `fetch` (Node's own backend) there are none to send.
   */
  credentials?: Credentials | undefined;
  /**
   * An HTTP proxy to go through (a CONNECT tunnel), as a URL whose credentials, if any, are sent
   * to the proxy alone; `false` goes direct whatever `HTTPS_PROXY`/`HTTP_PROXY` say. By default
   * those variables and `NO_PROXY` decide. Node's backend only.
   */
  proxy?: string | false | undefined;
  /** More certificate authorities to trust (PEM text), beside Node's and `NODE_EXTRA_CA_CERTS`. Node's backend only. */
  ca?: string | readonly string[] | undefined;
  /** Reach the server over this Unix domain socket (the URL still gives the path and the Host). Node's backend only. */
  socketPath?: string | undefined;
}

export const HTTP_TARGET_KEYS: ReadonlySet<string> = new Set(["url", "headers", "fetch", "transport", "credentials", "proxy", "ca", "socketPath"]);

/** The target's own way to its server, when it names one. */
function routeOf(target: HttpTarget): NetworkRoute | undefined {
  if (target.proxy === undefined && target.ca === undefined && target.socketPath === undefined) return undefined;
  const ca = target.ca === undefined ? undefined : typeof target.ca === "string" ? [target.ca] : [...target.ca];
  return Object.freeze({ proxy: target.proxy, ca, socketPath: target.socketPath });
}

/** The answers to a POST of `initialize` that mean "this URL speaks the old transport" (2025-11-25 basic/transports). */
const OLD_TRANSPORT_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

export interface HttpOptions {
  logger: Logger;
  /** The client's way to send (its keep-alive agents on Node); a transport of its own gets `fetch`'s. */
  backend?: HttpBackend | undefined;
  maxMessageBytes: number;
  /** How many times in a row a broken event stream is resumed before giving up. */
  maxReconnects?: number | undefined;
  /** Authorizes the requests to the server's origin (OAuth: `src/auth/`). */
  authorizer?: Authorizer | undefined;
  /**
   * A request that reaches no server at all (refused, no such host, no route) ends the
   * connection, so that a client that restarts servers connects again; otherwise only that
   * request fails. A reset, a broken pipe or a socket timeout always fails that request alone
   * (`http-failure.ts`).
   */
  endWhenUnreachable?: boolean | undefined;
}

/** How long a POST of a notification or a response may stay unanswered. */
const MESSAGE_TIMEOUT_MS = 30_000;

export class HttpTransport implements Transport, HttpLink, SseLink {
  readonly origin: string;
  readonly url: URL;
  readonly exchange: Exchange;
  private readonly authorizer: Authorizer | undefined;
  readonly session: HttpSession;
  readonly logger: Logger;
  readonly maxMessageBytes: number;
  readonly maxReconnects: number;
  private readonly endWhenUnreachable: boolean;
  private readonly shown: string;
  private readonly ownBackend: HttpBackend | undefined;
  private sink: TransportSink | undefined;
  private state: "idle" | "open" | "closing" | "closed" = "idle";
  private ending: Promise<void> | undefined;
  /** Tickets of the requests awaiting their replies, by id. */
  private readonly requests = new Map<RequestId, Ticket>();
  /** Tickets of everything else under way: notifications, responses, the session's DELETE. */
  private readonly others = new Set<Ticket>();
  /** How many notifications and responses go at once; the others wait there, in order. */
  private readonly outbox = new HttpOutbox();
  /** Answered requests whose POST reply is still open. */
  private readonly lingering = new Lingering();
  private stream: StandaloneStream | undefined;
  /** The policy asked for the standalone stream and it is not open yet. */
  private streamWanted = false;
  private readonly mode: "auto" | "streamable-http" | "sse";
  /** The HTTP+SSE channel, once the connection speaks that transport, and one being opened. */
  private sse: SseChannel | undefined;
  private opening: SseChannel | undefined;
  /** The era's policy was given: the connection's transport is settled. */
  private configured = false;

  constructor(target: HttpTarget, options: HttpOptions) {
    try {
      this.url = new URL(target.url);
    } catch {
      throw new InvalidArgumentError(`not a valid URL: ${excerpt(redactUrl(String(target.url)))}`);
    }
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new InvalidArgumentError(`an HTTP target needs an http: or https: URL, got ${this.url.protocol}`);
    }
    if (target.transport !== undefined && target.transport !== "sse" && target.transport !== "streamable-http") {
      throw new InvalidArgumentError(`an HTTP target's transport is "streamable-http" or "sse", got ${excerpt(String(target.transport), 40)}`);
    }
    this.mode = target.transport ?? "auto";
    this.origin = this.url.origin;
    this.shown = redactUrl(this.url);
    this.logger = options.logger;
    this.maxMessageBytes = options.maxMessageBytes;
    this.maxReconnects = options.maxReconnects ?? 5;
    this.endWhenUnreachable = options.endWhenUnreachable === true;
    this.session = new HttpSession(target.headers ?? {}, options.logger);
    this.session.onRenewed = () => this.reopenStream();
    // A backend of its own when the client gave none: then this transport frees it on close.
    if (target.fetch === undefined && options.backend === undefined) this.ownBackend = fetchBackend();
    const backend = options.backend ?? this.ownBackend;
    // A credentials mode is fetch's: a backend without one (Node's own) has no cookies to send.
    const route = routeOf(target);
    if (route !== undefined && (target.fetch !== undefined || backend?.routed === undefined)) {
      throw new ClientError("usage", "an HTTP target's `proxy`, `ca` and `socketPath` need Node's own backend: import Conduit from conduit-mcp/node, and give no `fetch`");
    }
    const exchange =
      route !== undefined
        ? backend!.routed!(route)
        : target.fetch !== undefined
          ? fetchExchange(target.fetch, target.credentials)
          : target.credentials === undefined
            ? backend!.exchange
            : (backend!.credentialed?.(target.credentials) ?? backend!.exchange);
    this.authorizer = options.authorizer;
    // The authorizer outlives a restart's transports: the newest one hears of the person.
    if (options.authorizer !== undefined) options.authorizer.onPersonWait = (waiting) => this.sink?.personWait(waiting);
    this.exchange = options.authorizer === undefined ? exchange : authorizingExchange(exchange, this.origin, options.authorizer);
  }

  get isOpen(): boolean {
    return this.state === "open";
  }

  /** `"sse"` once the connection speaks the HTTP+SSE transport. */
  get kind(): "http" | "sse" {
    return this.sse === undefined ? "http" : "sse";
  }

  /** @see SseLink */
  get headers(): Readonly<Record<string, string>> {
    return this.session.hostHeaders;
  }

  describe(): string {
    return this.shown;
  }

  async start(sink: TransportSink, signal?: AbortSignal): Promise<void> {
    this.sink = sink;
    if (this.state === "idle") this.state = "open";
    if (this.mode === "sse") await this.openSse(signal);
  }

  configure(policy: EraPolicy): void {
    this.session.configure(policy);
    // One stream carries everything over HTTP+SSE: no standalone one beside it.
    this.streamWanted = policy.standaloneStream && this.sse === undefined;
    this.configured = true;
  }

  send(message: object, id: RequestId | undefined, options: SendOptions | undefined): Promise<void> {
    if (this.state !== "open") return Promise.reject(new ClientError("closed", "the HTTP transport is closed"));
    let body: string;
    try {
      body = messageText(message);
    } catch (error) {
      throw new InvalidArgumentError(`message is not serialisable to JSON: ${messageOf(error)}`);
    }
    // The time a Retry-After may take: what the request waits at most, all bounds counted.
    const within = options === undefined ? undefined : Math.min(options.timeout ?? Infinity, options.maxTotalTimeout ?? Infinity);
    const posted = this.post(body, id, options?.headers, options?.startsSession === true, within);
    // The stream opens with the first message under the era's policy (`notifications/initialized`):
    // sent after it, not after its answer, so that it is there before the first call.
    if (this.streamWanted) this.openStream();
    return posted;
  }

  abandon(id: RequestId): void {
    this.requests.get(id)?.cancel();
  }

  close(): Promise<void> {
    this.authorizer?.close();
    this.ending ??= this.end(undefined, true);
    return this.ending;
  }

  destroy(): Promise<void> {
    this.authorizer?.close();
    // A close under way may be waiting for its DELETE: that is cancelled too.
    this.cancelAll();
    this.ending ??= this.end(undefined, false);
    return this.ending;
  }

  /** @see HttpLink, SseLink */
  deliver(value: unknown, relatedRequestId?: RequestId, inJsonReply = false): RequestId | undefined {
    const answered = this.sink?.message(value, relatedRequestId === undefined ? undefined : { relatedRequestId });
    if (answered !== undefined) this.answeredWhilePosting(answered, inJsonReply && answered === relatedRequestId);
    return answered;
  }

  /**
   * Request `id` was answered while its POST was under way: it is never sent again, and a reply
   * of its that stays open is let go of (http-linger.ts). Its own JSON reply has ended by the
   * time its answer is read: nothing to let go of there, and no timer armed.
   */
  private answeredWhilePosting(id: RequestId, inItsJsonReply: boolean): void {
    const ticket = this.requests.get(id);
    if (ticket === undefined) return;
    ticket.answered = true;
    if (!inItsJsonReply) this.lingering.answered(ticket);
  }

  /** @see HttpLink */
  parseError(raw: string): void {
    this.sink?.parseError(raw, undefined);
  }

  /** @see HttpLink: the connection cannot go on; it ends, reporting `error` once. */
  fail(error: ClientError): void {
    if (this.state !== "open") return;
    this.ending ??= this.end(error, false);
  }

  private async end(error: ClientError | undefined, graceful: boolean): Promise<void> {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.state = "closing";
    this.cancelAll();
    if (graceful && wasOpen) {
      const ticket = new Ticket();
      this.others.add(ticket);
      await this.session.end(this.exchange, this.url, ticket);
    }
    this.ownBackend?.destroy();
    this.state = "closed";
    this.sink?.closed(error);
  }

  private cancelAll(): void {
    this.stream?.stop();
    this.sse?.stop();
    this.opening?.stop();
    for (const ticket of this.requests.values()) ticket.cancel();
    for (const ticket of this.others) ticket.cancel();
    this.lingering.clear();
    this.outbox.close();
  }

  /** @see HttpLink, SseLink */
  get paused(): Promise<void> | undefined {
    return this.outbox.paused;
  }

  private async post(
    body: string,
    id: RequestId | undefined,
    extra: Readonly<Record<string, string>> | undefined,
    startsSession: boolean,
    timeout: number | undefined,
  ): Promise<void> {
    const ticket = new Ticket();
    let timer: NodeJS.Timeout | undefined;
    if (id !== undefined) {
      this.requests.set(id, ticket);
      if (timeout !== undefined && timeout < Infinity) ticket.until = now() + timeout;
    } else {
      // A notification or a response waits its turn (`http-outbox.ts`), and has no deadline of
      // its own upstream: a server that never answers its POST must not pin a socket for ever.
      const turn = this.outbox.enter(body.length);
      if (turn === false) {
        const error = new ClientError("transport", `the server is not taking the client's messages: more than ${MAX_WAITING_BYTES} bytes of them wait for ${this.shown}`);
        this.fail(error);
        throw error;
      }
      if (turn !== undefined) await turn;
      // Ended while it waited: nothing waits for it either (as stdio, which sends nothing once closed).
      if (this.state !== "open") {
        this.outbox.leave();
        return;
      }
      this.others.add(ticket);
      timer = setTimeout(() => ticket.cancel(), MESSAGE_TIMEOUT_MS);
      ticket.until = now() + MESSAGE_TIMEOUT_MS;
    }
    try {
      if (this.sse !== undefined) await this.sse.post(body, ticket);
      // Only a start may fall back to HTTP+SSE: any other message skips that layer's promise.
      else if (!startsSession) await post(this, body, id, extra, false, ticket);
      else await this.postStreamable(body, id, extra, startsSession, ticket);
    } catch (error) {
      if (ticket.cancelled && id !== undefined) return;
      const failure = this.asClientError(error);
      // The server could not be reached at all (not a status, a bad body, our own time limit, or
      // a socket that broke under this one request: the others in flight go on).
      if (this.endWhenUnreachable && !ticket.cancelled && unreachable(error)) this.fail(failure);
      // A message over maxMessageBytes ends the connection, over HTTP as over stdio.
      if (oversize(error)) this.fail(failure);
      throw failure;
    } finally {
      clearTimeout(timer);
      if (id === undefined) {
        this.others.delete(ticket);
        this.outbox.leave();
      } else {
        if (this.requests.get(id) === ticket) this.requests.delete(id);
        this.lingering.ended(ticket);
      }
    }
  }

  /**
   * One POST of Streamable HTTP. The session's first start refused as a server of the old
   * transport refuses it is sent again over HTTP+SSE (not a renewal's: a session that was
   * Streamable HTTP stays so).
   */
  private async postStreamable(
    body: string,
    id: RequestId | undefined,
    extra: Readonly<Record<string, string>> | undefined,
    startsSession: boolean,
    ticket: Ticket,
  ): Promise<void> {
    try {
      await post(this, body, id, extra, startsSession, ticket);
    } catch (error) {
      if (!(startsSession && this.mode === "auto" && !this.configured && refusedAsOldTransport(error))) throw error;
      const refusal = error as ClientError;
      this.logger.info(`${this.shown} refused Streamable HTTP (${refusal.message}); trying the HTTP+SSE transport`);
      try {
        await this.openSse();
      } catch (failure) {
        if (this.state !== "open") throw failure;
        throw new ClientError("transport", `${this.shown} speaks neither Streamable HTTP (${refusal.message}) nor HTTP+SSE (${messageOf(failure)})`, { cause: failure });
      }
      // Given up meanwhile: not sent again.
      if (ticket.cancelled) return;
      await this.sse!.post(body, ticket);
    }
  }

  /**
   * Opens the HTTP+SSE stream and waits for its endpoint, until `signal` or a close ends the
   * wait; only then does the connection speak it.
   */
  private async openSse(signal?: AbortSignal): Promise<void> {
    const channel = new SseChannel(this);
    this.opening = channel;
    const stop = (): void => channel.stop();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      if (signal?.aborted === true) channel.stop();
      await channel.open();
    } catch (error) {
      channel.stop();
      if (this.state !== "open") throw new ClientError("closed", "the HTTP transport was closed while its HTTP+SSE stream opened", { cause: error });
      throw this.asClientError(error);
    } finally {
      signal?.removeEventListener("abort", stop);
      this.opening = undefined;
    }
    if (this.state !== "open") {
      channel.stop();
      throw new ClientError("closed", "the HTTP transport was closed while its HTTP+SSE stream opened");
    }
    this.sse = channel;
  }

  private openStream(): void {
    this.streamWanted = false;
    if (this.state !== "open" || this.stream !== undefined) return;
    const stream = new StandaloneStream(this);
    this.stream = stream;
    stream.start(() => {
      if (this.stream === stream) this.stream = undefined;
    });
  }

  /** A stream of the expired session ends; one on the new session replaces it. */
  private reopenStream(): void {
    if (this.stream === undefined) return;
    this.stream.stop();
    this.stream = undefined;
    this.openStream();
  }

  private asClientError(error: unknown): ClientError {
    if (error instanceof ClientError) return error;
    if (error instanceof BodyTooLargeError) return new ClientError("transport", error.message, { cause: error });
    if (this.state !== "open") return new ClientError("closed", "the connection was closed", { cause: error });
    const malformed = malformedHttp(error);
    if (malformed !== undefined) return new ClientError("protocol", `${this.shown} sent an HTTP reply that does not parse (${malformed})`, { cause: error });
    const socket = socketFailure(error);
    // The reason in words and its code: "socket hang up" alone does not say the connection was reset.
    if (socket !== undefined) return new ClientError("transport", `HTTP request to ${this.shown} failed: ${socket.detail} (${socket.reason}, ${socket.code})`, { cause: error });
    return new ClientError("transport", `HTTP request to ${this.shown} failed: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * Whether `error` is a 400, 404 or 405 to the POST as a server of the old transport answers it:
 * without a JSON-RPC error in the body (one there says the URL does speak JSON-RPC over POST,
 * as a modern server's refusal of `initialize` does).
 */
function refusedAsOldTransport(error: unknown): boolean {
  return error instanceof ClientError && error.kind === "transport" && error.cause instanceof HttpStatusError && OLD_TRANSPORT_STATUSES.has(error.cause.status);
}
