/**
 * A token as kept: the access token, the refresh token, when to refresh, and whom it came
 * from (the issuer, and the redirect URI of the registration it was got with, so that a
 * refresh uses that client even after the host's loopback port changed).
 */
import type * as Oauth from "oauth4webapi";

/** A token this close to its expiry is refreshed first. */
const EXPIRY_MARGIN_MS = 30_000;

export interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms, or undefined when the server gave no lifetime. */
  expiresAt: number | undefined;
  /** When to refresh first: the margin before expiry, at most half the lifetime. */
  refreshAt?: number | undefined;
  issuer: string;
  scope: string | undefined;
  /** "dpop" for a token bound to this client's DPoP key. */
  tokenType?: string | undefined;
  /** For a DPoP-bound token kept in the store: the thumbprint of the key it is bound to (kept there too). */
  jkt?: string | undefined;
  /** The redirect URI of the dynamic registration the token was got with. */
  registeredFor?: string | undefined;
}

export function tokensOf(result: Oauth.TokenEndpointResponse, from: { issuer: string; scope: string | undefined; refreshToken?: string | undefined; registeredFor?: string | undefined }): Tokens {
  const lifetime = typeof result.expires_in === "number" ? result.expires_in * 1000 : undefined;
  const now = Date.now();
  return {
    accessToken: result.access_token,
    refreshToken: result.refresh_token ?? from.refreshToken,
    expiresAt: lifetime === undefined ? undefined : now + lifetime,
    refreshAt: lifetime === undefined ? undefined : now + Math.max(lifetime / 2, lifetime - EXPIRY_MARGIN_MS),
    issuer: from.issuer,
    scope: result.scope ?? from.scope,
    tokenType: result.token_type.toLowerCase() === "dpop" ? "dpop" : "bearer",
    registeredFor: from.registeredFor,
  };
}

/**
 * A kept token this process can use: a DPoP-bound one only with the key it is bound to, which
 * `heldKey` (the thumbprint of the key this process holds, from the store) must be.
 */
export function usableKept(kept: Record<string, unknown> | undefined, heldKey?: string): Tokens | undefined {
  if (kept === undefined || typeof kept.accessToken !== "string" || typeof kept.issuer !== "string") return undefined;
  if (kept.tokenType === "dpop" && (heldKey === undefined || kept.jkt !== heldKey)) return undefined;
  return kept as unknown as Tokens;
}

export function dueForRefresh(tokens: Tokens): boolean {
  return tokens.refreshAt !== undefined && tokens.refreshAt <= Date.now() && tokens.refreshToken !== undefined;
}

/** The `Authorization` value that presents the token. */
export function bearer(tokens: Tokens): string {
  return `${tokens.tokenType === "dpop" ? "DPoP" : "Bearer"} ${tokens.accessToken}`;
}
