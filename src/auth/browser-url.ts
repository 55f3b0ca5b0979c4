/**
 * The checks of the browser's authorize helpers, before anything is opened or navigated: the
 * authorization URL is `https`, or `http` on loopback when the MCP server is on loopback too
 * (a page talking to a server on the person's machine); nothing else, so never `javascript:`,
 * `data:`, `blob:` or `file:` (a server-supplied `javascript:` URL opened in a popup runs in the
 * page's origin). The code flow checks the same URL by the URL policy before it calls
 * `authorize`; this check is the helpers' own, for a host that calls them some other way.
 * And the callback page must be on the page's own origin: the redirect comes back over the
 * origin's BroadcastChannel and storage, which no other origin shares.
 */
import { knownKeys } from "../util/arguments.js";
import { InvalidArgumentError } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { MAX_TIMER_MS } from "../util/time.js";
import { authError } from "./auth-error.js";
import { checkPrefix, page, type Page } from "./browser-channel.js";
import { localityOf } from "./url-policy.js";

import { DEFAULT_AUTHORIZE_TIMEOUT_MS } from "./options.js";

export { DEFAULT_AUTHORIZE_TIMEOUT_MS };

/** The authorization URL, parsed and checked; an `"auth"` error (step authorization) naming only its scheme and host. */
export function vetAuthorizationUrl(given: URL | string, serverUrl: URL | undefined): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw authError("authorization", "the authorization URL is not a URL");
  }
  if (url.protocol === "https:" && url.username === "" && url.password === "") return url;
  if (url.protocol === "http:" && url.username === "" && url.password === "" && localityOf(url.hostname) === "loopback") {
    if (serverUrl !== undefined && localityOf(serverUrl.hostname) === "loopback") return url;
    throw authError("authorization", `the authorization URL is plain http on loopback (${where(url)}), and the MCP server is not on loopback: not opened`);
  }
  const shown = url.protocol === "http:" || url.protocol === "https:" ? where(url) : `a ${excerpt(url.protocol, 40)} URL`;
  throw authError("authorization", `the authorization URL must be https (or http on loopback for a server on loopback), not ${shown}: not opened`);
}

/** The callback page's URL, on `origin`. */
export function checkRedirectUri(what: string, redirectUri: unknown, origin: string): URL {
  if (typeof redirectUri !== "string") throw new InvalidArgumentError(`${what} needs \`redirectUri\`, the URL of the callback page`);
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw new InvalidArgumentError(`${what}'s \`redirectUri\` is not a URL`);
  }
  if (url.origin !== origin) throw new InvalidArgumentError(`${what}'s \`redirectUri\` must be on this page's origin (${origin}), where the callback page can reach it`);
  return url;
}

export function checkTimeout(what: string, timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_AUTHORIZE_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new InvalidArgumentError(`${what}'s \`timeoutMs\` must be between 1 and ${MAX_TIMER_MS} ms`);
  }
  return timeoutMs;
}

/** What both authorize helpers check of their options first: their keys, the page, the callback URL, the wait, the prefix. */
export function helperOptions(what: string, options: unknown, keys: ReadonlySet<string>): { win: Page; redirect: URL; timeoutMs: number; prefix: string } {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError(`${what} needs its options`);
  knownKeys(`${what}'s options`, options, keys);
  const given = options as { redirectUri?: unknown; timeoutMs?: unknown; prefix?: unknown };
  const win = page(what);
  return { win, redirect: checkRedirectUri(what, given.redirectUri, win.location.origin), timeoutMs: checkTimeout(what, given.timeoutMs), prefix: checkPrefix(what, given.prefix) };
}

/** Where a URL leads, without its query (the flow's parameters) or anything after. */
function where(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
