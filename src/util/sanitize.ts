/**
 * Safe text: what a server wrote, made fit to show a person or a log without letting it
 * rewrite a terminal or disguise itself.
 *
 * Removed: ANSI escape sequences, C0 and C1 control characters and DEL (tabs and line breaks
 * become spaces), bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069), zero-width and invisible format characters (U+180E, U+200B–U+200D,
 * U+2060–U+2064, U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, the soft hyphen U+00AD, the combining
 * grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the tag characters
 * U+E0000–U+E007F and the variation selectors U+E0100–U+E01EF, which spell out text no reader
 * sees but a model does; the emoji selectors U+FE00–U+FE0F stay) and the Unicode line
 * and paragraph separators (U+2028, U+2029). An 8-bit CSI or OSC (U+009B, U+009D) loses its
 * control character; what followed it stays as plain text, which no terminal obeys.
 */

import { InvalidArgumentError } from "./errors.js";

// CSI (ESC [ … final byte) and OSC (ESC ] … BEL or ESC \) sequences, and any lone ESC pair.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// Tag characters are astral: a high surrogate U+DB40 before U+DC00–U+DC7F (no `u` flag needed).
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;
const NEEDS_WORK = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]/;

export const MAX_TEXT = 4096;
export const MAX_DEPTH = 16;

/** Cleans one string, then clamps it to `max` characters (an ellipsis marks the cut). */
export function safeText(text: string, max = MAX_TEXT): string {
  const clean = NEEDS_WORK.test(text)
    ? text.replace(ANSI, "").replace(WHITESPACE_CONTROLS, " ").replace(FORBIDDEN, "")
    : text;
  return clamp(clean, max);
}

/** At most `max` characters, an ellipsis marking a cut. */
function clamp(text: string, max: number): string {
  if (text.length <= max) return text;
  // No room for even the ellipsis (max - 1 would be a negative end, which slices from the end).
  if (max < 1) return "";
  // Never cut between the two halves of a surrogate pair: that would leave invalid text.
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Cleans every string in a JSON value, object keys included; strings are clamped to
 * `MAX_TEXT` characters and anything nested below `MAX_DEPTH` levels becomes "[…]".
 */
export function safeValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return safeText(value);
  if (typeof value !== "object" || value === null) return typeof value === "number" || typeof value === "boolean" ? value : null;
  if (depth >= MAX_DEPTH) return "[…]";
  if (Array.isArray(value)) return value.map((item) => safeValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, safeText(key), safeValue(item, depth + 1));
  return out;
}

/**
 * Adds a member even when its name is `__proto__`, which plain assignment would take as a new
 * prototype for `target` (a server could then plant inherited members in what a hook reads).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Copies `from`'s own enumerable keys (but `skip`) into `to`, in order, as a spread would. For a
 * copy that gets fields of its own after it: in V8 (Node 20) a literal with a field after a
 * spread (`{ ...params, _meta }`) gets a map of its own, never shared with the last one made the
 * same way: 1.5–3 µs a copy where this takes 0.1–0.15, and every later access to it a miss.
 * (Fields before the spread, `{ serverId, ...tool }`, are fast.)
 */
export function copyOwn(from: object | undefined, to: Record<string, unknown>, skip?: string): Record<string, unknown> {
  for (const key in from) if (key !== skip && Object.hasOwn(from, key)) setOwn(to, key, (from as Record<string, unknown>)[key]);
  return to;
}

/** `{ ...from, [key]: value }`, keys in the same order, made as `copyOwn` says. */
export function withField(from: object | undefined, key: string, value: unknown): Record<string, unknown> {
  const to = copyOwn(from, {});
  setOwn(to, key, value);
  return to;
}

export interface SanitizeOptions {
  /**
   * Longest result in characters (default 4 096; an ellipsis marks a cut): a whole number, 0 or
   * more, or `Infinity`; anything else throws `InvalidArgumentError`.
   */
  max?: number | undefined;
  /** Keep line breaks (each line cleaned alone); by default they become spaces. */
  lines?: boolean | undefined;
}

/**
 * What a host should do to any server text it shows a person and Conduit did not clean itself
 * (tool descriptions, results, resource text): escape sequences, control, bidirectional and
 * invisible characters removed, the length bounded.
 */
export function sanitize(text: string, options: SanitizeOptions = {}): string {
  const max = options.max ?? MAX_TEXT;
  // A bound that means nothing (NaN, negative, fractional) is a host's mistake, not "no bound".
  if (max !== Infinity && !(Number.isInteger(max) && max >= 0)) throw new InvalidArgumentError(`sanitize: max must be a whole number of characters, 0 or more, or Infinity (got ${String(max)})`);
  if (typeof text !== "string") return "";
  if (options.lines !== true) return safeText(text, max);
  const cleaned = text.split(/\r\n|[\n\r\u2028\u2029]/).map((line) => safeText(line, Infinity)).join("\n");
  return clamp(cleaned, max);
}
