/**
 * The pages `conduit open` serves so that a person can use a server's app in their own browser:
 * the spec's two-origin arrangement on two loopback ports. The host page (one port) mounts the
 * app through the browser bridge; the sandbox proxy page (the other port, so another origin)
 * holds the app's frame. The app's session runs here, in `conduit`, with the terminal's consent:
 * the host page only carries messages, the view's to `POST send` and the session's to it over an
 * event stream.
 *
 * Nothing else may drive the session. Both servers listen on 127.0.0.1 only; every path starts
 * with a random token, printed to the person and nowhere else; a request whose `Host` is not the
 * server's own is refused (a page of another site that rebinds a name to 127.0.0.1 cannot read
 * or post), and so is a `POST` whose `Origin` is not the host page's. One page holds the event
 * stream at a time. `conduit` never opens a browser: it prints the URL.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";

export interface AppPagesOptions {
  /** The browser bridge, an ES module that exports `mountApp` (`conduit-mcp/apps-bridge`'s build). */
  bridgeScript: string;
  /** The sandbox proxy page's HTML for a host page of this origin. */
  sandboxPage: (hostOrigin: string) => string;
  /** The app as `readAppResource` gave it. */
  resource: { html: string; csp: string; allow: string };
  /** The page's title (the tool's name). */
  title: string;
  /** Each message the view sent (through the page), for its session. */
  receive: (message: unknown) => void;
  /** The most bytes one message from the page may have. */
  maxMessageBytes?: number;
}

export interface AppPages {
  /** The host page, token included: what the person opens. */
  readonly url: string;
  /** Sends a message to the view (through the page's event stream; held while no page holds it). */
  send(message: object): void;
  close(): Promise<void>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

export async function serveAppPages(options: AppPagesOptions): Promise<AppPages> {
  const http = (await import("node:http")).default;
  const token = randomBytes(18).toString("base64url");
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let hostOrigin = "";
  let sandboxOrigin = "";
  let stream: ServerResponse | undefined;
  // Messages the session sends before the page's stream opened (none should, as the view speaks
  // first) or while it reconnects: kept in order, bounded.
  const backlog: string[] = [];

  const send = (message: object): void => {
    const line = `data: ${JSON.stringify(message)}\n\n`;
    if (stream !== undefined) stream.write(line);
    else if (backlog.length < 1_000) backlog.push(line);
  };

  const host = http.createServer((req, res) => {
    const path = ownPath(req, res, hostOrigin, token);
    if (path === undefined) return;
    if (req.method === "GET" && path === "/") return page(res, hostPage(options.title, sandboxOrigin), hostPolicy(sandboxOrigin));
    if (req.method === "GET" && path === "/bridge.js") return script(res, options.bridgeScript);
    if (req.method === "GET" && path === "/host.js") return script(res, HOST_SCRIPT);
    if (req.method === "GET" && path === "/app.json") {
      return json(res, { sandboxUrl: `${sandboxOrigin}/${token}/sandbox`, resource: options.resource });
    }
    if (req.method === "GET" && path === "/events") {
      if (stream !== undefined) return refuse(res, 409, "another page holds this app");
      stream = res;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", "x-content-type-options": "nosniff" });
      res.write(": open\n\n");
      for (const line of backlog.splice(0)) res.write(line);
      req.on("close", () => {
        if (stream === res) stream = undefined;
      });
      return;
    }
    if (req.method === "POST" && path === "/send") {
      if (req.headers.origin !== hostOrigin) return refuse(res, 403, "not from the host page");
      if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) return refuse(res, 415, "JSON only");
      return readJson(req, res, limit, options.receive);
    }
    refuse(res, 404, "not here");
  });

  const sandbox = http.createServer((req, res) => {
    const path = ownPath(req, res, sandboxOrigin, token);
    if (path === undefined) return;
    if (req.method === "GET" && path === "/sandbox") return page(res, options.sandboxPage(hostOrigin), sandboxPolicy(hostOrigin));
    refuse(res, 404, "not here");
  });

  hostOrigin = `http://127.0.0.1:${await listen(host)}`;
  sandboxOrigin = `http://127.0.0.1:${await listen(sandbox)}`;
  return {
    url: `${hostOrigin}/${token}/`,
    send,
    close: async () => {
      stream?.end();
      await Promise.all([stop(host), stop(sandbox)]);
    },
  };
}

/**
 * The path after the token, or undefined when the request is not for this server: another
 * `Host` (DNS rebinding), no token or a wrong one (answered 404, as if nothing were here).
 */
function ownPath(req: IncomingMessage, res: ServerResponse, origin: string, token: string): string | undefined {
  if (`http://${req.headers.host ?? ""}` !== origin) {
    refuse(res, 421, "wrong host");
    return undefined;
  }
  const url = new URL(req.url ?? "/", origin);
  const prefix = `/${token}/`;
  if (!url.pathname.startsWith(prefix)) {
    refuse(res, 404, "not here");
    return undefined;
  }
  return `/${url.pathname.slice(prefix.length)}`;
}

/** The host page may run only its own scripts, talk only to itself, and frame only the sandbox. */
function hostPolicy(sandboxOrigin: string): string {
  return `default-src 'none'; script-src 'self'; connect-src 'self'; frame-src ${sandboxOrigin}; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/**
 * Only the host page may frame the sandbox page. Nothing more: the app's frame is a `srcdoc`
 * document of that page and inherits its policy on top of its own (which the bridge sets), so a
 * fetch directive here would block what the app declared.
 */
function sandboxPolicy(hostOrigin: string): string {
  return `frame-ancestors ${hostOrigin}`;
}

function hostPage(title: string, sandboxOrigin: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} — conduit</title>
<meta name="referrer" content="no-referrer">
<style>body{margin:0;font:14px system-ui,sans-serif}header{padding:6px 10px;border-bottom:1px solid #ccc}#app{width:100%}</style>
</head><body><header>${escapeHtml(title)} <small>(an app of an MCP server, shown by conduit; it runs in a frame of ${escapeHtml(sandboxOrigin)})</small></header>
<div id="app"></div><script type="module" src="host.js"></script></body></html>`;
}

/**
 * The host page's script: fetches the app, opens the stream and mounts the bridge. The view's
 * messages go out one at a time, in order (two fetches in flight may arrive in either order).
 */
const HOST_SCRIPT = `import { mountApp } from "./bridge.js";
const app = await (await fetch("app.json")).json();
let queue = Promise.resolve();
const post = (message) => {
  queue = queue.then(() => fetch("send", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(message) })).catch(() => {});
};
mountApp({
  container: document.getElementById("app"),
  sandboxUrl: app.sandboxUrl,
  resource: app.resource,
  connect: (send) => {
    const events = new EventSource("events");
    events.onmessage = (event) => send(JSON.parse(event.data));
    return { receive: post, teardown: async () => events.close() };
  },
});
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, html: string, policy: string): void {
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": policy,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  });
  res.end(html);
}

function script(res: ServerResponse, text: string): void {
  res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
  res.end(text);
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" });
  res.end(JSON.stringify(value));
}

function refuse(res: ServerResponse, status: number, why: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
  res.end(why);
}

/** Reads a bounded JSON body; a body too large or not JSON is refused, and nothing reaches the session. */
function readJson(req: IncomingMessage, res: ServerResponse, limit: number, deliver: (message: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      refuse(res, 413, "too large");
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (size > limit) return;
    let message: unknown;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return refuse(res, 400, "not JSON");
    }
    res.writeHead(204).end();
    deliver(message);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      // A socket error after listening (a page that resets) is not the person's problem.
      server.on("error", () => {});
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : 0);
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
