/**
 * What an MCP App's resource says of itself in `_meta.ui`: the origins its policy may name
 * (`csp`), the browser features it asks for (`permissions`), the dedicated origin it would like
 * (`domain`) and whether it wants a border (`prefersBorder`), checked field by field.
 *
 * A field a server got wrong is dropped and reported, and the rest is kept: a dropped `csp` list
 * means the restrictive default for what it governs, a dropped permission is one not granted, so
 * a malformed declaration can only make the app's frame stricter. Unknown keys are left out
 * without a word (a later version of the spec may add some; `permissions.tools` already is one).
 *
 * The resource's content item is what counts; the entry of `resources/list` is the fallback for
 * a field the content does not give (the spec's types say hosts read `csp` from the
 * `resources/read` content, the listing second).
 *
 * @see apps.mdx 2026-01-26, "UI Resource Format" (`UIResourceMeta`)
 */
import { quote } from "../util/text.js";
import { appSources, type DroppedField } from "./app-sources.js";

/** The origins an app declared, each list canonical (sorted, no duplicates) and never empty. */
export interface AppCspDomains {
  /** Where the app may connect (fetch, XHR, WebSocket, EventSource): `connect-src`. */
  readonly connectDomains?: readonly string[];
  /** Where its scripts, styles, images, fonts and media may come from. */
  readonly resourceDomains?: readonly string[];
  /** What it may show in nested frames: `frame-src`. */
  readonly frameDomains?: readonly string[];
  /** What its `<base href>` may name: `base-uri`. */
  readonly baseUriDomains?: readonly string[];
}

/** The browser features an app may ask for (the spec's `McpUiResourcePermissions`). */
export const APP_PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];

/** The permissions asked for: a key per feature, its value `{}` as in the spec. */
export type AppPermissions = { readonly [K in AppPermission]?: Readonly<Record<string, never>> };

/** An app resource's `_meta.ui`, validated. */
export interface AppUiMeta {
  readonly csp?: AppCspDomains;
  readonly permissions?: AppPermissions;
  /** The dedicated origin the app asks for, a host name; its rules are the host's own. */
  readonly domain?: string;
  /** `true`: a visible border and background; `false`: none; absent: the host decides. */
  readonly prefersBorder?: boolean;
}

export type { DroppedField } from "./app-sources.js";

const CSP_FIELDS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * `ui` (the value of a `_meta.ui`) checked: what is well formed, in canonical form; each field
 * dropped is reported to `dropped`, named from `at`.
 */
export function appUiMeta(ui: unknown, dropped?: (problem: DroppedField) => void, at = "_meta.ui"): AppUiMeta {
  if (ui === undefined) return {};
  const fields = record(ui);
  if (fields === undefined) {
    dropped?.({ field: at, reason: "not an object" });
    return {};
  }
  const meta: { csp?: AppCspDomains; permissions?: AppPermissions; domain?: string; prefersBorder?: boolean } = {};
  const csp = readCsp(own(fields, "csp"), `${at}.csp`, dropped);
  if (csp !== undefined) meta.csp = csp;
  const permissions = readPermissions(own(fields, "permissions"), `${at}.permissions`, dropped);
  if (permissions !== undefined) meta.permissions = permissions;
  const domain = readDomain(own(fields, "domain"), `${at}.domain`, dropped);
  if (domain !== undefined) meta.domain = domain;
  const border = own(fields, "prefersBorder");
  if (typeof border === "boolean") meta.prefersBorder = border;
  else if (border !== undefined) dropped?.({ field: `${at}.prefersBorder`, reason: "not a boolean" });
  return meta;
}

/** The content's meta, with the listing's for each field the content does not give. */
export function withFallback(content: AppUiMeta, listed: AppUiMeta): AppUiMeta {
  return { ...listed, ...content };
}

function readCsp(value: unknown, at: string, dropped: ((problem: DroppedField) => void) | undefined): AppCspDomains | undefined {
  if (value === undefined) return undefined;
  const fields = record(value);
  if (fields === undefined) {
    dropped?.({ field: at, reason: "not an object" });
    return undefined;
  }
  const csp: { -readonly [K in keyof AppCspDomains]: string[] } = {};
  for (const name of CSP_FIELDS) {
    const sources = appSources(own(fields, name), `${at}.${name}`, dropped);
    if (sources !== undefined && sources.length > 0) csp[name] = sources;
  }
  return Object.keys(csp).length === 0 ? undefined : csp;
}

function readPermissions(value: unknown, at: string, dropped: ((problem: DroppedField) => void) | undefined): AppPermissions | undefined {
  if (value === undefined) return undefined;
  const fields = record(value);
  if (fields === undefined) {
    dropped?.({ field: at, reason: "not an object" });
    return undefined;
  }
  const permissions: { -readonly [K in AppPermission]?: Readonly<Record<string, never>> } = {};
  for (const name of APP_PERMISSIONS) {
    const asked = own(fields, name);
    if (asked === undefined) continue;
    // `{}` asks; anything else (`true` included) is not the spec's form, and a permission is
    // granted only when it was asked for in that form.
    if (record(asked) !== undefined) permissions[name] = {};
    else dropped?.({ field: `${at}.${name}`, reason: `not an object ({}), got ${quote(asked, 40)}` });
  }
  return Object.keys(permissions).length === 0 ? undefined : permissions;
}

function readDomain(value: unknown, at: string, dropped: ((problem: DroppedField) => void) | undefined): string | undefined {
  if (value === undefined) return undefined;
  const domain = typeof value === "string" ? value.toLowerCase() : undefined;
  if (domain !== undefined && domain.length <= 253 && domain.split(".").every((label) => HOST_LABEL.test(label))) return domain;
  dropped?.({ field: at, reason: `not a host name, got ${quote(value, 80)}` });
  return undefined;
}
