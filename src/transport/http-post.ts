/**
 * One message POSTed over Streamable HTTP, and its reply (2025-11-25 and 2026-07-28
 * basic/transports, "Sending Messages to the Server"). A notification or a response is
 * accepted with 202; a request is answered with JSON or with an event stream that may carry
 * server messages before the response, each reported with the request's id. A stream that
 * breaks before the response is resumed with a GET and `Last-Event-ID` when the era allows it,
 * waiting the server's `retry:` (bounded) between tries. A 404 to a request that carried the
 * session renews it, and the request alone is sent again. A 429 or 503 is sent again after its
 * `Retry-After`, within the bounds of `http-retry.ts`.
 */
import { ClientError } from "../util/errors.js";
import type { RequestId } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import { excerpt } from "../util/text.js";
import { failureOf, mediaType, readBody } from "./http-body.js";
import { followRedirect, isRedirect, sendFollowing, type Exchange, type ExchangeRequest, type ExchangeResponse, type Ticket } from "./http-exchange.js";
import { sendAgain, turnedAway } from "./http-retry.js";
import type { HttpSession } from "./http-session.js";
import { malformedHttp } from "./http-failure.js";
import { unexposedSession } from "./fetch-errors.js";
import { SseOverflowError, openSseReader, type SseCursor } from "./sse-reader.js";

/** What the POST exchange and the standalone stream share of their transport. */
export interface HttpLink {
  readonly url: URL;
  readonly exchange: Exchange;
  readonly session: HttpSession;
  readonly logger: Logger;
  readonly maxMessageBytes: number;
  /** Broken event streams resumed in a row before giving up. */
  readonly maxReconnects: number;
  readonly isOpen: boolean;
  /** The URL for messages, secrets redacted. */
  describe(): string;
  /**
   * A message from the server; `relatedRequestId` is the request whose stream (or, with
   * `inJsonReply`, whose JSON reply) carried it. Returns the id of the request it answered, if
   * it answered one.
   */
  deliver(value: unknown, relatedRequestId: RequestId | undefined, inJsonReply?: boolean): RequestId | undefined;
  parseError(raw: string): void;
  /** The connection cannot go on (its session could not be renewed). */
  fail(error: ClientError): void;
  /** While the client's answers wait to be sent: settles when they went. Read no stream meanwhile. */
  readonly paused: Promise<void> | undefined;
}

/** Waits this long between tries when the server names no `retry:`. */
export const DEFAULT_RETRY_MS = 1000;
/** The longest wait a server's `retry:` may ask for. */
export const MAX_RETRY_MS = 60_000;

export function retryDelay(cursor: SseCursor, fallback: number): number {
  return Math.min(cursor.retryMs ?? fallback, MAX_RETRY_MS);
}

/**
 * POSTs one message: `id` is the request's (undefined for a notification or a response);
 * `startsSession` marks a message whose reply mints the session.
 */
export async function post(
  link: HttpLink,
  body: string,
  id: RequestId | undefined,
  extra: Readonly<Record<string, string>> | undefined,
  startsSession: boolean,
  ticket: Ticket,
  mayRenew = true,
): Promise<void> {
  if (!startsSession) {
    const renewal = link.session.renewal();
    if (renewal !== undefined) await renewal.catch(() => {});
    if (!link.isOpen || ticket.cancelled) return;
  }
  const sent = link.session.id;
  const request: ExchangeRequest = {
    method: "POST",
    url: link.url,
    headers: link.session.headers(startsSession ? "initialize" : "post"),
    extra,
    body,
    ticket,
  };
  let response = await link.exchange.send(request);
  if (isRedirect(response.status)) response = await followRedirect(link.exchange, request, response);
  if (turnedAway(response.status)) response = await sendAgain(link.exchange, request, response, ticket);
  if (startsSession) link.session.capture(response);
  if (mayRenew && !startsSession && link.session.expired(response.status, sent)) {
    response.discard();
    await renew(link, sent);
    // Only requests are sent again: a notification or a response belonged to the expired
    // session (and the renewal sends its own `notifications/initialized`).
    if (id === undefined) {
      link.logger.debug("dropped a message the expired session did not take", labelOf(body));
      return;
    }
    // A call given up (cancelled, timed out) or a connection closed meanwhile is not resent.
    if (ticket.cancelled || !link.isOpen) return;
    return post(link, body, id, extra, false, ticket, false);
  }
  // Awaited, not returned: an async function that returns a promise adopts it in two more turns.
  if (response.status >= 200 && response.status < 300) return await readReply(link, response, id, ticket);
  const failure = await failureOf(response, link.url);
  // A server that wants a session it never let the page read answers each request 400.
  throw response.status === 400 && !startsSession && sent === undefined && link.session.keepsSessions ? unexposedSession(failure, link.url) : failure;
}

/** Renews an expired session; when that fails, the connection ends. */
export async function renew(link: HttpLink, expired: string): Promise<void> {
  try {
    await link.session.renew(expired);
  } catch (error) {
    const reason = new ClientError("transport", `the session expired and could not be renewed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    link.fail(reason);
    throw reason;
  }
}

async function readReply(link: HttpLink, response: ExchangeResponse, id: RequestId | undefined, ticket: Ticket): Promise<void> {
  const type = mediaType(response);
  if (response.status === 202 || (id === undefined && type !== "text/event-stream")) {
    response.discard();
    if (id !== undefined) throw new ClientError("protocol", "the server accepted a request (202) without answering it");
    return;
  }
  if (type === "text/event-stream") return readStream(link, response, id, ticket);
  if (type !== "application/json") {
    response.discard();
    throw new ClientError("protocol", `the server answered with Content-Type "${excerpt(type, 100)}", expected JSON or an event stream`);
  }
  const text = await readBody(response, link.maxMessageBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ClientError("protocol", "the server's JSON reply does not parse", { data: excerpt(text) });
  }
  // A JSON reply holds the response and nothing else: anything else would leave the call waiting.
  if (link.deliver(value, id, true) !== id && id !== undefined) {
    throw new ClientError("protocol", "the server's JSON reply is not the response to the request", { data: excerpt(text) });
  }
}

/** Reads a POST's event stream; resumes it with GET + Last-Event-ID when it breaks early. */
async function readStream(link: HttpLink, response: ExchangeResponse, id: RequestId | undefined, ticket: Ticket): Promise<void> {
  const cursor: SseCursor = {};
  let answered = false;
  const deliver = (value: unknown): void => {
    if (link.deliver(value, id) === id && id !== undefined) answered = true;
  };
  let broken: unknown = await consumeStream(link, response, cursor, deliver);
  for (let attempt = 0; ; attempt++) {
    // An oversize message was refused, not lost: resuming would only replay it.
    if (broken instanceof SseOverflowError) throw new ClientError("transport", broken.message, { cause: broken });
    if (id === undefined || answered || !link.isOpen || ticket.cancelled) return;
    const resumable = link.session.resumable && cursor.lastEventId !== undefined;
    if (!resumable || attempt >= link.maxReconnects) {
      // A reply the HTTP parser refused is the server's fault wherever it broke: "protocol", as for a JSON body.
      if (malformedHttp(broken) !== undefined) throw broken;
      throw new ClientError("transport", "the server's event stream ended before it answered", { cause: broken });
    }
    await ticket.sleep(retryDelay(cursor, DEFAULT_RETRY_MS));
    if (ticket.cancelled) return;
    broken = await resumeStream(link, cursor, ticket, deliver);
  }
}

/** Streams events into `deliver`; returns the error that ended the stream, if any. */
export async function consumeStream(
  link: HttpLink,
  response: ExchangeResponse,
  cursor: SseCursor,
  deliver: (value: unknown) => void,
): Promise<unknown> {
  const reader = await openSseReader(link.maxMessageBytes, cursor, {
    message: deliver,
    parseError: (raw) => link.parseError(raw),
  });
  try {
    await response.consume(
      (chunk) => reader.push(chunk),
      () => link.paused,
    );
    return undefined;
  } catch (error) {
    response.discard();
    return error;
  }
}

async function resumeStream(link: HttpLink, cursor: SseCursor, ticket: Ticket, deliver: (value: unknown) => void): Promise<unknown> {
  try {
    const response = await sendFollowing(link.exchange, {
      method: "GET",
      url: link.url,
      headers: link.session.headers("get"),
      extra: { "last-event-id": cursor.lastEventId ?? "" },
      ticket,
    });
    if (response.status !== 200 || mediaType(response) !== "text/event-stream") return await failureOf(response, link.url);
    return await consumeStream(link, response, cursor, deliver);
  } catch (error) {
    return error;
  }
}

/**
 * What a log line says of a message the client sent: its method and id, never its body. The
 * body of a response may be a person's answer (an elicitation's form, a sampling result) and
 * a notification's params anything; a debug log is no place for them. Read back from the JSON
 * the transport sent, on the rare paths that log one, so that no send pays for it.
 */
function labelOf(body: string): { method?: string; id?: string } {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof message !== "object" || message === null) return {};
  const { method, id } = message as { method?: unknown; id?: unknown };
  const named: Record<string, unknown> = {};
  if (typeof method === "string") named.method = excerpt(method, 100);
  if (typeof id === "string" || typeof id === "number") named.id = excerpt(id, 100);
  return named;
}
