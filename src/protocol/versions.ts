/**
 * The protocol versions Conduit speaks and the era each belongs to.
 *
 * Legacy (2025-06-18, 2025-11-25): an `initialize` handshake, then server-to-client requests.
 * Modern (2026-07-28): no handshake, `_meta` on every request, input through MRTR.
 */
import { ClientError } from "../util/errors.js";

export const MODERN_VERSIONS = ["2026-07-28"] as const;
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18"] as const;

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

/** A connect's `protocolVersion` pin, checked: a version this client speaks, or a `"usage"` error naming them. */
export function checkPin(pin: unknown): ProtocolVersion | undefined {
  if (pin === undefined) return undefined;
  if (typeof pin === "string" && (SUPPORTED_VERSIONS as readonly string[]).includes(pin)) return pin as ProtocolVersion;
  throw new ClientError("usage", `protocolVersion ${JSON.stringify(pin)} is not one this client speaks (${SUPPORTED_VERSIONS.join(", ")})`);
}
