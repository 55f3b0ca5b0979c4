/**
 * The checks of one skill entry, as `skills/list` and `skills/get` carry it (SEP-2640
 * "Enumeration", "Resources", "Limits", and the Agent Skills rules it takes its format from):
 *
 * - `uri` is a SKILL.md URI whose last directory is the skill's name;
 * - `frontmatter` has a `name` of 1–64 lowercase letters, digits and single inner hyphens, equal
 *   to that directory, and a `description` of 1–1024 characters;
 * - `resources` is `"dynamic"` or an array of `{ uri, digest, size }`: each file once, under the
 *   skill's directory, SKILL.md among them, digests `sha256:` and 64 lowercase hex digits,
 *   sizes whole numbers of bytes; an entry without `resources`, or with anything else, is invalid;
 * - within the host's bounds on files and bytes, counted from the entry alone, before any read;
 * - nested no deeper than `MAX_ENTRY_DEPTH` levels, its `_meta` and other fields too.
 */
import { isObject } from "../util/json.js";
import { quote } from "../util/text.js";
import type { SkillEntry } from "./skills-types.js";
import { canonicalUri, isUnder, skillLocation, type SkillLocation } from "./skills-uri.js";

export interface SkillLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export type EntryVerdict =
  | { ok: true; entry: SkillEntry; location: SkillLocation }
  | { ok: false; reason: "entry" | "limit"; message: string; uri: string | undefined };

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

/**
 * Levels of objects and arrays an entry may nest, counted from the entry: a copy or a comparison
 * of a deeper one (100 000 levels of `_meta`) would overflow the stack. A front matter the
 * reader takes (64 levels under its mapping) nests 66 levels in its entry.
 */
export const MAX_ENTRY_DEPTH = 128;

export function checkEntry(raw: unknown, limits: SkillLimits): EntryVerdict {
  if (!isObject(raw)) return invalid(undefined, "the entry is not an object");
  const uri = typeof raw.uri === "string" ? raw.uri : undefined;
  if (uri === undefined) return invalid(undefined, 'the entry has no "uri" string');
  const location = skillLocation(uri);
  if (location === undefined) return invalid(uri, `"uri" ${quote(uri)} is not a URI ending in "/SKILL.md" under the skill's directory`);
  const frontmatter = frontmatterProblem(raw.frontmatter, location);
  if (frontmatter !== undefined) return invalid(uri, frontmatter);
  // Counted first, so that a skill of a million files is not walked to be refused.
  if (Array.isArray(raw.resources) && raw.resources.length > limits.maxFiles) {
    return tooLarge(uri, `the skill has ${raw.resources.length} files, more than the ${limits.maxFiles} this host accepts`);
  }
  const resources = resourcesProblem(raw.resources, uri, location);
  if (resources !== undefined) return invalid(uri, resources);
  const bytes = totalBytes(raw.resources as SkillEntry["resources"]);
  if (bytes > limits.maxBytes) return tooLarge(uri, `the skill's files add up to ${bytes} bytes, more than the ${limits.maxBytes} this host accepts`);
  if (nestsDeeperThan(raw, MAX_ENTRY_DEPTH)) return invalid(uri, `the entry nests deeper than ${MAX_ENTRY_DEPTH} levels`);
  return { ok: true, entry: raw as SkillEntry, location };
}

/** Whether `value` holds objects or arrays more than `levels` deep; walked without recursion. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  const pending: Array<{ value: unknown; level: number }> = [{ value, level: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.level > levels) return true;
    for (const child of Object.values(next.value)) if (typeof child === "object" && child !== null) pending.push({ value: child, level: next.level + 1 });
  }
  return false;
}

function invalid(uri: string | undefined, message: string): EntryVerdict {
  return { ok: false, reason: "entry", message, uri };
}

function tooLarge(uri: string, message: string): EntryVerdict {
  return { ok: false, reason: "limit", message, uri };
}

function frontmatterProblem(frontmatter: unknown, location: SkillLocation): string | undefined {
  if (!isObject(frontmatter)) return 'the entry has no "frontmatter" object';
  const { name, description } = frontmatter;
  if (typeof name !== "string" || typeof description !== "string") return '"frontmatter" needs "name" and "description" strings';
  if (!NAME.test(name) || name.length > MAX_NAME) {
    return `"frontmatter" "name" ${quote(name)} is not 1-${MAX_NAME} lowercase letters, digits and single inner hyphens`;
  }
  if (name !== location.name) return `"frontmatter" "name" ${quote(name)} is not the skill's directory ${quote(location.name)} in its URI`;
  const characters = countUpTo(description, MAX_DESCRIPTION + 1);
  if (characters === 0 || characters > MAX_DESCRIPTION) return `"frontmatter" "description" is not 1-${MAX_DESCRIPTION} characters long`;
  return undefined;
}

function resourcesProblem(resources: unknown, uri: string, location: SkillLocation): string | undefined {
  if (resources === "dynamic") return undefined;
  if (!Array.isArray(resources)) return '"resources" is neither an array of files nor "dynamic"';
  const self = canonicalUri(uri);
  const root = canonicalUri(location.root);
  const seen = new Set<string>();
  const list: unknown[] = resources;
  for (let i = 0; i < list.length; i++) {
    const problem = fileProblem(list[i], root, self, seen);
    if (problem !== undefined) return `"resources"[${i}] ${problem}`;
  }
  return self !== undefined && seen.has(self) ? undefined : `"resources" does not list the skill's own SKILL.md`;
}

function fileProblem(file: unknown, root: string | undefined, self: string | undefined, seen: Set<string>): string | undefined {
  if (!isObject(file)) return "is not an object";
  if (typeof file.uri !== "string") return 'has no "uri" string';
  const canonical = canonicalUri(file.uri);
  if (canonical === undefined || /[?#]/.test(canonical)) return `"uri" ${quote(file.uri)} is not a URI of a file`;
  if (canonical !== self && (root === undefined || !isUnder(canonical, root))) return `"uri" ${quote(file.uri)} is not in the skill's directory`;
  if (seen.has(canonical)) return `"uri" ${quote(file.uri)} is listed twice`;
  seen.add(canonical);
  if (typeof file.digest !== "string" || !DIGEST.test(file.digest)) return `"digest" ${quote(file.digest)} is not "sha256:" and 64 lowercase hex digits`;
  if (!Number.isSafeInteger(file.size) || (file.size as number) < 0) return `"size" ${quote(file.size)} is not a whole number of bytes`;
  return undefined;
}

/** The characters (code points) of `text`, counted no further than `limit`. */
function countUpTo(text: string, limit: number): number {
  let count = 0;
  for (const _ of text) if (++count >= limit) break;
  return count;
}

function totalBytes(resources: SkillEntry["resources"]): number {
  if (resources === "dynamic") return 0;
  let bytes = 0;
  for (const file of resources) bytes += file.size;
  return bytes;
}
