/**
 * Streamable HTTP transport, both eras (2025-11-25 and 2026-07-28 basic/transports).
 *
 * Every message is one POST. A request's reply is JSON or an event stream that may carry
 * server messages before the response; those are reported with the request's id as
 * `relatedRequestId`. What differs between eras is switched by the protocol layer through
 * `configure()`: legacy keeps an `Mcp-Session-Id`, opens the standalone GET stream, resumes
 * broken streams with `Last-Event-ID`, re-initialises once on a 404 for an expired session and
 * DELETEs the session on close; modern has none of that, and abandoning a request (closing its
 * stream) is how it is cancelled.
 */
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import { BodyTooLargeError, failureOf, mediaType, readBody } from "./http-body.js";
import { HttpAgents, Ticket, fetchExchange, type Exchange, type ExchangeResponse, type FetchLike } from "./http-exchange.js";
import { HttpSession } from "./http-session.js";
import { SseOverflowError, openSseReader, type SseCursor } from "./sse-reader.js";
import type { RequestId, SendOptions, Transport, TransportSink } from "./transport.js";

export interface HttpTarget {
  url: string | URL;
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Use this `fetch` instead of `node:http`. */
  fetch?: FetchLike | undefined;
}

export interface HttpOptions {
  logger: Logger;
  /** The client's keep-alive agents; a transport of its own gets its own. */
  agents?: HttpAgents | undefined;
  maxMessageBytes: number;
  /** How many times in a row a broken event stream is resumed before giving up. */
  maxReconnects?: number | undefined;
}

export interface HttpEraSettings {
  /** The `MCP-Protocol-Version` header; absent until negotiated. */
  protocolVersion?: string | undefined;
  /** Legacy sessions, GET stream, resumption and DELETE. */
  sessions?: boolean | undefined;
}

const DEFAULT_RETRY_MS = 1000;
/** How long a POST of a notification or a response may stay unanswered. */
const MESSAGE_TIMEOUT_MS = 30_000;
/** Notifications and responses on their way at once, beyond which new ones are not sent. */
const MAX_PENDING_MESSAGES = 64;
const DELETE_TIMEOUT_MS = 2000;

type Outgoing = { readonly id?: unknown; readonly method?: unknown };

export class HttpTransport implements Transport {
  readonly kind = "http" as const;
  readonly origin: string;
  private readonly url: URL;
  private readonly exchange: Exchange;
  private readonly ownAgents: HttpAgents | undefined;
  private readonly session: HttpSession;
  private sink: TransportSink | undefined;
  private open = false;
  private recovery: (() => Promise<void>) | undefined;
  private recovering: Promise<void> | undefined;
  private readonly requests = new Map<RequestId, Ticket>();
  private readonly others = new Set<Ticket>();
  private getStream: Ticket | undefined;

  constructor(
    target: HttpTarget,
    private readonly options: HttpOptions,
  ) {
    try {
      this.url = new URL(target.url);
    } catch {
      throw new InvalidArgumentError(`not a valid URL: ${String(target.url)}`);
    }
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new InvalidArgumentError(`an HTTP target needs an http: or https: URL, got ${this.url.protocol}`);
    }
    this.origin = this.url.origin;
    this.session = new HttpSession(target.headers ?? {}, options.logger);
    // Agents of its own when the client gave none: then this transport frees them on close.
    if (target.fetch === undefined && options.agents === undefined) this.ownAgents = new HttpAgents();
    this.exchange = target.fetch === undefined ? (options.agents ?? this.ownAgents!).exchange : fetchExchange(target.fetch);
  }

  describe(): string {
    return this.url.href;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    this.open = true;
    return Promise.resolve();
  }

  configure(settings: HttpEraSettings): void {
    this.session.configure(settings);
  }

  /** Called on a 404 for an expired session: runs a fresh `initialize` (legacy). */
  onSessionExpired(recover: () => Promise<void>): void {
    this.recovery = recover;
  }

  send(message: object, options?: SendOptions): Promise<void> {
    if (!this.open) return Promise.reject(new ClientError("closed", "the HTTP transport is closed"));
    let body: string;
    try {
      body = JSON.stringify(message);
    } catch (error) {
      throw new InvalidArgumentError(`message is not serialisable to JSON: ${String(error)}`);
    }
    const outgoing = message as Outgoing;
    const id = typeof outgoing.method === "string" && isRequestId(outgoing.id) ? outgoing.id : undefined;
    return this.post(body, id, options?.headers, outgoing.method === "initialize");
  }

  abandon(id: RequestId): void {
    this.requests.get(id)?.cancel();
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.getStream?.cancel();
    for (const ticket of this.requests.values()) ticket.cancel();
    for (const ticket of this.others) ticket.cancel();
    if (this.session.id !== undefined) await this.deleteSession();
    this.ownAgents?.destroy();
    this.sink?.closed(undefined);
  }

  // ---- POST ------------------------------------------------------------------------------------

  private async post(
    body: string,
    id: RequestId | undefined,
    extra: Readonly<Record<string, string>> | undefined,
    isInitialize: boolean,
  ): Promise<void> {
    const ticket = new Ticket();
    let timer: NodeJS.Timeout | undefined;
    if (id !== undefined) this.requests.set(id, ticket);
    else {
      // A notification or a response has no deadline of its own upstream: a server that never
      // answers its POST must not pin a socket for ever, nor an unbounded number of them.
      if (this.others.size >= MAX_PENDING_MESSAGES) {
        this.options.logger.warn(`${MAX_PENDING_MESSAGES} messages to ${this.url.href} are still unanswered; one more was not sent`, {
          body: excerpt(body),
        });
        return;
      }
      this.others.add(ticket);
      timer = setTimeout(() => ticket.cancel(), MESSAGE_TIMEOUT_MS);
    }
    try {
      await this.postOnce(body, id, extra, isInitialize, true, ticket);
    } catch (error) {
      if (ticket.cancelled && id !== undefined) return;
      throw this.asClientError(error);
    } finally {
      clearTimeout(timer);
      if (id === undefined) this.others.delete(ticket);
      else if (this.requests.get(id) === ticket) this.requests.delete(id);
    }
  }

  private async postOnce(
    body: string,
    id: RequestId | undefined,
    extra: Readonly<Record<string, string>> | undefined,
    isInitialize: boolean,
    mayRecover: boolean,
    ticket: Ticket,
  ): Promise<void> {
    // While an expired session is renewed there is no id to send, and a server that requires
    // one refuses the message (400): wait for the new one.
    if (!isInitialize && this.session.id === undefined && this.recovering !== undefined) await this.recovering;
    const sentSession = this.session.id;
    const response = await this.exchange.send({
      method: "POST",
      url: this.url,
      headers: this.session.headers(isInitialize ? "initialize" : "post"),
      extra,
      body,
      ticket,
    });
    this.session.capture(response);
    if (response.status === 404 && sentSession !== undefined && mayRecover && !isInitialize && this.recovery) {
      response.discard();
      await this.recover(sentSession);
      // Only requests are sent again. A notification or a response belonged to the expired
      // session (and the renewal has sent its own `notifications/initialized`).
      if (id === undefined) {
        this.options.logger.debug("dropped a message the expired session did not take", { body: excerpt(body) });
        return;
      }
      // A call given up (cancelled, timed out) or a connection closed meanwhile is not resent.
      if (ticket.cancelled || !this.open) return;
      return this.postOnce(body, id, extra, isInitialize, false, ticket);
    }
    if (response.status >= 200 && response.status < 300) return this.readReply(response, id, ticket);
    throw await failureOf(response, this.url);
  }

  private async readReply(response: ExchangeResponse, id: RequestId | undefined, ticket: Ticket): Promise<void> {
    const type = mediaType(response);
    if (response.status === 202 || (id === undefined && type !== "text/event-stream")) {
      response.discard();
      if (id !== undefined) throw new ClientError("protocol", "the server accepted a request (202) without answering it");
      return;
    }
    if (type === "text/event-stream") return this.readStream(response, id, ticket);
    if (type !== "application/json") {
      response.discard();
      throw new ClientError("protocol", `the server answered with Content-Type "${type}", expected JSON or an event stream`);
    }
    const text = await readBody(response, this.options.maxMessageBytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ClientError("protocol", "the server's JSON reply does not parse", { data: excerpt(text) });
    }
    // An error that could not name the request (id null) is still this request's answer.
    if (id !== undefined && isObject(value) && value.id === null && isObject(value.error)) value = { ...value, id };
    this.sink?.message(value, { relatedRequestId: id });
    // A JSON reply holds the response and nothing else: anything else would leave the call waiting.
    if (id !== undefined && !(isObject(value) && value.id === id && !("method" in value))) {
      throw new ClientError("protocol", "the server's JSON reply is not the response to the request", { data: excerpt(text) });
    }
  }

  /** Reads a POST's event stream; resumes it with GET + Last-Event-ID when it breaks early. */
  private async readStream(response: ExchangeResponse, id: RequestId | undefined, ticket: Ticket): Promise<void> {
    const cursor: SseCursor = {};
    let answered = false;
    const deliver = (value: unknown): void => {
      if (id !== undefined && isObject(value) && value.id === id && !("method" in value)) answered = true;
      this.sink?.message(value, { relatedRequestId: id });
    };
    let broken: unknown = await this.consumeStream(response, cursor, deliver);
    for (let attempt = 0; id !== undefined && !answered && this.open && !ticket.cancelled; attempt++) {
      // An oversize message was refused, not lost: resuming would only replay it.
      if (broken instanceof SseOverflowError) throw new ClientError("transport", broken.message, { cause: broken });
      const resumable = this.session.sessions && cursor.lastEventId !== undefined;
      if (!resumable || attempt >= (this.options.maxReconnects ?? 5)) {
        throw new ClientError("transport", "the server's event stream ended before it answered", { cause: broken });
      }
      await ticket.sleep(cursor.retryMs ?? DEFAULT_RETRY_MS);
      if (ticket.cancelled) return;
      broken = await this.resumeStream(cursor, ticket, deliver);
    }
  }

  /** Streams events into `deliver`; returns the error that ended the stream, if any. */
  private async consumeStream(response: ExchangeResponse, cursor: SseCursor, deliver: (value: unknown) => void): Promise<unknown> {
    const reader = await openSseReader(this.options.maxMessageBytes, cursor, {
      message: deliver,
      parseError: (raw) => this.sink?.parseError(raw, undefined),
    });
    try {
      await response.consume((chunk) => reader.push(chunk));
      return undefined;
    } catch (error) {
      response.discard();
      return error;
    }
  }

  private async resumeStream(cursor: SseCursor, ticket: Ticket, deliver: (value: unknown) => void): Promise<unknown> {
    try {
      const response = await this.exchange.send({
        method: "GET",
        url: this.url,
        headers: this.session.headers("get"),
        extra: { "last-event-id": cursor.lastEventId ?? "" },
        ticket,
      });
      if (response.status !== 200 || mediaType(response) !== "text/event-stream") return await failureOf(response, this.url);
      return await this.consumeStream(response, cursor, deliver);
    } catch (error) {
      return error;
    }
  }

  // ---- the standalone GET stream (legacy) -------------------------------------------------------

  /** Opens the GET stream on which a legacy server sends requests and notifications unasked. */
  openStandaloneStream(): void {
    if (!this.open || !this.session.sessions || this.getStream !== undefined) return;
    const stream = new Ticket();
    this.getStream = stream;
    void this.runStandaloneStream(stream).finally(() => {
      if (this.getStream === stream) this.getStream = undefined;
    });
  }

  /** The stream lives as long as the connection; its ticket stops it. */
  private async runStandaloneStream(stream: Ticket): Promise<void> {
    const cursor: SseCursor = {};
    let failures = 0;
    while (this.open && !stream.cancelled) {
      let received = false;
      const deliver = (value: unknown): void => {
        received = true;
        this.sink?.message(value, undefined);
      };
      try {
        const sentSession = this.session.id;
        const response = await this.exchange.send({
          method: "GET",
          url: this.url,
          headers: this.session.headers("get"),
          extra: cursor.lastEventId === undefined ? undefined : { "last-event-id": cursor.lastEventId },
          ticket: stream,
        });
        if (response.status === 405) {
          response.discard();
          this.options.logger.debug("the server offers no standalone event stream (405)");
          return;
        }
        if (response.status === 404 && sentSession !== undefined && this.recovery) {
          response.discard();
          await this.recover(sentSession);
          continue;
        }
        if (response.status !== 200 || mediaType(response) !== "text/event-stream") throw await failureOf(response, this.url);
        await this.consumeStream(response, cursor, deliver);
      } catch (error) {
        if (stream.cancelled || !this.open) return;
        this.options.logger.debug("the standalone event stream failed", { error });
      }
      failures = received ? 0 : failures + 1;
      if (failures > (this.options.maxReconnects ?? 5)) {
        this.options.logger.warn(`gave up on the standalone event stream of ${this.url.href} after ${failures} failures`);
        return;
      }
      await stream.sleep(cursor.retryMs ?? DEFAULT_RETRY_MS * 2 ** Math.max(0, failures - 1));
    }
  }

  // ---- sessions --------------------------------------------------------------------------------

  /** One re-initialisation at a time, shared by every request that met the 404. */
  private async recover(expired: string): Promise<void> {
    if (this.session.id === expired) {
      this.session.forget();
      this.options.logger.info(`session ${expired} expired; initialising a new one`);
      const hadStream = this.getStream !== undefined;
      this.getStream?.cancel();
      this.getStream = undefined;
      this.recovering = (this.recovery ?? (() => Promise.resolve()))().then(
        () => {
          this.recovering = undefined;
          if (hadStream) this.openStandaloneStream();
        },
        (error: unknown) => {
          this.recovering = undefined;
          // Without a session nothing more can be said to this server: end the connection.
          const reason = new ClientError("transport", `the session expired and could not be renewed: ${messageOf(error)}`, { cause: error });
          this.fail(reason);
          throw reason;
        },
      );
    }
    await this.recovering;
  }

  /** The connection cannot go on: stop everything and report `error` once. */
  private fail(error: ClientError): void {
    if (!this.open) return;
    this.open = false;
    this.getStream?.cancel();
    for (const ticket of this.requests.values()) ticket.cancel();
    for (const ticket of this.others) ticket.cancel();
    this.ownAgents?.destroy();
    this.sink?.closed(error);
  }

  private async deleteSession(): Promise<void> {
    const ticket = new Ticket();
    const timer = setTimeout(() => ticket.cancel(), DELETE_TIMEOUT_MS);
    try {
      const response = await this.exchange.send({
        method: "DELETE",
        url: this.url,
        headers: this.session.headers("delete"),
        ticket,
      });
      response.discard();
    } catch (error) {
      this.options.logger.debug("DELETE of the session failed", { error });
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private asClientError(error: unknown): ClientError {
    if (error instanceof ClientError) return error;
    if (error instanceof BodyTooLargeError) return new ClientError("transport", error.message, { cause: error });
    if (!this.open) return new ClientError("closed", "the connection was closed", { cause: error });
    return new ClientError("transport", `HTTP request to ${this.url.href} failed: ${messageOf(error)}`, { cause: error });
  }
}

function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || typeof id === "number";
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
