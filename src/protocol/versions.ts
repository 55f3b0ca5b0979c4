/**
 * The protocol versions Conduit speaks, the era each belongs to, and what the client declares
 * in each.
 *
 * Legacy (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25): an `initialize` handshake, then
 * server-to-client requests. Modern (2026-07-28): no handshake, `_meta` on every request, input
 * through MRTR. What changes between versions is in docs/versions.md; `since` is how the code
 * asks. The versions are dates, so that their order is the order of their strings.
 *
 * The client's capabilities are derived from what its Handler implements, in the form of the
 * version (schema ClientCapabilities of each version):
 * - 2024-11-05, 2025-03-26: no elicitation at all; `roots.listChanged`; `sampling: {}`.
 * - 2025-06-18: `elicitation: {}` has no modes.
 * - 2025-11-25: `elicitation: { form?, url? }`; `roots.listChanged`.
 * - 2026-07-28: `roots: {}` without `listChanged`; `extensions` names the tasks extension.
 * - every version: `extensions` names those the host declared (the `extensions` option).
 * No input feature at all: `{}` (2026-07-28: the extension alone).
 */
import { ClientError } from "../util/errors.js";
import type { ClientCapabilities, JsonObject } from "./types/index.js";
import { quote } from "../util/text.js";

/** The tasks extension of 2026-07-28 (its wire forms: `tasks.ts`). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export const MODERN_VERSIONS = ["2026-07-28"] as const;
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type ProtocolVersion = ModernVersion | LegacyVersion;
export type Era = "modern" | "legacy";

/** Highest first: the order in which Conduit prefers them. */
export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

export function isLegacyVersion(value: unknown): value is LegacyVersion {
  return typeof value === "string" && (LEGACY_VERSIONS as readonly string[]).includes(value);
}

export function isModernVersion(value: unknown): value is ModernVersion {
  return typeof value === "string" && (MODERN_VERSIONS as readonly string[]).includes(value);
}

export function eraOf(version: ProtocolVersion): Era {
  return isModernVersion(version) ? "modern" : "legacy";
}

/** Whether `version` is `floor` or later. */
export function since(version: ProtocolVersion, floor: ProtocolVersion): boolean {
  return version >= floor;
}

/** A connect's `protocolVersion` pin, checked: a version this client speaks, or a `"usage"` error naming them. */
export function checkPin(pin: unknown): ProtocolVersion | undefined {
  if (pin === undefined) return undefined;
  if (typeof pin === "string" && (SUPPORTED_VERSIONS as readonly string[]).includes(pin)) return pin as ProtocolVersion;
  throw new ClientError("usage", `protocolVersion ${quote(pin)} is not one this client speaks (${SUPPORTED_VERSIONS.join(", ")})`);
}

export type ElicitationMode = "form" | "url";

export interface InputFeatures {
  sampling: boolean;
  /** Empty when the client cannot elicit. */
  elicitationModes: readonly ElicitationMode[];
  roots: boolean;
  /**
   * The extensions the host declares (the `extensions` client option), checked and frozen: not
   * input features, but declared beside them, in every version's capabilities.
   */
  extensions?: Readonly<Record<string, JsonObject>> | undefined;
}

export function clientCapabilities(features: InputFeatures, version: ProtocolVersion): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (features.sampling) capabilities.sampling = {};
  const modes = declaredModes(features, version);
  if (modes.length > 0) {
    if (!since(version, "2025-11-25")) capabilities.elicitation = {};
    else {
      const elicitation: { form?: Record<string, never>; url?: Record<string, never> } = {};
      for (const mode of modes) elicitation[mode] = {};
      capabilities.elicitation = elicitation;
    }
  }
  if (features.roots) capabilities.roots = version === "2026-07-28" ? {} : { listChanged: true };
  // Tasks of 2026-07-28 are an extension: declared on every request, so a tool the server runs
  // only as a task can be called (the server decides; the client follows what it makes).
  const own = version === "2026-07-28" ? { [TASKS_EXTENSION]: {} } : undefined;
  const extensions = declaredExtensions(own, features.extensions);
  if (extensions !== undefined) capabilities.extensions = extensions;
  return capabilities;
}

/**
 * The client's own extensions and the host's. The host's are declared in every version: the
 * legacy schemas have no `extensions` field, but capabilities are open objects and extensions
 * such as MCP Apps are declared in `initialize` there (their servers read it); an empty record
 * is left out, so a host that declares none sends what it always did.
 */
function declaredExtensions(own: Record<string, JsonObject> | undefined, host: Readonly<Record<string, JsonObject>> | undefined): Record<string, JsonObject> | undefined {
  if (host === undefined || Object.keys(host).length === 0) return own;
  return own === undefined ? { ...host } : { ...own, ...host };
}

const FORM_ONLY: readonly ElicitationMode[] = ["form"];
const NONE: readonly ElicitationMode[] = [];

/**
 * The elicitation modes declared in `version`. Before 2025-06-18 there is no elicitation;
 * 2025-06-18 knows forms only, so a Handler that answers URLs alone declares none there.
 */
export function declaredModes(features: InputFeatures, version: ProtocolVersion): readonly ElicitationMode[] {
  if (since(version, "2025-11-25")) return features.elicitationModes;
  if (!since(version, "2025-06-18")) return NONE;
  return features.elicitationModes.includes("form") ? FORM_ONLY : NONE;
}
