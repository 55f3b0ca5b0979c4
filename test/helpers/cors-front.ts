// A CORS front for test servers: a node:http server on a loopback origin of its own that
// answers preflights by a policy the test sets and forwards everything else to a test server
// (an official-library server, a raw server), adding the CORS headers of that policy to each
// answer. A page on another origin reaches the server through it as it would a real
// cross-origin MCP server; a test refuses one header, one method or one origin by changing the
// policy (each change applies to the next request; preflights are not cached, max-age 0).
//
//   const front = await startCorsFront(server.url);        // front.url: the same path, here
//   front.policy.allowHeaders = ["content-type"];          // refuse every Mcp-* header
//   front.preflights;                                      // what the browser asked to send
import http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface CorsPolicy {
  /** Origins allowed: "*" (answered as "*"), or a list (the request's origin echoed when listed). */
  allowOrigins: "*" | string[];
  /** Request headers allowed (lowercase), or "*" to allow whatever a preflight asks. */
  allowHeaders: "*" | string[];
  /** Methods allowed beyond the simple ones (which a preflight never needs to list). */
  allowMethods: string[];
  /** Response headers a page may read (`Access-Control-Expose-Headers`). */
  exposeHeaders: string[];
  /** `Access-Control-Allow-Credentials: true` (then "*" origins are echoed, as browsers demand). */
  allowCredentials: boolean;
  /** The status of a preflight's answer (a server that answers OPTIONS with 401, say). */
  preflightStatus: number;
}

/** The policy of a well-configured MCP server: the headers of both eras, the session exposed. */
export function mcpPolicy(): CorsPolicy {
  return {
    allowOrigins: "*",
    allowHeaders: ["content-type", "accept", "authorization", "mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name", "last-event-id"],
    allowMethods: ["GET", "POST", "DELETE"],
    exposeHeaders: ["mcp-session-id", "www-authenticate"],
    allowCredentials: false,
    preflightStatus: 204,
  };
}

export interface SeenPreflight {
  path: string;
  origin: string | undefined;
  /** `Access-Control-Request-Method`. */
  method: string | undefined;
  /** `Access-Control-Request-Headers`, lowercase, in the order sent. */
  headers: string[];
  /** Whether the policy let it through. */
  allowed: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  origin: string | undefined;
  /** Lowercase names, as the browser sent them. */
  headers: Record<string, string>;
}

export interface CorsFront {
  /** The front's origin, `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** The target's URL with the front's origin (the same path and query). */
  readonly url: string;
  /** Mutable: a change applies to the next request. */
  policy: CorsPolicy;
  readonly preflights: SeenPreflight[];
  /** Every request that was not a preflight, forwarded or not. */
  readonly requests: SeenRequest[];
  /** This front's URL for another target path (`/other`), or a URL of another target origin. */
  urlFor(pathOrUrl: string): string;
  close(): Promise<void>;
}

/** Starts a front forwarding to `target`'s origin (any path) with `policy` (default mcpPolicy()). */
export async function startCorsFront(target: string, policy: Partial<CorsPolicy> = {}): Promise<CorsFront> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const preflights: SeenPreflight[] = [];
  const requests: SeenRequest[] = [];
  const front = {
    policy: { ...mcpPolicy(), ...policy },
    preflights,
    requests,
  };

  const server = http.createServer((req, res) => {
    try {
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) preflight(req, res, front.policy, preflights);
      else forward(req, res, front.policy, requests, upstream, agent);
    } catch (error) {
      // A listener must not throw: answer 502 and let the test see it as a failed request.
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`cors front: ${String(error)}`);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  return Object.assign(front, {
    origin,
    url: origin + upstream.pathname + upstream.search,
    urlFor: (pathOrUrl: string) => {
      const url = new URL(pathOrUrl, upstream);
      return url.origin === upstream.origin ? origin + url.pathname + url.search : url.href;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      })),
  });
}

function preflight(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy, seen: SeenPreflight[]): void {
  const origin = req.headers.origin;
  const method = req.headers["access-control-request-method"];
  const headers = (req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  const allowOrigin = allowedOrigin(policy, origin);
  const allowedHeaders = policy.allowHeaders === "*" ? headers : policy.allowHeaders;
  const simple = method === "GET" || method === "HEAD" || method === "POST";
  const allowed =
    allowOrigin !== undefined &&
    policy.preflightStatus >= 200 &&
    policy.preflightStatus < 300 &&
    (simple || policy.allowMethods.includes(method ?? "")) &&
    headers.every((name) => allowedHeaders.includes(name));
  seen.push({ path: req.url ?? "/", origin, method, headers, allowed });
  const answer: Record<string, string> = { "access-control-max-age": "0", vary: "origin" };
  if (allowOrigin !== undefined) answer["access-control-allow-origin"] = allowOrigin;
  if (policy.allowCredentials) answer["access-control-allow-credentials"] = "true";
  if (policy.allowMethods.length > 0) answer["access-control-allow-methods"] = policy.allowMethods.join(", ");
  if (allowedHeaders.length > 0) answer["access-control-allow-headers"] = allowedHeaders.join(", ");
  req.resume();
  res.writeHead(policy.preflightStatus, answer).end();
}

function forward(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy, seen: SeenRequest[], upstream: URL, agent: http.Agent): void {
  const origin = req.headers.origin;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  seen.push({ method: req.method ?? "GET", path: req.url ?? "/", origin, headers });
  const cors: Record<string, string> = { vary: "origin" };
  const allowOrigin = allowedOrigin(policy, origin);
  if (allowOrigin !== undefined) cors["access-control-allow-origin"] = allowOrigin;
  if (policy.allowCredentials) cors["access-control-allow-credentials"] = "true";
  if (policy.exposeHeaders.length > 0) cors["access-control-expose-headers"] = policy.exposeHeaders.join(", ");
  // The front is the server's edge: the server behind it sees its own host and no Origin (the
  // official library's DNS-rebinding check would refuse the page's origin as a foreign one).
  const sent: Record<string, string> = { ...headers, host: upstream.host };
  delete sent["origin"];
  delete sent["referer"];
  const request = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: sent, agent }, (answer) => {
    const back: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !name.startsWith("access-control-")) back[name] = value;
    res.writeHead(answer.statusCode ?? 502, { ...back, ...cors });
    res.flushHeaders();
    answer.pipe(res);
    answer.on("error", () => res.destroy());
  });
  request.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { ...cors, "content-type": "text/plain" }).end("cors front: the server is unreachable");
    else res.destroy();
  });
  // The page went away (an aborted fetch, a closed stream): so does the request behind it.
  res.on("close", () => {
    if (!res.writableFinished) request.destroy();
  });
  req.pipe(request);
}

function allowedOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (policy.allowOrigins === "*") return policy.allowCredentials ? origin : "*";
  return policy.allowOrigins.includes(origin) ? origin : undefined;
}
