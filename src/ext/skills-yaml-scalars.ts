/**
 * The scalars of the YAML that SKILL.md front matter is written in (YAML 1.2): what a plain
 * scalar means under the core schema (null, booleans, integers, floats, else a string), the
 * escapes of double-quoted scalars, and how literal (`|`) and folded (`>`) block scalars keep or
 * fold their lines and chomp their end. Pure functions over text; the block structure that
 * finds them is `skills-yaml.ts`.
 */

/** YAML this reader does not take: the front matter cannot be compared, so the skill is refused. */
export class YamlError extends Error {
  override readonly name = "YamlError";
}

const NULL = /^(?:~|null|Null|NULL|)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const DECIMAL = /^[-+]?[0-9]+$/;
const OCTAL = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

/** A plain scalar's value under the 1.2 core schema (1.1's `yes`, `on`, dates stay strings). */
export function resolvePlain(text: string): string | number | boolean | null {
  if (NULL.test(text)) return null;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  if (DECIMAL.test(text)) return Number(text);
  if (OCTAL.test(text)) return parseInt(text.slice(2), 8);
  if (HEX.test(text)) return parseInt(text.slice(2), 16);
  if (FLOAT.test(text)) return Number(text);
  // JSON has no infinity or NaN, so the entry's front matter can never equal one: kept as a
  // number that no JSON value equals.
  if (INFINITY.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (NAN.test(text)) return Number.NaN;
  return text;
}

/**
 * Why a plain key is not read, or undefined: it is taken as written where that is how JSON
 * writes the value YAML reads (`1`, `true`, any string), and refused where it is not (`1.0`,
 * `0x1F`, `-0`, `True`, `null`, `~`), since YAML libraries make different keys of it.
 */
export function plainKeyProblem(text: string): string | undefined {
  const value = resolvePlain(text);
  if (typeof value === "string" || (value !== null && String(value) === text)) return undefined;
  return `the key "${text.slice(0, 40)}" reads as ${value === null ? "null" : String(value)}, which YAML libraries write differently as a key (quote it)`;
}

/** Where a comment starts in `text` (a `#` at its start or after white space), or -1. */
export function commentStart(text: string): number {
  if (text.startsWith("#")) return 0;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "#" && (text[i - 1] === " " || text[i - 1] === "\t")) return i;
  }
  return -1;
}

/** `text` without a trailing comment and white space. */
export function withoutComment(text: string): string {
  const at = commentStart(text);
  return trimWhite(at < 0 ? text : text.slice(0, at), false);
}

const isWhite = (char: string | undefined): boolean => char === " " || char === "\t";

/**
 * `text` without the spaces and tabs at its ends (or at its end alone): YAML's white space.
 * JavaScript's `trim` takes more (a carriage return, a form feed, U+00A0, U+FEFF), which YAML
 * keeps as text.
 */
export function trimWhite(text: string, start = true): string {
  let from = 0;
  if (start) while (isWhite(text[from])) from++;
  return text.slice(from, Math.max(from, trimmedEnd(text, from)));
}

/** Whether `line` holds nothing but spaces and tabs. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isWhite(line[i])) return false;
  return true;
}

/** A plain scalar of block context may not hold `: ` (YAML reads that as a mapping inside it). */
export function checkPlain(text: string): void {
  if (/:(?:[ \t]|$)/.test(text)) throw new YamlError(`a plain value may not contain ": " (quote it): ${text.slice(0, 40)}`);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b",
  " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029",
};
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** The character of the escape at `text[at]` (after the backslash) and the length it took. */
export function escapeAt(text: string, at: number): { char: string; length: number } {
  const letter = text[at] ?? "";
  if (Object.hasOwn(SIMPLE_ESCAPES, letter)) return { char: SIMPLE_ESCAPES[letter] as string, length: 1 };
  const digits = Object.hasOwn(HEX_ESCAPES, letter) ? HEX_ESCAPES[letter] : undefined;
  if (digits !== undefined) {
    const hex = text.slice(at + 1, at + 1 + digits);
    const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits ? parseInt(hex, 16) : Number.NaN;
    if (code <= 0x10ffff) return { char: String.fromCodePoint(code), length: 1 + digits };
  }
  throw new YamlError(`unknown escape "\\${letter}" in a double-quoted value`);
}

/**
 * A quoted scalar that starts `first` (at its quote), read across lines as far as it goes:
 * `nextLine` hands over the following lines (undefined at the end). Between lines the white
 * space around a break goes, one break becomes a space and each empty line a break; in double
 * quotes a backslash at the end of a line joins the lines without one. `rest` is what follows
 * the closing quote on its line.
 */
export function scanQuoted(first: string, nextLine: () => string | undefined): { value: string; rest: string } {
  const quote = first[0];
  let value = "";
  let text = first;
  let at = 1;
  for (;;) {
    let segment = "";
    // What an escape wrote stays, even if it is white space at the end of the line.
    let kept = 0;
    let escapedBreak = false;
    while (at < text.length) {
      const char = text[at] as string;
      if (char === quote) {
        if (quote === "'" && text[at + 1] === "'") {
          segment += "'";
          at += 2;
          continue;
        }
        return { value: value + segment, rest: text.slice(at + 1) };
      }
      if (char === "\\" && quote === '"') {
        if (at === text.length - 1) {
          escapedBreak = true;
          break;
        }
        const escape = escapeAt(text, at + 1);
        segment += escape.char;
        kept = segment.length;
        at += 1 + escape.length;
        continue;
      }
      segment += char;
      at++;
    }
    value += escapedBreak ? segment : segment.slice(0, trimmedEnd(segment, kept));
    let breaks = 0;
    let line = nextLine();
    for (; line !== undefined && isBlank(line); line = nextLine()) breaks++;
    if (line === undefined) throw new YamlError("a quoted value is not closed");
    // The spec (and PyYAML) keep each empty line after an escaped break; the `yaml` package
    // folds them: a value that libraries read differently cannot be compared with the entry.
    if (escapedBreak && breaks > 0) throw new YamlError("an empty line after an escaped line break (\\ at the end of a line) is read differently by YAML libraries");
    value += escapedBreak ? "\n".repeat(breaks) : breaks === 0 ? " " : "\n".repeat(breaks);
    text = line.replace(/^[ \t]+/, "");
    at = 0;
  }
}

/**
 * Where `text` ends without the spaces and tabs at its end, not before `from`. A loop, not
 * `/[ \t]+$/`: that pattern tries again from each white space character of a run, and a line of
 * 32 KiB of spaces inside quotes took 1.7 s.
 */
function trimmedEnd(text: string, from: number): number {
  let end = text.length;
  while (end > from && isWhite(text[end - 1])) end--;
  return end;
}

/** The header of a block scalar: `|` or `>`, chomping `-`/`+`, an indentation digit, a comment. */
export interface BlockHeader {
  folded: boolean;
  chomp: "clip" | "strip" | "keep";
  /** The explicit indentation, or undefined to take it from the first line. */
  indent: number | undefined;
}

export function blockHeader(text: string): BlockHeader {
  const match = /^([|>])(?:([+-])([1-9])?|([1-9])([+-])?)?$/.exec(withoutComment(text));
  if (match === null) throw new YamlError(`a block scalar header is "|" or ">" with at most "+"/"-" and one digit: ${text.slice(0, 40)}`);
  const chomp = match[2] ?? match[5];
  const digit = match[3] ?? match[4];
  return { folded: match[1] === ">", chomp: chomp === "-" ? "strip" : chomp === "+" ? "keep" : "clip", indent: digit === undefined ? undefined : Number(digit) };
}

/** A block scalar's value from its lines, their indentation removed ("" for an empty line). */
export function blockValue(lines: readonly string[], header: BlockHeader): string {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  const content = lines.slice(0, end);
  const trailing = lines.length - end;
  const text = header.folded ? fold(content) : content.join("\n");
  if (header.chomp === "strip" || content.length === 0) return header.chomp === "keep" ? "\n".repeat(trailing) : text;
  return header.chomp === "keep" ? `${text}\n${"\n".repeat(trailing)}` : `${text}\n`;
}

/**
 * Folding (`>`): a single line break between two lines of text becomes a space, and each empty
 * line a line break; lines that start with white space ("more indented") keep their breaks.
 */
function fold(lines: readonly string[]): string {
  let out = "";
  let breaks = 0;
  let started = false;
  let previousMore = false;
  for (const line of lines) {
    if (line === "") {
      breaks++;
      continue;
    }
    const more = line.startsWith(" ") || line.startsWith("\t");
    if (!started) out += "\n".repeat(breaks);
    else if (more || previousMore) out += "\n".repeat(breaks + 1);
    else out += breaks === 0 ? " " : "\n".repeat(breaks);
    out += line;
    started = true;
    breaks = 0;
    previousMore = more;
  }
  return out;
}
