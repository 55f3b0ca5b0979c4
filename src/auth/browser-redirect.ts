/**
 * The `authorize` of a page that sends the whole tab to the authorization server, for where a
 * popup will not do (a phone, a blocked popup the host will not ask about): the flow's state is
 * kept in the tab's sessionStorage (`pendingFlow`, which the code flow fills before it calls
 * `authorize`), the page navigates away, the callback page (`completeAuthorization()`) keeps the
 * redirect and goes back to `returnTo`, and when that page connects again the code flow takes
 * its state and the redirect and redeems the code there, with the authorization server it began
 * with (another one now is refused, `"auth"`).
 *
 * The authorization URL is vetted first (`browser-url.ts`). The wait after the navigation ends
 * on the timeout or the connection's end: the page normally unloads before either.
 */
import { ClientError } from "../util/errors.js";
import { authError } from "./auth-error.js";
import { quietly, storageOf } from "./browser-channel.js";
import type { BrowserAuthorization } from "./browser-popup.js";
import { checkRedirectUri, helperOptions, vetAuthorizationUrl } from "./browser-url.js";
import type { PendingFlowStore } from "./pending-flow.js";

export interface BrowserRedirectOptions {
  /** The callback page (`completeAuthorization()` runs there), on this page's origin; registered with the authorization server. */
  redirectUri: string;
  /** Where the callback page goes back to (default: this page's URL as the flow leaves it), on this page's origin. */
  returnTo?: string | undefined;
  /** How long the navigation may take to leave the page before the flow fails (default 600 000 ms). */
  timeoutMs?: number | undefined;
  /** Of the storage keys the callback page uses (default `conduit-oauth:`); the same as the callback's. */
  prefix?: string | undefined;
}

/** What goes into a server's `auth`: `{ ...browserRedirect({ redirectUri }), store }`. */
export interface BrowserRedirectAuthorization extends BrowserAuthorization {
  /** Where the code flow keeps its state across the navigation (the tab's sessionStorage). */
  readonly pendingFlow: PendingFlowStore;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(["redirectUri", "returnTo", "timeoutMs", "prefix"]);

export function browserRedirect(options: BrowserRedirectOptions): BrowserRedirectAuthorization {
  const what = "browserRedirect";
  const { win, redirect, timeoutMs, prefix } = helperOptions(what, options, OPTION_KEYS);
  const returnTo = options.returnTo;
  if (returnTo !== undefined) checkRedirectUri(`${what}'s \`returnTo\``, returnTo, win.location.origin);

  const session = (): NonNullable<ReturnType<typeof storageOf>> => {
    const storage = storageOf("sessionStorage");
    if (storage === undefined) throw new ClientError("unsupported", "this page may not use sessionStorage, which keeps a full-page flow across its redirect");
    return storage;
  };

  const pendingFlow: PendingFlowStore = {
    save: (key, flow) => attempt(() => session().setItem(`${prefix}flow:${key}`, JSON.stringify(flow))),
    take: (key) =>
      attempt(() => {
        const storage = session();
        const text = storage.getItem(`${prefix}flow:${key}`);
        if (text === null) return undefined;
        storage.removeItem(`${prefix}flow:${key}`);
        let flow: unknown;
        try {
          flow = JSON.parse(text);
        } catch {
          return { flow: undefined, returned: undefined };
        }
        const state = (flow as { state?: unknown } | null)?.state;
        if (typeof state !== "string") return { flow, returned: undefined };
        const returned = storage.getItem(`${prefix}returned:${state}`) ?? undefined;
        storage.removeItem(`${prefix}returned:${state}`);
        storage.removeItem(`${prefix}redirect:${state}`);
        return { flow, returned };
      }),
  };

  const authorize = (given: URL, context: { signal: AbortSignal; serverUrl?: URL | undefined }): Promise<URL> => {
    const url = vetAuthorizationUrl(given, context.serverUrl);
    const state = url.searchParams.get("state");
    if (state === null || state === "") return Promise.reject(authError("authorization", "the authorization URL carries no state"));
    const signal = context.signal;
    if (signal.aborted) return Promise.reject(givenUp());
    const back = returnTo ?? win.location.href;
    try {
      session().setItem(`${prefix}redirect:${state}`, JSON.stringify({ returnTo: back, at: Date.now() }));
    } catch (error) {
      return Promise.reject(error instanceof ClientError ? error : authError("authorization", "the flow could not be kept in sessionStorage for the redirect"));
    }
    return new Promise<URL>((_resolve, reject) => {
      const end = (error: ClientError): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        quietly(() => storageOf("sessionStorage")?.removeItem(`${prefix}redirect:${state}`));
        reject(error);
      };
      const onAbort = (): void => end(givenUp());
      const timer = setTimeout(() => end(authError("authorization", `the page did not leave for the authorization server within ${timeoutMs} ms`)), timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        win.location.assign(url.href);
      } catch {
        end(authError("authorization", "the page could not navigate to the authorization server"));
      }
    });
  };
  return { redirectUri: redirect.href, authorize, pendingFlow };
}

function attempt<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

function givenUp(): ClientError {
  return authError("authorization", "the wait for the redirect to the authorization server was given up");
}
