/**
 * One HTTP request and its streamed response, behind a small interface with two backends:
 * `node:http`/`node:https` with keep-alive agents (the default: a loop on it runs about 2.5×
 * as many requests per second as one on `fetch`), and any injected `fetch` (other runtimes,
 * tests, proxies).
 */
import type http from "node:http";
import type https from "node:https";

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
 * The way to call off one exchange. An AbortController would do, but on Node 20 one costs a
 * few microseconds and about 2 KiB for as long as the request lives; every POST had one, and
 * every idle connection's event stream.
 */
export class Ticket {
  cancelled = false;
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

  /** Waits `ms`; a cancel ends the wait at once. */
  sleep(ms: number): Promise<void> {
    if (this.cancelled) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onCancel = undefined;
        resolve();
      }, ms);
      this.onCancel = () => {
        clearTimeout(timer);
        resolve();
      };
    });
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
  /** Streams the body to `onChunk`; settles when it ends, fails, or the request is aborted. */
  consume(onChunk: (chunk: Uint8Array) => void): Promise<void>;
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
 * then holds only its own event stream, not a pooled socket of its own (about 20 KiB each).
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
    const req = module.request({ ...targetOf(request.url), method: request.method, headers, agent });
    const ticket = request.ticket;
    req.once("error", reject);
    req.once("response", (res) => {
      ticket?.bind(() => {
        res.destroy();
        req.destroy();
      });
      resolve(nodeResponse(req, res));
    });
    ticket?.bind(() => req.destroy(new CancelledExchange()));
    req.end(request.body);
  });
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
    consume: (onChunk) =>
      new Promise<void>((resolve, reject) => {
        // A throw from `onChunk` (an oversize event) must fail this promise: escaping a stream
        // listener, it would be an uncaught exception.
        res.on("data", (chunk: Buffer) => {
          try {
            onChunk(chunk);
          } catch (error) {
            reject(error);
            req.destroy();
          }
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
    consume: async (onChunk) => {
      if (response.body === null) return;
      reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        onChunk(value);
      }
    },
    // Once `consume` holds the body's lock only its reader can cancel it: the body itself refuses.
    discard: () => {
      (reader ?? response.body)?.cancel().catch(() => {});
    },
  };
}
