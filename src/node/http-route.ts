/**
 * How a request of the `node:http` backend reaches its server when not straight over TCP: through
 * an HTTP proxy (a CONNECT tunnel, for `http:` and `https:` servers alike), over a Unix domain
 * socket, or trusting more certificate authorities. One keep-alive agent per way (`routeKey`), so
 * that sockets of different ways never mix in one pool.
 *
 * The proxy comes from the target's `proxy`, or else from the environment as curl and most tools
 * read it: `HTTPS_PROXY` for `https:` URLs, `HTTP_PROXY` for `http:` ones (each in lower case
 * too, the lower case first), unless `NO_PROXY` names the host. A proxy URL's credentials are
 * sent as `Proxy-Authorization: Basic` on the CONNECT and never appear in an error or a log: a
 * proxy is always named by its origin alone.
 */
import type http from "node:http";
import type { Socket } from "node:net";

import type { NetworkRoute } from "../transport/http-exchange.js";

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** The proxy of `url` by the environment's variables, or undefined when it goes direct. */
export function proxyFromEnvironment(url: URL, env: ProxyEnvironment): string | undefined {
  const name = url.protocol === "https:" ? "https_proxy" : url.protocol === "http:" ? "http_proxy" : undefined;
  if (name === undefined) return undefined;
  const proxy = env[name] ?? env[name.toUpperCase()];
  if (proxy === undefined || proxy === "") return undefined;
  const noProxy = env.no_proxy ?? env.NO_PROXY;
  if (noProxy !== undefined && bypasses(url, noProxy)) return undefined;
  return proxy;
}

/**
 * Whether `NO_PROXY` names the URL's host: `*` names every host; an entry names its host and the
 * host's subdomains (`example.com` and `.example.com` both name `api.example.com`); an entry
 * with a port names that port alone; IP addresses match as written (no ranges).
 */
export function bypasses(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed !== null) {
      entry = bracketed[1]!;
      entryPort = bracketed[2];
    } else {
      const colon = entry.lastIndexOf(":");
      // host:port, but not an IPv6 address written bare.
      if (colon > 0 && entry.indexOf(":") === colon && /^\d+$/.test(entry.slice(colon + 1))) {
        entryPort = entry.slice(colon + 1);
        entry = entry.slice(0, colon);
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    entry = entry.replace(/^\*?\./, "");
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** A proxy named for messages: its origin, never its credentials. */
export function proxyName(proxy: URL): string {
  return proxy.origin;
}

/** Checks a proxy URL as given: http: or https:, with a host. */
export function parseProxy(proxy: string): URL | undefined {
  if (!URL.canParse(proxy)) return undefined;
  const url = new URL(proxy);
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return undefined;
  return url;
}

/** The one key of a way to reach servers: same key, same pool. */
export function routeKey(proxy: URL | undefined, route: NetworkRoute): string {
  return JSON.stringify([proxy?.href ?? "", route.socketPath ?? "", route.ca ?? []]);
}

interface Endpoint {
  host: string;
  port: number;
}

/**
 * Opens a tunnel to `target` through `proxy` (HTTP CONNECT); resolves with the socket once the
 * proxy answered 200. What fails names the proxy by its origin and the target.
 */
export async function tunnel(proxy: URL, target: Endpoint, bound: { timeoutMs: number }): Promise<Socket> {
  const module = proxy.protocol === "https:" ? (await import("node:https")).default : (await import("node:http")).default;
  const authority = `${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username !== "" || proxy.password !== "") {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers["proxy-authorization"] = `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;
  }
  return new Promise<Socket>((resolve, reject) => {
    const request: http.ClientRequest = module.request({
      host: proxy.hostname.replace(/^\[|\]$/g, ""),
      port: proxy.port === "" ? (proxy.protocol === "https:" ? 443 : 80) : Number(proxy.port),
      method: "CONNECT",
      path: authority,
      headers,
      agent: false,
      timeout: bound.timeoutMs,
    });
    request.on("connect", (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new ProxyError(`the proxy ${proxyName(proxy)} refused the tunnel to ${authority} (HTTP ${response.statusCode ?? 0})`));
    });
    request.on("timeout", () => request.destroy(new ProxyError(`the proxy ${proxyName(proxy)} did not open the tunnel to ${authority} within ${bound.timeoutMs} ms`)));
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof ProxyError) return reject(error);
      // The proxy's own failure, with its code kept (ECONNREFUSED is "unreachable" to the transport), its URL not.
      const failure = new ProxyError(`the proxy ${proxyName(proxy)} could not be reached${error.code === undefined ? "" : ` (${error.code})`}`);
      failure.code = error.code;
      reject(failure);
    });
    request.end();
  });
}

export class ProxyError extends Error {
  code: string | undefined;
  override name = "ProxyError";
}
