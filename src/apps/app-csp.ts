/**
 * The Content-Security-Policy of an MCP App's frame, from the origins its resource declared:
 * deny by default, then only what the spec grants every app and what this one declared.
 *
 * Every app may run its own inline scripts and styles (a view is one HTML file, its code inside)
 * and show `data:` images and media; beyond that, only declared origins. With nothing declared
 * the policy is the spec's restrictive default (apps.mdx "Host Behavior": `default-src 'none'`,
 * `script-src`/`style-src 'self' 'unsafe-inline'`, `img-src`/`media-src 'self' data:`,
 * `connect-src 'none'`), plus the directives the sandbox section adds (`frame-src 'none'`,
 * `object-src 'none'`, `base-uri 'self'`) and `form-action 'none'`. One rule makes both cases,
 * so a declaration can add its origins and nothing else.
 *
 * Where this is stricter than the spec's example construction (which the spec allows: a host
 * "MAY further restrict"): `connect-src` names no `'self'` (the default's `'none'` holds until an
 * origin is declared; `'self'` would be the sandbox's own origin, which serves nothing for the
 * app), `font-src` appears only with declared resource origins (the default has none, so fonts
 * fall under `default-src 'none'`), and `form-action 'none'`, which does not fall back to
 * `default-src`, keeps a form from posting to an undeclared origin.
 *
 * @see apps.mdx 2026-01-26, "UI Resource Format" (Host Behavior), "Sandbox proxy" (item 5) and
 * "Security Implications" (4. Content Security Policy Enforcement)
 */
import { appSources } from "./app-sources.js";
import type { AppCspDomains, AppUiMeta } from "./app-meta.js";

/**
 * The directives, in order; each line's sources are the fixed ones, then the declared origins.
 *
 * - `default-src 'none'`: whatever no other directive names (fonts without resource origins,
 *   workers' fallbacks, manifests, prefetches) is refused.
 * - `script-src`, `style-src`: the app's inline code and the sandbox's own origin, and the
 *   declared resource origins (CDNs). No `'unsafe-eval'`, no `blob:`.
 * - `img-src`, `media-src`: the same, and `data:` for inlined pictures and sounds.
 * - `font-src`: the declared resource origins, when there are some.
 * - `connect-src`: `fetch`, XHR, WebSocket and EventSource, to declared connect origins only.
 * - `frame-src`: nested frames from declared frame origins only.
 * - `object-src 'none'`: no plug-ins (`<object>`, `<embed>`).
 * - `base-uri`: a `<base href>` of the sandbox's origin or of a declared base origin, so that
 *   relative URLs cannot be pointed elsewhere.
 * - `form-action 'none'`: no form submission to any origin (the app talks to its host by
 *   `postMessage`).
 */
function directives(csp: Required<{ [K in keyof AppCspDomains]: readonly string[] }>): string[] {
  const resources = csp.resourceDomains;
  const lines = [
    ["default-src", "'none'"],
    ["script-src", "'self'", "'unsafe-inline'", ...resources],
    ["style-src", "'self'", "'unsafe-inline'", ...resources],
    ["img-src", "'self'", "data:", ...resources],
    ["media-src", "'self'", "data:", ...resources],
    ...(resources.length > 0 ? [["font-src", "'self'", ...resources]] : []),
    ["connect-src", ...orNone(csp.connectDomains)],
    ["frame-src", ...orNone(csp.frameDomains)],
    ["object-src", "'none'"],
    ["base-uri", ...(csp.baseUriDomains.length > 0 ? csp.baseUriDomains : ["'self'"])],
    ["form-action", "'none'"],
  ];
  return lines.map((line) => line.join(" "));
}

function orNone(sources: readonly string[]): readonly string[] {
  return sources.length > 0 ? sources : ["'none'"];
}

/**
 * The declared origins of `csp`, each list parsed again: the policy is built from what the
 * sanitiser accepts even when the host hands in `_meta.ui` it read itself.
 */
export function cspDomains(csp: AppCspDomains | undefined): Required<{ [K in keyof AppCspDomains]: readonly string[] }> {
  const fields: Record<string, unknown> = typeof csp === "object" && csp !== null ? (csp as Record<string, unknown>) : {};
  const list = (name: keyof AppCspDomains): readonly string[] => (Object.hasOwn(fields, name) ? (appSources(fields[name], name) ?? []) : []);
  return {
    connectDomains: list("connectDomains"),
    resourceDomains: list("resourceDomains"),
    frameDomains: list("frameDomains"),
    baseUriDomains: list("baseUriDomains"),
  };
}

/**
 * The `Content-Security-Policy` header value for an app whose `_meta.ui` is `meta` (a
 * validated one from `appUiMeta` or `readAppResource`, or one the host read itself: its origins
 * go through the same sanitiser). Its first directive is always `default-src 'none'`.
 */
export function appCsp(meta?: AppUiMeta): string {
  const csp = typeof meta === "object" && meta !== null && Object.hasOwn(meta, "csp") ? meta.csp : undefined;
  return directives(cspDomains(csp)).join("; ");
}
