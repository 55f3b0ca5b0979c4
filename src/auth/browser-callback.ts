/**
 * What a host runs on its callback page (the `redirectUri`), where the authorization server
 * sends the browser back with `code` and `state` (or `error`): `completeAuthorization()` hands
 * the redirect to the flow that waits for it and leaves.
 *
 * - A full-page flow of this tab (`browserRedirect`, its `state` kept in sessionStorage): the
 *   redirect is kept for it, and the tab goes back to the page the flow left from, which
 *   finishes the flow when it connects again.
 * - Otherwise, a popup (`browserPopup`): the redirect goes to the origin's BroadcastChannel and,
 *   when a popup flow of the origin waits for this `state`, to localStorage too (for an opener
 *   that misses the message); the code is taken off the page's URL and the popup closes itself.
 *   A `state` no flow waits for is still announced, without the storage copy: the flow waiting
 *   refuses it, instead of waiting for ever.
 *
 * Nothing here checks `state` against a secret or redeems anything: the flow does, in the page
 * that started it.
 */
import { knownKeys } from "../util/arguments.js";
import { InvalidArgumentError } from "../util/errors.js";
import { checkPrefix, openChannel, page, quietly, readRecord, storageOf, type CallbackMessage } from "./browser-channel.js";

export interface CompleteAuthorizationOptions {
  /** The storage keys' and channel's prefix the authorize helper was given (default `conduit-oauth:`). */
  prefix?: string | undefined;
}

/**
 * What the callback page did: `"redirect"` (going back to the page of a full-page flow),
 * `"popup"` (handed to a popup flow; the popup closes), `"unknown"` (no flow waits for this
 * `state`: the page may say so, in case it is still open).
 */
export type CallbackOutcome = "redirect" | "popup" | "unknown";

const OPTION_KEYS: ReadonlySet<string> = new Set(["prefix"]);

export function completeAuthorization(options: CompleteAuthorizationOptions = {}): CallbackOutcome {
  const what = "completeAuthorization";
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError(`${what}'s options must be an object`);
  knownKeys(`${what}'s options`, options, OPTION_KEYS);
  const prefix = checkPrefix(what, options.prefix);
  const win = page(what);
  const here = new URL(win.location.href);
  const state = here.searchParams.get("state") ?? "";

  const session = storageOf("sessionStorage");
  const redirect = state === "" ? undefined : readRecord(session, `${prefix}redirect:${state}`);
  const returnTo = typeof redirect?.returnTo === "string" ? sameOrigin(redirect.returnTo, here.origin) : undefined;
  const kept = returnTo !== undefined && session !== undefined && quietly(() => (session.setItem(`${prefix}returned:${state}`, here.href), true)) === true;
  if (kept) {
    win.location.replace(returnTo);
    return "redirect";
  }

  const local = storageOf("localStorage");
  const pending = state !== "" && quietly(() => local?.getItem(`${prefix}popup:${state}`)) != null;
  if (pending) quietly(() => local?.setItem(`${prefix}callback:${state}`, JSON.stringify({ url: here.href, at: Date.now() })));
  const channel = openChannel(prefix);
  if (channel !== undefined) {
    const message: CallbackMessage = { type: "conduit-oauth-callback", state, url: here.href, pending };
    quietly(() => channel.postMessage(message));
    channel.close();
  }
  // The code is not left in the popup's history, nor on screen if it stays open.
  quietly(() => win.history?.replaceState(null, "", here.pathname));
  quietly(() => win.close());
  return pending ? "popup" : "unknown";
}

function sameOrigin(text: string, origin: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin === origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}
