/**
 * A SKILL.md's front matter against its entry (SEP-2640 "Integrity and verification"): after
 * reading a SKILL.md the host parses the YAML between its `---` lines and compares it field by
 * field with the entry's `frontmatter`; any difference is a verification failure and the skill
 * is not loaded, so that what a user approved from the listing is what the model reads.
 */
import { isObject } from "../util/json.js";
import { excerpt, quote } from "../util/text.js";
import { parseYaml } from "./skills-yaml.js";

/** Objects deeper than this are not compared (and so differ): no recursion on a server's whim. */
const MAX_COMPARE_DEPTH = 64;

/**
 * The longest front matter read, in UTF-8 bytes of the YAML between the `---` lines. A host reads
 * it synchronously, and every server of the `Client` waits while it does: this bounds that time
 * for any parser (a host's own too), where front matter in use is a few hundred bytes.
 */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;

/** The parts of a SKILL.md. */
export interface SkillDocument {
  /** The YAML between the `---` lines, as in the file (its last line break too). */
  readonly yaml: string;
  /** What follows the closing `---` line. */
  readonly body: string;
}

/**
 * The front matter and body of a SKILL.md, or why it has none: the file must begin (after a
 * byte order mark) with a `---` line, and a later `---` line ends the YAML.
 */
export function splitSkillDocument(text: string): SkillDocument | string {
  const source = text.startsWith("\ufeff") ? text.slice(1) : text;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (opening === null) return 'SKILL.md does not begin with a "---" line opening its YAML front matter';
  const rest = source.slice(opening[0].length);
  const closing = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (closing === null) return 'the front matter of SKILL.md has no closing "---" line';
  // The YAML keeps the line break of its last line: a `|+` scalar at its end keeps it too.
  return { yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}

/** Whether `yaml` is longer than `MAX_FRONTMATTER_BYTES` in UTF-8 (counted no further than that). */
export function frontmatterTooLong(yaml: string): boolean {
  // A UTF-16 unit is at least one byte of UTF-8: past the bound in units is past it in bytes.
  if (yaml.length > MAX_FRONTMATTER_BYTES) return true;
  let bytes = 0;
  for (let i = 0; i < yaml.length; i++) {
    const unit = yaml.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(yaml.charCodeAt(i + 1))) {
      // A pair is one character of 4 bytes; a lone surrogate is written as U+FFFD, 3 bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes > MAX_FRONTMATTER_BYTES;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Parses front matter YAML: the built-in reader, or the host's. */
export type FrontmatterParser = (yaml: string) => unknown;

/** The front matter as an object, or why it is not one. */
export function readFrontmatter(yaml: string, parse: FrontmatterParser = parseYaml): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = parse(yaml);
  } catch (error) {
    return `the front matter of SKILL.md could not be read: ${excerpt(error instanceof Error ? error.message : error)}`;
  }
  return isObject(value) ? value : "the front matter of SKILL.md is not a mapping of fields";
}

/**
 * The fields in which the file's front matter and the entry's differ, one line each (empty when
 * they are the same). A field that is absent on one side and null on the other is the same: a
 * rendering to JSON may drop nulls.
 */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const differences: string[] = [];
  for (const name of new Set([...Object.keys(file), ...Object.keys(entry)])) {
    const inFile = own(file, name);
    const inEntry = own(entry, name);
    if (!same(inFile, inEntry, 0)) differences.push(`"${excerpt(name, 60)}": the file has ${describe(inFile)}, the entry ${describe(inEntry)}`);
  }
  return differences;
}

function own(object: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

function describe(value: unknown): string {
  return value === undefined ? "nothing" : quote(value, 80);
}

/** Equal as JSON values; any other kind of value (a date a host's parser made) is never equal. */
function same(a: unknown, b: unknown, depth: number): boolean {
  const left = a ?? null;
  const right = b ?? null;
  if (left === null || right === null || typeof left !== "object" || typeof right !== "object") return left === right;
  if (depth >= MAX_COMPARE_DEPTH) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item: unknown, i) => same(item, right[i], depth + 1));
  }
  if (!plain(left) || !plain(right)) return false;
  const l = left as Record<string, unknown>;
  const r = right as Record<string, unknown>;
  for (const name of new Set([...Object.keys(l), ...Object.keys(r)])) if (!same(own(l, name), own(r, name), depth + 1)) return false;
  return true;
}

function plain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
