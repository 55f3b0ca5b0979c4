/**
 * One HTTP request and its streamed response, behind a small interface with two backends:
 * `node:http`/`node:https` with keep-alive agents (the default, and the faster), and any
 * injected `fetch` (other runtimes, tests, proxies).
 *
 * Neither backend follows a redirect on its own. `followRedirect` follows 307 and 308 (which
 * keep the method and the body) within the same origin only: a redirect elsewhere would carry
 * the host's headers, the session and the message to a server the host never named.
 */
import type http from "node:http";
import type https from "node:https";
import { ClientError } from "../util/errors.js";
import { redactUrl } from "../util/text.js";
import { delay } from "../util/time.js";

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

type HttpModule = typeof http | typeof https;

interface Loaded {
  module: HttpModule;
  agent: http.Agent;
}

/**
 * The keep-alive agents of one client, shared by all its HTTP connections: an idle connection
 * then holds only its own event stream, not a pooled socket of its own.
 * `node:http` and `node:https` are loaded when the first request needs them, so that
 * importing Conduit stays cheap (https brings TLS with it); after that no await is added per
 * request.
 */
export class HttpAgents {
  private http: Loaded | undefined;
  private https: Loaded | undefined;

  cached(secure: boolean): Loaded | undefined {
    return secure ? this.https : this.http;
  }

  async load(secure: boolean): Promise<Loaded> {
    const module: HttpModule = secure ? (await import("node:https")).default : (await import("node:http")).default;
    if (secure) this.https ??= { module, agent: new module.Agent({ keepAlive: true }) };
    else this.http ??= { module, agent: new module.Agent({ keepAlive: true }) };
    return (secure ? this.https : this.http)!;
  }

  /** The exchange over these agents: one object, shared by all the client's connections. */
  readonly exchange: Exchange = {
    send: async (request) => {
      const secure = request.url.protocol === "https:";
      const entry = this.cached(secure) ?? (await this.load(secure));
      return nodeSend(request, entry.module, entry.agent);
    },
  };

  /** Closes every pooled socket; the client does this when it closes. */
  destroy(): void {
    this.http?.agent.destroy();
    this.https?.agent.destroy();
  }
}

function nodeSend(request: ExchangeRequest, module: HttpModule, agent: http.Agent): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = request.extra === undefined ? { ...request.headers } : { ...request.headers, ...request.extra };
    if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
    nodeAttempt(request, module, agent, headers, resolve, reject);
  });
}

/** One try of `nodeSend`, over the pool (`agent`) or, sent again, on a socket of its own (`false`). */
function nodeAttempt(
  request: ExchangeRequest,
  module: HttpModule,
  agent: http.Agent | false,
  headers: http.OutgoingHttpHeaders,
  resolve: (response: ExchangeResponse) => void,
  reject: (error: unknown) => void,
): void {
  const req = module.request({ ...targetOf(request.url), method: request.method, headers, agent });
  const ticket = request.ticket;
  // Once the response came (its body's errors are `consume`'s) or the request went again, this
  // try has no more say; a later error of its own is ignored rather than left unheard.
  let over = false;
  req.on("error", (error) => {
    if (over) return;
    over = true;
    if (agent === false || !unsentOnStaleSocket(req, error, ticket)) return reject(error);
    if (ticket !== undefined) ticket.resentUnsent = true;
    nodeAttempt(request, module, false, headers, resolve, reject);
  });
  req.once("response", (res) => {
    over = true;
    ticket?.bind(() => {
      res.destroy();
      req.destroy();
    });
    resolve(nodeResponse(req, res));
  });
  ticket?.bind(() => req.destroy(new CancelledExchange()));
  req.end(request.body);
}

/**
 * Whether a request that failed may be sent again, once, on a new socket of its own. All of
 * these must hold:
 *
 * - its socket came from the keep-alive pool (`reusedSocket`): the server (or a proxy) closed it
 *   as the client took it, the classic race of keep-alive. A new socket that fails says
 *   something of the server, and another one would meet the same;
 * - the socket was reset (or the pipe broke) before any of the response came;
 * - the request was not all handed to the kernel (`writableFinished` is false): the server then
 *   cannot have received all of it, and with its `Content-Length` it cannot take a part for the
 *   whole, so it has not acted on it. A request that was all written may have been read and
 *   acted on: a server that read a `tools/call` and died looks the same, from here, as one that
 *   closed an idle socket. That request fails alone with its reason and is never sent again
 *   (a `tools/call` is not idempotent);
 * - the message was not given up, not answered meanwhile on another stream, and not sent again
 *   this way before (`Ticket.resentUnsent`: once per message, whatever path sends it).
 *
 * An injected `fetch` tells none of this (a `TypeError` whichever byte the socket broke at):
 * what it fails is never sent again.
 */
function unsentOnStaleSocket(req: http.ClientRequest, error: unknown, ticket: Ticket | undefined): boolean {
  if (!req.reusedSocket || req.writableFinished) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "ECONNRESET" && code !== "EPIPE") return false;
  return ticket === undefined || !(ticket.cancelled || ticket.answered || ticket.resentUnsent);
}

/** Node would turn a URL into these options on every request; one URL is reused for many. */
const targets = new WeakMap<URL, { protocol: string; hostname: string; port: string; path: string }>();

function targetOf(url: URL): { protocol: string; hostname: string; port: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    target = { protocol: url.protocol, hostname, port: url.port, path: `${url.pathname}${url.search}` };
    targets.set(url, target);
  }
  return target;
}

function nodeResponse(req: http.ClientRequest, res: http.IncomingMessage): ExchangeResponse {
  return {
    status: res.statusCode ?? 0,
    header: (name) => {
      const value = res.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    consume: (onChunk, paused) =>
      new Promise<void>((resolve, reject) => {
        // Cancelled before the body was asked for: no event would ever come.
        if (res.destroyed) return reject(new CancelledExchange());
        if (res.readableEnded) return resolve();
        // A throw from `onChunk` (an oversize event) must fail this promise: escaping a stream
        // listener, it would be an uncaught exception.
        res.on("data", (chunk: Buffer) => {
          try {
            onChunk(chunk);
          } catch (error) {
            reject(error);
            req.destroy();
            return;
          }
          const wait = paused?.();
          if (wait === undefined) return;
          res.pause();
          void wait.then(() => res.resume());
        });
        res.once("end", resolve);
        res.once("error", reject);
        res.once("aborted", () => reject(new Error("the response was aborted")));
        req.once("error", reject);
        res.once("close", () => {
          if (!res.complete) reject(new Error("the connection closed before the response ended"));
        });
      }),
    discard: () => {
      res.resume();
      if (!res.complete) req.destroy();
    },
  };
}

export function fetchExchange(fetchImpl: FetchLike): Exchange {
  return {
    send: async (request) => {
      const controller = request.ticket === undefined ? undefined : new AbortController();
      if (controller !== undefined) request.ticket!.bind(() => controller.abort(new CancelledExchange()));
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: request.extra === undefined ? request.headers : { ...request.headers, ...request.extra },
        body: request.body ?? null,
        signal: controller?.signal ?? null,
        redirect: "manual",
      });
      return fetchResponse(response);
    },
  };
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
    current = { ...current, url: target };
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
