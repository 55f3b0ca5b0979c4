/**
 * The standalone GET event stream of a legacy HTTP connection (2025-11-25 basic/transports,
 * "Listening for Messages from the Server"), on which the server sends requests and
 * notifications unasked. It lives as long as the connection: when it breaks it is opened
 * again, resuming with `Last-Event-ID`, after the server's `retry:` (bounded) or a backoff
 * that doubles with each failure in a row (or the `Retry-After` of a 429 or 503, at most a
 * minute); after `maxReconnects` failures without a message it is given up. A 405 means the
 * server offers none, and so does a 200 that is not an event stream; a 404 for the session
 * renews it. A message over `maxMessageBytes` ends the connection.
 */
import { ClientError } from "../util/errors.js";
import { mediaType, failureOf, notAnEventStream } from "./http-body.js";
import { Ticket, sendFollowing } from "./http-exchange.js";
import { DEFAULT_RETRY_MS, MAX_RETRY_MS, consumeStream, renew, retryDelay, type HttpLink } from "./http-post.js";
import { retryAfterMs, turnedAway } from "./http-retry.js";
import { SseOverflowError, type SseCursor } from "./sse-reader.js";

export class StandaloneStream {
  private readonly ticket = new Ticket();

  constructor(private readonly link: HttpLink) {}

  /** Opens the stream; `ended` runs when it is given up or stopped. */
  start(ended: () => void): void {
    void this.run().finally(ended);
  }

  stop(): void {
    this.ticket.cancel();
  }

  private async run(): Promise<void> {
    const link = this.link;
    const cursor: SseCursor = {};
    let failures = 0;
    /** False once the server refused this page a resumption (CORS): later streams start afresh. */
    let resumable = true;
    while (link.isOpen && !this.ticket.cancelled) {
      let received = false;
      let asked: number | undefined;
      const deliver = (value: unknown): void => {
        received = true;
        link.deliver(value, undefined);
      };
      try {
        const sent = link.session.id;
        const response = await sendFollowing(link.exchange, {
          method: "GET",
          url: link.url,
          headers: link.session.headers("get"),
          extra: cursor.lastEventId === undefined || !resumable ? undefined : { "last-event-id": cursor.lastEventId },
          ticket: this.ticket,
        });
        if (response.status === 405) {
          response.discard();
          link.logger.debug("the server offers no standalone event stream (405)");
          return;
        }
        if (link.session.expired(response.status, sent)) {
          response.discard();
          await renew(link, sent);
          continue;
        }
        // A 200 that is no event stream will not become one: given up, as a 405 is.
        if (response.status === 200 && mediaType(response) !== "text/event-stream") {
          link.logger.warn(`the standalone event stream is given up: ${notAnEventStream(response, link.url).message}`);
          return;
        }
        if (response.status !== 200) {
          // A server that turned the GET away says when to come back: then, not at the backoff's time.
          if (turnedAway(response.status)) asked = retryAfterMs(response);
          throw await failureOf(response, link.url);
        }
        const ended = await consumeStream(link, response, cursor, deliver);
        // An oversize message was refused, not lost: resuming would only replay it.
        if (ended instanceof SseOverflowError) {
          link.fail(new ClientError("transport", ended.message, { cause: ended }));
          return;
        }
      } catch (error) {
        if (this.ticket.cancelled || !link.isOpen) return;
        // A page whose server does not allow Last-Event-ID (CORS) cannot resume; the spec lets a
        // client open a new stream instead, so it does, rather than fail every try the same way.
        // What the server sent meanwhile on the old stream may be lost: said once.
        if (resumable && cursor.lastEventId !== undefined && refusedForCors(error)) {
          link.logger.warn(`the server does not allow this page to resume its event stream (Last-Event-ID is not in Access-Control-Allow-Headers): ${link.describe()} opens new streams instead, and what it sent between two may be lost`);
          resumable = false;
          continue;
        }
        link.logger.debug("the standalone event stream failed", { error });
      }
      failures = received ? 0 : failures + 1;
      if (failures > link.maxReconnects) {
        link.logger.warn(`gave up on the standalone event stream of ${link.describe()} after ${failures} failures`);
        return;
      }
      const backoff = retryDelay(cursor, DEFAULT_RETRY_MS * 2 ** Math.max(0, failures - 1));
      await this.ticket.sleep(asked === undefined ? backoff : Math.min(asked, MAX_RETRY_MS));
    }
  }
}

function refusedForCors(error: unknown): boolean {
  return error instanceof ClientError && (error.data as { reason?: unknown } | undefined)?.reason === "cors";
}
