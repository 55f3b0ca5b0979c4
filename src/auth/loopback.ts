/**
 * A loopback redirect listener (RFC 8252 §7.3) for hosts that run on the person's machine: an
 * HTTP server on `127.0.0.1` whose one path receives the authorization server's redirect. The
 * redirect is taken only with the `state` of the authorization it waits for; any other request
 * is answered 400 and the wait goes on. Conduit never opens a browser: `show` is the host's.
 */
import { authError } from "./discovery.js";
import type { AuthorizeCallback } from "./options.js";

export interface LoopbackRedirect {
  /** The `redirectUri` to register (`http://127.0.0.1:<port><path>`). */
  readonly redirectUri: string;
  /** An `authorize` callback: `show` presents the URL; resolves with the redirect that came back. */
  authorize(show: (url: URL) => void | Promise<void>): AuthorizeCallback;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `/callback`. */
  path?: string;
  /** How long one authorization may wait for the person (default 5 minutes). */
  timeoutMs?: number;
}

export async function loopbackRedirect(options: LoopbackOptions = {}): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const timeoutMs = options.timeoutMs ?? 300_000;
  let waiting: { state: string; resolve: (url: URL) => void } | undefined;
  // Loaded here: importing Conduit does not load node:http.
  const http = (await import("node:http")).default;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== path || waiting === undefined || url.searchParams.get("state") !== waiting.state) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("This is not the authorization this client waits for.");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("Authorized. You may close this window.");
    const { resolve } = waiting;
    waiting = undefined;
    resolve(new URL(`${redirectUri}${url.search}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  return {
    redirectUri,
    authorize: (show) => async (authorizationUrl) => {
      const state = authorizationUrl.searchParams.get("state");
      if (state === null) throw authError("authorization", "the authorization URL carries no state");
      const back = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(authError("authorization", `no redirect came back within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = {
          state,
          resolve: (url) => {
            clearTimeout(timer);
            resolve(url);
          },
        };
      });
      await show(authorizationUrl);
      return back;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
