/**
 * A POST the server turned away without taking it: 429 Too Many Requests (RFC 6585 §4) and 503
 * Service Unavailable (RFC 9110 §15.6.4) both say the server did not handle the request, and a
 * `Retry-After` (RFC 9110 §10.2.3: a number of seconds or an HTTP-date) says when to come back.
 * Such a POST is sent again, the same body and headers, after that delay, within bounds:
 *
 * - the delay is at most `MAX_RETRY_AFTER_MS`: a server that asks for longer is not waited for;
 * - the delay fits in what is left of the request's time (its timeout, or the bound of a
 *   notification's POST): a wait that would outlast it only turns a clear refusal into a timeout;
 * - at most `MAX_RETRIES` times for one message, whatever path sends it again;
 * - never once the request was answered meanwhile (over HTTP+SSE, answers come on another stream).
 *
 * Without a usable `Retry-After` the POST fails at once: any wait would be a guess, and a retry
 * at once only adds to the load of a server that just said it has too much; the host decides.
 * No other status is retried: the server may have acted on the message.
 */
import { ClientError } from "../util/errors.js";
import { now } from "../util/time.js";
import { failureOf } from "./http-body.js";
import { CancelledExchange, sendFollowing, type Exchange, type ExchangeRequest, type ExchangeResponse, type Ticket } from "./http-exchange.js";

/** The longest `Retry-After` a retry waits for. */
export const MAX_RETRY_AFTER_MS = 10_000;
/** How many times one message is sent again. */
export const MAX_RETRIES = 3;

/** Whether a status says the server turned the request away unread (then `sendAgain` it). */
export function turnedAway(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * What `request` leads to after `response`, a 429 or 503: sent again after its `Retry-After`
 * (redirects followed as `sendFollowing` does) within the bounds above, or the `ClientError`
 * naming the status and the delay. Callers test `turnedAway` first, so that a plain reply costs
 * nothing more.
 */
export async function sendAgain(exchange: Exchange, request: ExchangeRequest, response: ExchangeResponse, ticket: Ticket): Promise<ExchangeResponse> {
  while (turnedAway(response.status)) {
    const wait = retryAfterMs(response);
    const why = refusal(wait, ticket.retries, ticket.until - now());
    if (why !== undefined) throw await notRetried(response, request.url, why, wait);
    response.discard();
    await ticket.sleep(wait!);
    // Given up while it waited (a timeout, a close), or answered meanwhile on another stream
    // (a request already handled must not run twice): not sent again.
    if (ticket.cancelled || ticket.answered) throw new CancelledExchange();
    ticket.retries += 1;
    response = await sendFollowing(exchange, request);
  }
  return response;
}

/** Why the POST is not sent again, or undefined when it is. */
function refusal(wait: number | undefined, retries: number, left: number): string | undefined {
  if (wait === undefined) return "no usable Retry-After: not sent again";
  if (retries >= MAX_RETRIES) return `the same after ${MAX_RETRIES} retries: not sent again`;
  if (wait > MAX_RETRY_AFTER_MS) return `Retry-After ${seconds(wait)} is more than the ${seconds(MAX_RETRY_AFTER_MS)} a retry waits: not sent again`;
  if (wait > left) return `Retry-After ${seconds(wait)} is more than the ${Math.max(0, Math.floor(left))} ms left for the request: not sent again`;
  return undefined;
}

async function notRetried(response: ExchangeResponse, url: URL, why: string, wait: number | undefined): Promise<ClientError> {
  const failure = await failureOf(response, url);
  const data = failure.kind === "rpc" ? failure.data : { status: response.status, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
  return new ClientError(failure.kind, `${failure.message}; ${why}`, { code: failure.code, data, cause: failure.cause });
}

/**
 * The delay a `Retry-After` asks for, in ms; undefined when there is none or it is neither form.
 * An HTTP-date is measured against the response's own `Date` when it has one (the server's
 * clock, so that a skew between the two clocks does not change the wait), else against the wall
 * clock: a date can only be compared with a date. The wait itself runs on the monotonic one.
 */
export function retryAfterMs(response: ExchangeResponse): number | undefined {
  const value = response.header("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = httpDate(value);
  if (at === undefined) return undefined;
  const sent = httpDate(response.header("date")?.trim() ?? "");
  return Math.max(0, at - (sent ?? Date.now()));
}

/** The three forms of RFC 9110 §5.6.7, all in GMT; `Date.parse` alone takes "-1" or "1.5" for dates. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

function httpDate(value: string): number | undefined {
  // asctime names no zone, and `Date.parse` would read it as local time.
  const text = IMF_FIXDATE.test(value) || RFC_850.test(value) ? value : ASCTIME.test(value) ? `${value} GMT` : undefined;
  if (text === undefined) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}
