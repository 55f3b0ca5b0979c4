/**
 * The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE"): a GET opens an
 * event stream whose first event, `endpoint`, names the URL to POST every message to; everything
 * the server says, replies included, comes as `message` events on that stream. A POST's 2xx
 * means delivered, a 429 or 503 is sent again as `http-retry.ts` allows, anything else means
 * the message was not delivered.
 *
 * The `endpoint` must be on the stream's own origin: a server must not be able to send the
 * client's messages, and the host's headers with them, to another host. The stream is the
 * session: a second `endpoint`, or the stream's end, is the end of the connection (a new GET
 * would be a new, uninitialised session, and the calls in flight would never be answered).
 */
import { ClientError, messageOf } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { excerpt, redactUrl } from "../util/text.js";
import { failureOf, mediaType, notAnEventStream } from "./http-body.js";
import { Ticket, sendFollowing, type Exchange, type ExchangeRequest, type ExchangeResponse } from "./http-exchange.js";
import { sendAgain, turnedAway } from "./http-retry.js";
import { openSseReader, type SseCursor } from "./sse-reader.js";
import { withField } from "../util/sanitize.js";

/** What the channel needs of its transport. */
export interface SseLink {
  readonly url: URL;
  readonly exchange: Exchange;
  readonly logger: Logger;
  readonly maxMessageBytes: number;
  /** The host's own headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  deliver(value: unknown): void;
  parseError(raw: string): void;
  /** The stream is gone, or said what ends the session: the connection ends. */
  fail(error: ClientError): void;
  /** While the client's answers wait to be sent: settles when they went. The stream is not read meanwhile. */
  readonly paused: Promise<void> | undefined;
}

export class SseChannel {
  private readonly stream = new Ticket();
  private endpoint: URL | undefined;
  private readonly getHeaders: Readonly<Record<string, string>>;
  private readonly postHeaders: Readonly<Record<string, string>>;

  constructor(private readonly link: SseLink) {
    this.getHeaders = withField(link.headers, "accept", "text/event-stream") as Record<string, string>;
    const post = withField(link.headers, "accept", "application/json, text/event-stream");
    post["content-type"] = "application/json";
    this.postHeaders = post as Record<string, string>;
  }

  /**
   * Opens the stream and waits for its `endpoint`. Rejects when the stream cannot be opened, ends
   * or errs before it, names another origin, or `stop()` is called first.
   */
  async open(): Promise<void> {
    const response = await sendFollowing(this.link.exchange, { method: "GET", url: this.link.url, headers: this.getHeaders, ticket: this.stream });
    if (response.status !== 200 || mediaType(response) !== "text/event-stream") {
      const failure = response.status === 200 ? notAnEventStream(response, this.link.url) : await failureOf(response, this.link.url);
      throw new ClientError(failure.kind === "protocol" ? "protocol" : "transport", `the HTTP+SSE stream could not be opened: ${failure.message}`, { cause: failure, data: failure.data });
    }
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      // True when this settled the open; false when the connection was already running.
      const ready = (error?: ClientError): boolean => {
        if (settled) return false;
        settled = true;
        if (error === undefined) resolve();
        else reject(error);
        return true;
      };
      void this.read(response, ready).then((ended) => {
        const why = ended === undefined ? "the server ended it" : messageOf(ended);
        const error = new ClientError("transport", `the HTTP+SSE stream of ${redactUrl(this.link.url)} ended (${why})`, { cause: ended });
        if (settled) this.link.fail(error);
        else ready(error);
      });
    });
  }

  /** POSTs one message to the endpoint; rejects when it was not taken. */
  async post(body: string, ticket: Ticket): Promise<void> {
    const endpoint = this.endpoint;
    if (endpoint === undefined) throw new ClientError("transport", "the HTTP+SSE stream named no endpoint yet");
    const request: ExchangeRequest = { method: "POST", url: endpoint, headers: this.postHeaders, body, ticket };
    let response = await sendFollowing(this.link.exchange, request);
    if (turnedAway(response.status)) response = await sendAgain(this.link.exchange, request, response, ticket);
    if (response.status >= 200 && response.status < 300) return response.discard();
    throw await failureOf(response, endpoint);
  }

  stop(): void {
    this.stream.cancel();
  }

  /** Reads the stream until it ends; returns what ended it (undefined: the server closed it). */
  private async read(response: ExchangeResponse, ready: (error?: ClientError) => boolean): Promise<unknown> {
    const cursor: SseCursor = {};
    try {
      const reader = await openSseReader(this.link.maxMessageBytes, cursor, {
        message: (value) => this.link.deliver(value),
        parseError: (raw) => this.link.parseError(raw),
        named: (event, data) => {
          if (event !== "endpoint") return;
          const problem = this.takeEndpoint(data);
          if (problem === undefined) {
            ready();
            return;
          }
          // Before the open settled, its rejection carries the problem; after, the connection ends.
          if (!ready(problem)) this.link.fail(problem);
          this.stop();
        },
      });
      await response.consume(
        (chunk) => reader.push(chunk),
        () => this.link.paused,
      );
      return undefined;
    } catch (error) {
      response.discard();
      return error;
    }
  }

  /** Takes the endpoint of an `endpoint` event; the error that ends the connection, if it may not be taken. */
  private takeEndpoint(data: string): ClientError | undefined {
    if (this.endpoint !== undefined) return new ClientError("transport", "the HTTP+SSE server named a second endpoint: its session changed");
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.link.url);
    } catch {
      return new ClientError("transport", `the HTTP+SSE endpoint is not a URL: ${excerpt(data, 100)}`);
    }
    if (endpoint.origin !== this.link.url.origin) {
      return new ClientError("transport", `the HTTP+SSE server named an endpoint on another origin (${redactUrl(endpoint)}); refused`);
    }
    this.endpoint = endpoint;
    return undefined;
  }
}
