/**
 * A loopback redirect listener (RFC 8252 §7.3) for hosts that run on the person's machine: an
 * HTTP server on `127.0.0.1` whose one path receives the authorization server's redirect. The
 * redirect is taken only with the `state` of the authorization it waits for; any other request
 * is answered 400 and the wait goes on. Conduit never opens a browser: `show` is the host's.
 */
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { MAX_TIMER_MS } from "../util/time.js";
import { authError } from "../auth/auth-error.js";
import type { AuthorizeCallback } from "../auth/options.js";

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
  if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) throw new InvalidArgumentError(`loopback timeoutMs must be between 1 and ${MAX_TIMER_MS} ms`);
  // Each authorization under way, by its state: several servers may be authorized at once.
  const waiting = new Map<string, (url: URL) => void>();
  // Loaded here: importing Conduit does not load node:http.
  const http = (await import("node:http")).default;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const resolve = url.pathname === path ? waiting.get(url.searchParams.get("state") ?? "") : undefined;
    if (resolve === undefined) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("This is not the authorization this client waits for.");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("Authorized. You may close this window.");
    resolve(new URL(`${redirectUri}${url.search}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  // A socket error after listening (a client that resets) is not the host's problem.
  server.on("error", () => {});
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  return {
    redirectUri,
    authorize: (show) => async (authorizationUrl, { signal }) => {
      const state = authorizationUrl.searchParams.get("state");
      if (state === null) throw authError("authorization", "the authorization URL carries no state");
      if (signal.aborted) throw authError("authorization", "the wait for the redirect was given up");
      // Ends on the redirect, the time bound, the signal, or `show` failing: each clears the
      // timer, the listener and the waiting entry, and settles `back` once.
      let fail: (error: ClientError) => void = () => {};
      const back = new Promise<URL>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          waiting.delete(state);
        };
        fail = (error) => {
          done();
          reject(error);
        };
        const onAbort = (): void => fail(authError("authorization", "the wait for the redirect was given up"));
        const timer = setTimeout(() => fail(authError("authorization", `no redirect came back within ${timeoutMs} ms`)), timeoutMs);
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(state, (url) => {
          done();
          resolve(url);
        });
      });
      try {
        await show(authorizationUrl);
      } catch (error) {
        fail(authError("authorization", `the host could not show the authorization URL: ${excerpt(messageOf(error), 200)}`));
      }
      return back;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
