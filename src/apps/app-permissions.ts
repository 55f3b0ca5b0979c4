/**
 * The iframe `allow` attribute (Permissions Policy) of an MCP App's frame, from the permissions
 * its resource asked for: only the spec's four features, only when asked, and nothing at all
 * when none was — a frame gets none of them by default. Honouring them is the host's choice (the
 * spec says it MAY); a host that grants fewer passes a narrower `meta`.
 *
 * The features are separated by `;`, each with the attribute's default allowlist (the frame's
 * own origin, not its nested frames). A list separated by spaces, as the spec's sketch joins it,
 * would read as one feature with the others taken for origins.
 *
 * @see apps.mdx 2026-01-26, `UIResourceMeta.permissions` and "Security Implications" (4.)
 */
import { APP_PERMISSIONS, type AppPermission, type AppUiMeta } from "./app-meta.js";

/** Each permission's Permissions Policy feature. */
export const PERMISSION_FEATURES: Readonly<Record<AppPermission, string>> = Object.freeze({
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
});

/** The permissions `meta` asks for, in the spec's order; only `{}`-valued known keys count. */
export function askedPermissions(meta?: AppUiMeta): AppPermission[] {
  const permissions: unknown = typeof meta === "object" && meta !== null && Object.hasOwn(meta, "permissions") ? meta.permissions : undefined;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) return [];
  const asked = permissions as Record<string, unknown>;
  return APP_PERMISSIONS.filter((name) => {
    const value = Object.hasOwn(asked, name) ? asked[name] : undefined;
    return typeof value === "object" && value !== null && !Array.isArray(value);
  });
}

/** The `allow` attribute for an app whose `_meta.ui` is `meta`; `""` when it asks for nothing. */
export function appAllow(meta?: AppUiMeta): string {
  return askedPermissions(meta)
    .map((name) => PERMISSION_FEATURES[name])
    .join("; ");
}
