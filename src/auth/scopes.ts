/**
 * Which scopes to ask for (basic/authorization, "Scope Selection Strategy"): the challenge's,
 * else the resource's `scopes_supported`, else the host's, else none; `offline_access` added
 * only when the authorization server lists it. A step-up keeps what was granted (SEP-2350).
 */
import type { Discovered } from "./discovery.js";

export function chooseScope(asked: string | undefined, found: Discovered, fallback: string | undefined): string | undefined {
  const base = asked ?? (found.scopesSupported !== undefined && found.scopesSupported.length > 0 ? found.scopesSupported.join(" ") : fallback);
  const offline = found.server.scopes_supported?.includes("offline_access") === true;
  if (!offline) return base;
  const scopes = new Set((base ?? "").split(" ").filter(Boolean));
  scopes.add("offline_access");
  return [...scopes].join(" ");
}

/** The scopes of both, each once. */
export function union(granted: string | undefined, asked: string | undefined): string | undefined {
  const scopes = new Set([...(granted ?? "").split(" "), ...(asked ?? "").split(" ")].filter(Boolean));
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}
