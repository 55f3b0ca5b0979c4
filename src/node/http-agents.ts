/**
 * The `node:http`/`node:https` backend of the HTTP transports: keep-alive agents shared by all
 * of a client's connections, the default on Node for its speed. Reached only through the Node
 * entry, which installs it (`platform.ts`).
 */
import type http from "node:http";
import type https from "node:https";
import type { Socket } from "node:net";
import { CancelledExchange, type Exchange, type ExchangeRequest, type ExchangeResponse, type HttpBackend, type NetworkRoute, type Ticket } from "../transport/http-exchange.js";
import { ProxyError, parseProxy, proxyFromEnvironment, routeKey, tunnel, type ProxyEnvironment } from "./http-route.js";

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
/**
 * Every socket a burst opened stays pooled when it falls idle (Node's default keeps 256 per
 * host and closes the rest): with 10 000 calls in flight on one connection, each wave would
 * otherwise open ~10 000 new sockets and leave as many in TIME_WAIT, which exhausts the
 * ephemeral ports within a few waves. Idle ones end when the server closes them, or with the
 * client.
 *
 * The bound is set on the agent, not given among its options: Node spreads an agent's options
 * into the options of every request it takes (a dictionary-mode copy, some 2 000 instructions
 * a key), and the agent reads its bound from its own field.
 */
function pooledAgent(module: HttpModule, options: { ca?: string[] } = {}): http.Agent {
  const agent = new module.Agent({ keepAlive: true, ...options });
  agent.maxFreeSockets = Infinity;
  return agent;
}

/** How long a proxy may take to open a tunnel. */
const TUNNEL_TIMEOUT_MS = 30_000;

export class HttpAgents implements HttpBackend {
  private http: Loaded | undefined;
  private https: Loaded | undefined;
  /** The agents of the other ways to a server (a proxy, a socket, more CAs), one per way. */
  private readonly routes = new Map<string, Promise<Loaded>>();
  /** With a proxy in the environment, the way of each URL the default exchange met (a URL is reused per session). */
  private readonly viaEnvironment: WeakMap<URL, Promise<Loaded>> | undefined;

  /** `env`: the proxy variables, read once (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, either case). */
  private readonly env: ProxyEnvironment;

  constructor(env: ProxyEnvironment = {}) {
    // A copy: what the variables said when the client was made holds for its life.
    const names = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"];
    this.env = Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
    const proxied = names.slice(0, 4).some((name) => (this.env[name] ?? "") !== "");
    this.viaEnvironment = proxied ? new WeakMap() : undefined;
  }

  cached(secure: boolean): Loaded | undefined {
    return secure ? this.https : this.http;
  }

  async load(secure: boolean): Promise<Loaded> {
    const module: HttpModule = secure ? (await import("node:https")).default : (await import("node:http")).default;
    if (secure) this.https ??= { module, agent: pooledAgent(module) };
    else this.http ??= { module, agent: pooledAgent(module) };
    return (secure ? this.https : this.http)!;
  }

  /** The exchange over these agents: one object, shared by all the client's connections. */
  readonly exchange: Exchange = {
    send: (request) => {
      if (this.viaEnvironment !== undefined) return this.sendRouted(request, {}, this.viaEnvironment);
      const secure = request.url.protocol === "https:";
      const entry = this.cached(secure);
      // Once loaded, no await is added per request (an async wrapper costs a promise and a tick).
      if (entry !== undefined) return nodeSend(request, entry.module, entry.agent);
      return this.load(secure).then((loaded) => nodeSend(request, loaded.module, loaded.agent));
    },
  };

  /** The exchange of a target that names its way: a proxy (or none), a socket, more CAs. */
  routed(route: NetworkRoute): Exchange {
    const ways = new WeakMap<URL, Promise<Loaded>>();
    return { send: (request) => this.sendRouted(request, route, ways) };
  }

  private sendRouted(request: ExchangeRequest, route: NetworkRoute, ways: WeakMap<URL, Promise<Loaded>>): Promise<ExchangeResponse> {
    let way = ways.get(request.url);
    if (way === undefined) {
      way = this.wayTo(request.url, route);
      ways.set(request.url, way);
      // A way that could not be made (a bad proxy URL) is tried afresh by the next request.
      way.catch(() => ways.delete(request.url));
    }
    return way.then((loaded) => nodeSend(request, loaded.module, loaded.agent));
  }

  private wayTo(url: URL, route: NetworkRoute): Promise<Loaded> {
    const given = route.proxy === false ? undefined : (route.proxy ?? proxyFromEnvironment(url, this.env));
    const proxy = given === undefined ? undefined : parseProxy(given);
    if (given !== undefined && proxy === undefined) return Promise.reject(new ProxyError("the proxy is not an http: or https: URL with a host"));
    const secure = url.protocol === "https:";
    if (proxy === undefined && route.socketPath === undefined && route.ca === undefined) return this.load(secure);
    const key = `${secure ? "s" : ""}${routeKey(proxy, route)}`;
    let made = this.routes.get(key);
    if (made === undefined) {
      made = routeAgent(secure, proxy, route);
      this.routes.set(key, made);
      made.catch(() => this.routes.delete(key));
    }
    return made;
  }

  /** Closes every pooled socket; the client does this when it closes. */
  destroy(): void {
    this.http?.agent.destroy();
    this.https?.agent.destroy();
    for (const made of this.routes.values()) void made.then((loaded) => loaded.agent.destroy(), () => undefined);
    this.routes.clear();
  }
}

type Connected = (error: Error | null, socket?: Socket) => void;

/** A keep-alive agent whose sockets go `proxy`'s tunnel, or to `socketPath`, trusting `ca` too. */
async function routeAgent(secure: boolean, proxy: URL | undefined, route: NetworkRoute): Promise<Loaded> {
  const module: HttpModule = secure ? (await import("node:https")).default : (await import("node:http")).default;
  const tls = secure ? await import("node:tls") : undefined;
  const ca = route.ca === undefined || tls === undefined ? undefined : [...tls.rootCertificates, ...(await extraCertificates()), ...route.ca];
  const agent = pooledAgent(module, ca === undefined ? {} : { ca });
  if (proxy === undefined && route.socketPath === undefined) return { module, agent };
  const net = await import("node:net");
  const socketPath = route.socketPath;
  const open = (options: { host?: string; port?: number | string }): Promise<Socket> =>
    proxy !== undefined
      ? tunnel(proxy, { host: options.host ?? "localhost", port: Number(options.port ?? (secure ? 443 : 80)) }, { timeoutMs: TUNNEL_TIMEOUT_MS })
      : Promise.resolve(net.createConnection({ path: socketPath! }));
  // Node's agent takes a socket made later through this callback (`createConnection(options, cb)`).
  (agent as unknown as { createConnection: (options: Record<string, unknown>, done: Connected) => undefined }).createConnection = (options, done) => {
    open(options as { host?: string; port?: number }).then(
      (socket) => {
        if (tls === undefined) return done(null, socket);
        // TLS to the server inside the tunnel (or over the socket), with the agent's options: its name and CAs.
        const name = typeof options.servername === "string" ? options.servername : typeof options.host === "string" ? options.host : "localhost";
        const secured = tls.connect({ ...(options as object), socket, servername: name });
        done(null, secured);
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
    return undefined;
  };
  return { module, agent };
}

/** `NODE_EXTRA_CA_CERTS`, which Node adds to its defaults, and which a given `ca` would otherwise replace. */
async function extraCertificates(): Promise<string[]> {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === "") return [];
  try {
    return [await (await import("node:fs/promises")).readFile(file, "utf8")];
  } catch {
    // Node warned about it at start-up already.
    return [];
  }
}

function nodeSend(request: ExchangeRequest, module: HttpModule, agent: http.Agent): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    nodeAttempt(request, module, agent, headerList(request), resolve, reject);
  });
}

/**
 * The request's headers as the flat name/value list `node:http` takes as it is: given an object
 * instead, it calls `setHeader` for each (a lower-casing and a map entry apiece) before writing
 * them out. Names and values are still checked as they are written, and a bad one still throws.
 * The list of a request's shared headers is made once per headers object (they are frozen
 * per session and kind, `http-session.ts`); only this request's own are appended. A list has no
 * Host unless it names one, so it carries the URL's, as `node:http` would have added. Exported for
 * its unit test.
 */
export function headerList(request: ExchangeRequest): string[] {
  const headers = request.headers;
  const host = request.url.host;
  let shared = lists.get(headers);
  if (shared === undefined) {
    const entries: string[] = [];
    const names = new Set<string>();
    for (const name in headers) {
      entries.push(name, headers[name]!);
      names.add(name);
    }
    shared = { names, entries, host, list: names.has("host") ? entries : ["host", host, ...entries] };
    lists.set(headers, shared);
  }
  // One URL is the rule for a headers object; another (a redirect's) makes its list afresh.
  const list = shared.host === host || shared.names.has("host") ? shared.list.slice() : ["host", host, ...shared.entries];
  const extra = request.extra;
  if (extra !== undefined) for (const name in extra) put(list, shared.names, name, extra[name]!);
  if (request.body !== undefined) put(list, shared.names, "content-length", String(Buffer.byteLength(request.body)));
  return list;
}

/** A request's own header replaces a shared one of its name, as it did in a merged object. */
function put(list: string[], shared: ReadonlySet<string>, name: string, value: string): void {
  if (!shared.has(name)) {
    list.push(name, value);
    return;
  }
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === name) {
      list[i + 1] = value;
      return;
    }
  }
}

/**
 * The shared part of the lists of one headers object: its names (a Set: `in` on the frozen
 * object was a megamorphic lookup apiece), its entries, and the list made for `host`.
 */
interface SharedHeaders {
  readonly names: ReadonlySet<string>;
  readonly entries: readonly string[];
  readonly host: string;
  readonly list: readonly string[];
}

const lists = new WeakMap<Readonly<Record<string, string>>, SharedHeaders>();

/** One try of `nodeSend`, over the pool (`agent`) or, sent again, on a socket of its own (`false`). */
function nodeAttempt(
  request: ExchangeRequest,
  module: HttpModule,
  agent: http.Agent | false,
  headers: string[],
  resolve: (response: ExchangeResponse) => void,
  reject: (error: unknown) => void,
): void {
  // A literal of one shape, not `{ ...target, method }`: in V8 a field after a spread gives every
  // request's options a map of its own (see `withField` in util/sanitize.ts).
  const target = targetOf(request.url);
  // No `protocol`: the module and its agent are the URL's scheme's, and each key given here is
  // copied again by the agent (see pooledAgent).
  const req = module.request({ hostname: target.hostname, port: target.port, path: target.path, method: request.method, headers, agent });
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
  // `on`, not `once`, here and in `consume`: each event comes at most once, or settles what is
  // settled already, and a `once` costs a wrapper and a bound function (some 110 bytes) each,
  // kept for as long as a stream stays open.
  req.on("response", (res) => {
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
const targets = new WeakMap<URL, { hostname: string; port: string; path: string }>();

function targetOf(url: URL): { hostname: string; port: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    target = { hostname, port: url.port, path: `${url.pathname}${url.search}` };
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
        res.on("end", resolve);
        res.on("error", reject);
        res.on("aborted", () => reject(new Error("the response was aborted")));
        req.on("error", reject);
        res.on("close", () => {
          if (!res.complete) reject(new Error("the connection closed before the response ended"));
        });
      }),
    discard: () => {
      res.resume();
      if (!res.complete) req.destroy();
    },
  };
}
