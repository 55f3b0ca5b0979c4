/**
 * A code flow that leaves the page and finishes when it comes back (the full-page redirect of
 * a browser, `browser-redirect.ts`): before `authorize` is called, the flow keeps what it needs
 * to redeem the code — its `state`, the PKCE verifier, the authorization server it began with,
 * the client, the redirect URI, the resource and scope — and the next flow for the same server
 * takes it, with the redirect that came back, instead of starting anew. The authorization server
 * is pinned: if discovery now names another one, the code is not redeemed ("auth").
 *
 * What is kept is the host's store's to guard as it guards tokens: a verifier is as good as a
 * code to whoever holds both (sessionStorage is the tab's own).
 */
import { isObject } from "../util/json.js";

export interface PendingFlow {
  readonly state: string;
  readonly verifier: string;
  /** The authorization server's issuer, as discovered when the flow began. */
  readonly issuer: string;
  readonly redirectUri: string;
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly authMethod?: string | undefined;
  readonly registeredFor?: string | undefined;
  readonly resource?: string | undefined;
  readonly scope?: string | undefined;
}

export interface PendingFlowStore {
  /** Keeps a flow about to leave the page, under its server's key. */
  save(key: string, flow: PendingFlow): Promise<void>;
  /**
   * The flow kept under `key` and the redirect URL that came back for it (undefined when the page
   * came back without one: the person went back, say), removed as they are read; undefined when
   * no flow is kept.
   */
  take(key: string): Promise<{ flow: unknown; returned: string | undefined } | undefined>;
}

/** A kept flow read back, or undefined when it is not one (then the flow starts anew). */
export function pendingFlowOf(value: unknown): PendingFlow | undefined {
  if (!isObject(value)) return undefined;
  for (const name of ["state", "verifier", "issuer", "redirectUri", "clientId"] as const) {
    if (typeof value[name] !== "string" || value[name] === "") return undefined;
  }
  for (const name of ["clientSecret", "authMethod", "registeredFor", "resource", "scope"] as const) {
    if (value[name] !== undefined && typeof value[name] !== "string") return undefined;
  }
  return value as unknown as PendingFlow;
}

export function isPendingFlowStore(value: unknown): value is PendingFlowStore {
  return isObject(value) && typeof value.save === "function" && typeof value.take === "function";
}
