/**
 * What the two frames of the bridge say to each other and to the view, as the MCP Apps spec
 * (2026-01-26, "Sandbox proxy" and "Reserved Messages") names it. Shared by the host side
 * (`mount.ts`) and the tests; the proxy's own script (`proxy.ts`) repeats the few names it
 * needs, since it runs from its source text in a page of its own.
 */

/** Sent by the proxy to the host once it can take a resource. */
export const PROXY_READY = "ui/notifications/sandbox-proxy-ready";
/** Sent by the host to the proxy: the view's HTML and how to frame it. */
export const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";
/** The methods the proxy keeps for itself and never relays (spec, "Sandbox proxy" 6). */
export const SANDBOX_PREFIX = "ui/notifications/sandbox-";
/** The view's report of its content's size (spec, "Container Dimensions"). */
export const SIZE_CHANGED = "ui/notifications/size-changed";

/**
 * Where Conduit's own fields ride in `sandbox-resource-ready`: its `_meta`, which a proxy of
 * another make ignores. The spec's `csp` field carries the declared domains for the proxy to
 * build a policy from; Conduit builds the policy once, on the host, from the checked resource
 * (`readAppResource`), and sends the finished header value instead, so that the proxy holds no
 * second copy of the domain checks. A proxy that finds no policy here applies the spec's
 * restrictive default: a mismatch can break a view, never loosen it.
 */
export const POLICY_KEY = "conduit-mcp/csp";
/** The inner frame's `allow` attribute (Permissions Policy), built on the host likewise. */
export const ALLOW_KEY = "conduit-mcp/allow";

/**
 * The inner frame's sandbox unless the host says otherwise: scripts and forms, on an opaque
 * origin. Without `allow-same-origin` the view shares nothing with the proxy's origin, so it
 * cannot script the proxy (and post as it), nor reach the storage or the frames of another
 * view served from the same sandbox origin.
 */
export const DEFAULT_INNER_SANDBOX = "allow-scripts allow-forms";

/**
 * The sandbox tokens a host may give the inner frame. Navigation of the top or of the host's
 * page (`allow-top-navigation*`) is never one of them: a view would leave its frame.
 */
export const INNER_SANDBOX_TOKENS: readonly string[] = Object.freeze([
  "allow-scripts",
  "allow-forms",
  "allow-same-origin",
  "allow-popups",
  "allow-popups-to-escape-sandbox",
  "allow-modals",
  "allow-downloads",
  "allow-pointer-lock",
]);

/** The outer frame's sandbox: the spec's two (spec, "Sandbox proxy" 2). */
export const OUTER_SANDBOX = "allow-scripts allow-same-origin";

/** A message's `method` when it has a string one of its own. */
export function methodOf(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || !Object.hasOwn(message, "method")) return undefined;
  const method: unknown = (message as { method?: unknown }).method;
  return typeof method === "string" ? method : undefined;
}
