/**
 * One HTTP request and its streamed response, behind a small interface with two backends:
 * `node:http`/`node:https` with keep-alive agents (the default on Node, and the faster; it lives
 * behind the Node entry, `node/http-agents.ts`), and `fetch` (the runtime's own elsewhere, or one
 * injected: tests, proxies).
 *
 * Neither backend follows a redirect on its own. `followRedirect` follows 307 and 308 (which
 * keep the method and the body) within the same origin only: a redirect elsewhere would carry
 * the host's headers, the session and the message to a server the host never named.
 */
import { ClientError } from "../util/errors.js";
import { copyOwn, withField } from "../util/sanitize.js";
import { redactUrl } from "../util/text.js";
import { delay } from "../util/time.js";
import { corsError, mayBeCors, pageOrigin, probe } from "./fetch-errors.js";

export interface ExchangeRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  headers: Readonly<Record<string, string>>;
  /** More headers for this request alone, lower-case names (merged in the one copy made anyway). */
  extra?: Readonly<Record<string, string>> | undefined;
  body?: string | undefined;
  /** Cancels the exchange, before or after its response arrived. */
  ticket?: Ticket | undefined;
}

/**
 * The way to call off one exchange: lighter than an AbortController, which every POST and
 * every idle connection's event stream would otherwise hold for as long as it lives.
 */
export class Ticket {
  cancelled = false;
  /**
   * When the sender stops waiting for the exchange, on the `now()` clock (Infinity: not known).
   * A wait the transport would add (a server's `Retry-After`) that ends later is not begun.
   */
  until = Infinity;
  /** The request was answered (on some stream) while its POST was still under way: never sent again. */
  answered = false;
  /** How many times the message was sent again (`http-retry.ts`), over every path that resends it. */
  retries = 0;
  /** The message was sent again after a stale keep-alive socket broke under it unsent (`nodeSend`). */
  resentUnsent = false;
  private onCancel: (() => void) | undefined;

  /** @internal The backend says how to stop what is under way now. */
  bind(stop: () => void): void {
    if (this.cancelled) stop();
    else this.onCancel = stop;
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const stop = this.onCancel;
    this.onCancel = undefined;
    stop?.();
  }

  /** Waits `ms` between exchanges; a cancel ends the wait at once (and resolves it). */
  async sleep(ms: number): Promise<void> {
    if (this.cancelled) return;
    const controller = new AbortController();
    this.onCancel = () => controller.abort();
    await delay(ms, controller.signal).catch(() => {});
    this.onCancel = undefined;
  }
}

export class CancelledExchange extends Error {
  constructor() {
    super("the exchange was cancelled");
  }
}

export interface ExchangeResponse {
  readonly status: number;
  header(name: string): string | undefined;
  /**
   * Streams the body to `onChunk`; settles when it ends, fails, or the request is aborted. After
   * each chunk, while `paused()` gives a promise, nothing more is read until it settles (the
   * bytes stay with the socket, and the server's writes wait).
   */
  consume(onChunk: (chunk: Uint8Array) => void, paused?: () => Promise<void> | undefined): Promise<void>;
  /** Drops the body unread and frees the connection. */
  discard(): void;
}

export interface Exchange {
  send(request: ExchangeRequest): Promise<ExchangeResponse>;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A client's default way to send: one exchange shared by all its HTTP connections, freed when
 * the client closes. On Node, keep-alive `node:http` agents (`node/http-agents.ts`); elsewhere
 * the runtime's `fetch`.
 */
/** A target's own way to its server (the Node backend alone has one): a proxy, a Unix socket, more CAs. */
export interface NetworkRoute {
  /** An HTTP proxy's URL; `false`: none, whatever the environment says. */
  readonly proxy?: string | false | undefined;
  /** More certificate authorities to trust (PEM). */
  readonly ca?: readonly string[] | undefined;
  /** A Unix domain socket to reach the server on. */
  readonly socketPath?: string | undefined;
}

export interface HttpBackend {
  readonly exchange: Exchange;
  /** The exchange with another credentials mode than `"same-origin"`, for a backend on `fetch`. */
  credentialed?(credentials: Credentials): Exchange;
  /** The exchange over a target's own way; absent where the runtime has no such control (`fetch`). */
  routed?(route: NetworkRoute): Exchange;
  destroy(): void;
}

/** How a `fetch` sends cookies and HTTP authentication of the browser's (Fetch, "credentials mode"). */
export type Credentials = "omit" | "same-origin" | "include";

/** The backend of a runtime without one of its own: `fetch`, looked up at each request. */
export function fetchBackend(): HttpBackend {
  const send: FetchLike = (input, init) => fetch(input, init);
  const exchanges = new Map<Credentials, Exchange>([["same-origin", fetchExchange(send)]]);
  return {
    exchange: exchanges.get("same-origin")!,
    credentialed: (credentials) => {
      let exchange = exchanges.get(credentials);
      if (exchange === undefined) exchanges.set(credentials, (exchange = fetchExchange(send, credentials)));
      return exchange;
    },
    destroy: () => {},
  };
}

/**
 * The `fetch` backend. In a page, a request the browser refuses for CORS becomes a
 * `"transport"` error that names what the server must allow (`fetch-errors.ts`), and a redirect
 * (which `redirect: "manual"` leaves opaque there) is refused.
 */
export function fetchExchange(fetchImpl: FetchLike, credentials: Credentials = "same-origin"): Exchange {
  const origin = pageOrigin();
  return {
    send: async (request) => {
      const controller = request.ticket === undefined ? undefined : new AbortController();
      if (controller !== undefined) request.ticket!.bind(() => controller.abort(new CancelledExchange()));
      const headers = request.extra === undefined ? request.headers : (copyOwn(request.extra, copyOwn(request.headers, {})) as Record<string, string>);
      let response: Response;
      try {
        response = await fetchImpl(request.url, {
          method: request.method,
          headers,
          body: request.body ?? null,
          signal: controller?.signal ?? null,
          redirect: "manual",
          credentials,
        });
      } catch (error) {
        if (request.ticket?.cancelled === true || !mayBeCors(error, request.url, origin)) throw error;
        const found = await probe(fetchImpl, request.url, controller?.signal);
        // A modern request (it names its method in a header) has no session to read.
        throw corsError({ method: request.method, url: request.url, headers }, origin, found, "mcp-method" in headers ? [] : ["Mcp-Session-Id"], error);
      }
      if (response.type === "opaqueredirect") throw opaqueRedirect(request);
      return fetchResponse(response);
    },
  };
}

/**
 * A browser keeps a redirect's status and Location from the page (`redirect: "manual"`): where
 * it leads cannot be checked against the origin, so it is never followed.
 */
function opaqueRedirect(request: ExchangeRequest): ClientError {
  return new ClientError(
    "transport",
    `${request.method} ${redactUrl(request.url)} answered with a redirect, which was not followed: the browser hides where it leads, and a request goes to no origin but the one the host named`,
    { data: { reason: "redirect" } },
  );
}

function fetchResponse(response: Response): ExchangeResponse {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    consume: async (onChunk, paused) => {
      if (response.body === null) return;
      reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        onChunk(value);
        const wait = paused?.();
        if (wait !== undefined) await wait;
      }
    },
    // Once `consume` holds the body's lock only its reader can cancel it: the body itself refuses.
    discard: () => {
      (reader ?? response.body)?.cancel().catch(() => {});
    },
  };
}

const MAX_REDIRECTS = 5;

/** Whether a response is a redirect (304 is not one: it answers a conditional request). */
export function isRedirect(status: number): boolean {
  return status >= 300 && status <= 399 && status !== 304;
}

/**
 * What `request` leads to after `response`, a redirect: 307 and 308 are followed within the
 * URL's origin (at most `MAX_REDIRECTS` in a row); any other redirect is a `"transport"` error
 * naming both URLs. Callers test `isRedirect` first, so that a plain reply costs nothing more.
 */
export async function followRedirect(exchange: Exchange, request: ExchangeRequest, response: ExchangeResponse): Promise<ExchangeResponse> {
  let current = request;
  for (let hops = 0; isRedirect(response.status); hops++) {
    response.discard();
    const location = response.header("location");
    const target = location === undefined ? undefined : safeUrl(location, current.url);
    const from = redactUrl(current.url);
    if (target === undefined) throw new ClientError("transport", `${from} answered HTTP ${response.status} without a usable Location`);
    if (target.origin !== current.url.origin) {
      throw new ClientError("transport", `${from} redirected to another origin (${redactUrl(target)}); not followed`);
    }
    if (response.status !== 307 && response.status !== 308) {
      throw new ClientError("transport", `${from} redirected with HTTP ${response.status}, which would change the request; not followed`);
    }
    if (hops >= MAX_REDIRECTS) throw new ClientError("transport", `${from}: more than ${MAX_REDIRECTS} redirects in a row`);
    current = withField(current, "url", target) as unknown as ExchangeRequest;
    response = await exchange.send(current);
  }
  return response;
}

/** Sends `request`, following redirects as `followRedirect` does. */
export async function sendFollowing(exchange: Exchange, request: ExchangeRequest): Promise<ExchangeResponse> {
  const response = await exchange.send(request);
  return isRedirect(response.status) ? followRedirect(exchange, request, response) : response;
}

function safeUrl(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
