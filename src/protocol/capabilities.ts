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
  const modes = declaredModes(features, version);
  if (modes.length > 0) {
    if (version === "2025-06-18") capabilities.elicitation = {};
    else {
      const elicitation: { form?: Record<string, never>; url?: Record<string, never> } = {};
      for (const mode of modes) elicitation[mode] = {};
      capabilities.elicitation = elicitation;
    }
  }
  if (features.roots) capabilities.roots = version === "2026-07-28" ? {} : { listChanged: true };
  return capabilities;
}

const FORM_ONLY: readonly ElicitationMode[] = ["form"];
const NONE: readonly ElicitationMode[] = [];

/**
 * The elicitation modes declared in `version`. 2025-06-18 knows forms only: a Handler that
 * answers URLs alone declares no elicitation there at all.
 */
export function declaredModes(features: InputFeatures, version: ProtocolVersion): readonly ElicitationMode[] {
  if (version !== "2025-06-18") return features.elicitationModes;
  return features.elicitationModes.includes("form") ? FORM_ONLY : NONE;
}
