/**
 * What the results of the oldest versions may hold (docs/versions.md). A server of 2024-11-05 or
 * 2025-03-26 that sends a field of a later version (`title`, `outputSchema`, `structuredContent`)
 * gives it no meaning there: the client removes it before the host sees it, so that a host never
 * acts on what the negotiated version does not define. A content block of a type the version
 * does not have (`audio` before 2025-03-26, `resource_link` before 2025-06-18) is left out and
 * reported, like an unusable list entry. From 2025-06-18 on nothing is touched.
 */
import { since, type ProtocolVersion } from "./versions.js";

/** Whether results of `version` are taken as they come (the common case: nothing to look at). */
export function takenAsIs(version: ProtocolVersion): boolean {
  return since(version, "2025-06-18");
}

const TITLE = ["title"] as const;
const TOOL_2025_03 = ["title", "outputSchema"] as const;
const TOOL_2024 = ["title", "outputSchema", "annotations"] as const;

/** The fields of a list entry that `version` does not define. */
export function laterFields(kind: "tools" | "other", version: ProtocolVersion): readonly string[] {
  if (kind === "other") return TITLE;
  return since(version, "2025-03-26") ? TOOL_2025_03 : TOOL_2024;
}

/** `entry` without `fields` (itself when it has none of them). */
export function without(entry: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (!fields.some((name) => Object.hasOwn(entry, name))) return entry;
  const copy: Record<string, unknown> = { ...entry };
  for (const name of fields) delete copy[name];
  return copy;
}

/** Why a content block of this type does not exist in `version`, or undefined when it does. */
export function blockProblem(type: unknown, version: ProtocolVersion): string | undefined {
  if (type === "audio" && !since(version, "2025-03-26")) return "audio content does not exist before 2025-03-26";
  if (type === "resource_link" && !since(version, "2025-06-18")) return "resource_link content does not exist before 2025-06-18";
  return undefined;
}
