/**
 * The client's capabilities, derived from what its Handler implements, in the form of a given
 * protocol version (schema ClientCapabilities of each version):
 * - 2025-06-18: `elicitation: {}` has no modes; `sampling: {}`.
 * - 2025-11-25: `elicitation: { form?, url? }`; `roots.listChanged`.
 * - 2026-07-28: `roots: {}` without `listChanged`.
 * No input feature at all: `{}`.
 */
import type { ClientCapabilities } from "./types/index.js";
import type { ProtocolVersion } from "./versions.js";

export type ElicitationMode = "form" | "url";

export interface InputFeatures {
  sampling: boolean;
  /** Empty when the client cannot elicit. */
  elicitationModes: readonly ElicitationMode[];
  roots: boolean;
}

export function clientCapabilities(features: InputFeatures, version: ProtocolVersion): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (features.sampling) capabilities.sampling = {};
  if (features.elicitationModes.length > 0) {
    if (version === "2025-06-18") capabilities.elicitation = {};
    else {
      const elicitation: { form?: Record<string, never>; url?: Record<string, never> } = {};
      for (const mode of features.elicitationModes) elicitation[mode] = {};
      capabilities.elicitation = elicitation;
    }
  }
  if (features.roots) capabilities.roots = version === "2026-07-28" ? {} : { listChanged: true };
  return capabilities;
}

/** Which modes the declared capability allows (`{}` means form, 2025-11-25 elicitation). */
export function declaredModes(features: InputFeatures, version: ProtocolVersion): readonly ElicitationMode[] {
  if (features.elicitationModes.length === 0) return [];
  return version === "2025-06-18" ? ["form"] : features.elicitationModes;
}
