/**
 * The `authorize` of a page that shows the authorization server in a popup: the URL vetted
 * (`browser-url.ts`), the popup opened on it, and the redirect its callback page reports
 * (`browser-callback.ts`) taken as the answer. The code flow then checks `state` and `iss` and
 * redeems the code, as for any other `authorize`.
 *
 * The redirect comes back over the origin's BroadcastChannel and, as a fallback, through
 * localStorage: a `storage` event, and a read now and then for the browsers that drop the event.
 * Neither needs `window.opener`, so a popup cut off from its opener by the authorization
 * server's Cross-Origin-Opener-Policy still completes. A message for another flow's `state` is
 * left to it; one whose `state` no flow of the origin waits for is handed to the code flow,
 * which refuses it ("auth"), rather than waiting out the timeout on a redirect that came back.
 *
 * A browser opens a window only on a click (or soon after one). Where it does not, `window.open`
 * gives null: without `onBlocked` the flow fails with an `"auth"` error whose `data.reason` is
 * `"popup_blocked"` (`isPopupBlocked`) and the host can offer a button that connects again;
 * with it, the flow waits on and `onBlocked` gets a `open()` for the host's button to call.
 *
 * Each wait ends on the redirect, on the timeout (10 minutes by default: a first consent takes
 * time), or on the connection's end (the context's signal), and closes the popup when it fails.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { authError } from "./auth-error.js";
import { isCallbackMessage, openChannel, quietly, readRecord, storageOf, type OpenedWindow, type StorageEventLike } from "./browser-channel.js";
import { helperOptions, vetAuthorizationUrl } from "./browser-url.js";
import type { AuthorizeCallback } from "./options.js";

export interface BrowserPopupOptions {
  /** The callback page (`completeAuthorization()` runs there), on this page's origin; registered with the authorization server. */
  redirectUri: string;
  /** How long the person may take (default 600 000 ms). */
  timeoutMs?: number | undefined;
  /** The `window.open` features (default a 500×700 popup). */
  features?: string | undefined;
  /** Called when the browser blocked the popup: the flow waits on, and `open()` (from a click) opens it. */
  onBlocked?: ((blocked: BlockedPopup) => void) | undefined;
  /** Of the storage keys and channel the callback page uses (default `conduit-oauth:`); the same as the callback's. */
  prefix?: string | undefined;
}

export interface BlockedPopup {
  /** The error the flow would have failed with (`isPopupBlocked(error)`). */
  readonly error: ClientError;
  /** Opens the popup; call it from a click. False when the browser blocked it again (or the flow has ended). */
  open(): boolean;
}

/** What goes into a server's `auth`: `{ ...browserPopup({ redirectUri }), store }`. */
export interface BrowserAuthorization {
  readonly redirectUri: string;
  readonly authorize: AuthorizeCallback;
}

/** How often the opener reads localStorage for a redirect whose `storage` event it may have missed. */
const POLL_MS = 1_000;

const DEFAULT_FEATURES = "popup=yes,width=500,height=700";

const OPTION_KEYS: ReadonlySet<string> = new Set(["redirectUri", "timeoutMs", "features", "onBlocked", "prefix"]);

/** The `reason` of a blocked popup's error. */
export const POPUP_BLOCKED = "popup_blocked";

/** Whether a connect failed because the browser blocked the authorization popup. */
export function isPopupBlocked(error: unknown): boolean {
  return error instanceof ClientError && error.kind === "auth" && (error.data as { reason?: unknown } | undefined)?.reason === POPUP_BLOCKED;
}

export function browserPopup(options: BrowserPopupOptions): BrowserAuthorization {
  const what = "browserPopup";
  const { win, redirect, timeoutMs, prefix } = helperOptions(what, options, OPTION_KEYS);
  const features = options.features ?? DEFAULT_FEATURES;
  if (typeof features !== "string") throw new InvalidArgumentError(`${what}'s \`features\` must be a string`);
  const onBlocked = options.onBlocked;
  if (onBlocked !== undefined && typeof onBlocked !== "function") throw new InvalidArgumentError(`${what}'s \`onBlocked\` must be a function`);

  const authorize = (given: URL, context: { signal: AbortSignal; serverUrl?: URL | undefined }): Promise<URL> => {
    const url = vetAuthorizationUrl(given, context.serverUrl);
    const state = url.searchParams.get("state");
    if (state === null || state === "") return Promise.reject(authError("authorization", "the authorization URL carries no state"));
    const signal = context.signal;
    if (signal.aborted) return Promise.reject(givenUp());
    return new Promise<URL>((resolve, reject) => {
      const local = storageOf("localStorage");
      const pendingKey = `${prefix}popup:${state}`;
      const callbackKey = `${prefix}callback:${state}`;
      const channel = openChannel(prefix);
      let popup: OpenedWindow | null = null;
      let ended = false;

      const end = (settle: () => void, closePopup: boolean): void => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        clearInterval(poll);
        signal.removeEventListener("abort", onAbort);
        win.removeEventListener("storage", onStorage);
        if (channel !== undefined) {
          channel.onmessage = null;
          channel.close();
        }
        quietly(() => local?.removeItem(pendingKey));
        quietly(() => local?.removeItem(callbackKey));
        if (closePopup && popup !== null && !popup.closed) quietly(() => popup?.close());
        settle();
      };
      const fail = (error: ClientError): void => end(() => reject(error), true);
      const arrived = (text: string): void => {
        let back: URL;
        try {
          back = new URL(text);
        } catch {
          return;
        }
        // Only what came to the callback page this flow registered.
        if (back.origin !== redirect.origin || back.pathname !== redirect.pathname) return;
        end(() => resolve(back), true);
      };
      const readStored = (): void => {
        const record = readRecord(local, callbackKey);
        if (typeof record?.url === "string") arrived(record.url);
      };
      const onStorage = (event: StorageEventLike): void => {
        if (event.key === callbackKey && event.newValue !== null) readStored();
      };
      const onAbort = (): void => fail(givenUp());
      const open = (): boolean => {
        if (ended) return false;
        try {
          popup = win.open(url.href, "_blank", features);
        } catch {
          popup = null;
        }
        return popup !== null;
      };

      if (channel !== undefined) {
        channel.onmessage = ({ data }) => {
          if (!isCallbackMessage(data)) return;
          // Another tab's flow, or (no flow waits for it) a state to be refused by the code flow.
          if (data.state === state || !data.pending) arrived(data.url);
        };
      }
      win.addEventListener("storage", onStorage);
      signal.addEventListener("abort", onAbort, { once: true });
      const timer = setTimeout(() => fail(authError("authorization", `no redirect came back within ${timeoutMs} ms`)), timeoutMs);
      const poll = setInterval(readStored, POLL_MS);
      // Before the popup opens: the callback page writes the redirect to storage only for a state some flow waits for.
      quietly(() => local?.setItem(pendingKey, JSON.stringify({ at: Date.now() })));
      if (open()) return;
      const error = new ClientError("auth", "authorization failed at authorization: the browser blocked the authorization popup (open it from a click)", { data: { reason: POPUP_BLOCKED } });
      if (onBlocked === undefined) {
        fail(error);
        return;
      }
      try {
        onBlocked({ error, open });
      } catch {
        // The host's callback failing does not end the wait: the timeout and the signal still do.
      }
    });
  };
  return { redirectUri: redirect.href, authorize };
}

function givenUp(): ClientError {
  return authError("authorization", "the wait for the authorization popup was given up");
}
