/**
 * Flow collections of YAML front matter: `[a, b]` and `{ key: value }`, nested, with quoted and
 * plain scalars. A collection may span lines; `FlowGatherer` says when its text is complete,
 * reading each line once, and `parseFlow` reads the gathered text.
 */
import type { JsonValue } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { YamlError, plainKeyProblem, resolvePlain, scanQuoted, trimWhite } from "./skills-yaml-scalars.js";

/** Collections deeper than this are refused rather than read on the stack. */
export const MAX_DEPTH = 64;

/** Whether the brackets opened so far are closed, outside quotes. */
export class FlowGatherer {
  private open = 0;
  private quote: string | undefined;
  private escaped = false;

  /** Whether a closing bracket now would close the whole collection (outside quotes). */
  get lastOpen(): boolean {
    return this.open === 1 && this.quote === undefined;
  }

  /**
   * Feeds one more line: `done` once every bracket is closed; `content` is the line to read.
   * A comment stays in it: it ends a plain scalar, which may not go on to the next line.
   */
  feed(line: string): { done: boolean; content: string } {
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (this.quote !== undefined) {
        if (this.escaped) this.escaped = false;
        else if (char === "\\" && this.quote === '"') this.escaped = true;
        // In single quotes, '' is a quote and the scalar goes on.
        else if (char === "'" && this.quote === "'" && line[i + 1] === "'") i++;
        else if (char === this.quote) this.quote = undefined;
        continue;
      }
      // A quote opens a scalar only where one starts (an apostrophe inside a plain word does not).
      if ((char === '"' || char === "'") && (i === 0 || /[ \t[{,:]/.test(line[i - 1] as string))) this.quote = char;
      else if (char === "[" || char === "{") this.open++;
      else if (char === "]" || char === "}") this.open--;
      else if (char === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) return { done: false, content: line };
      if (this.open === 0) return { done: true, content: line };
    }
    // A quote left open at the end of a line goes on on the next; no escape crosses the break.
    this.escaped = false;
    return { done: false, content: line };
  }
}

/**
 * The collection at the start of `text` (`depth` levels down already; its lines joined with
 * "\n"), and what follows it.
 */
export function parseFlow(text: string, depth: number): { value: JsonValue; rest: string } {
  const reader = new FlowReader(text);
  const value = reader.value(depth);
  return { value, rest: text.slice(reader.at) };
}

const ENDS_PLAIN = new Set([",", "[", "]", "{", "}"]);

/** Lines of one value joined: a break between two is a space, an empty line a break. */
function foldLines(lines: readonly string[]): string {
  let out = lines[0] ?? "";
  let breaks = 0;
  for (const line of lines.slice(1)) {
    if (line === "") {
      breaks++;
      continue;
    }
    out += (breaks === 0 ? " " : "\n".repeat(breaks)) + line;
    breaks = 0;
  }
  return out;
}

class FlowReader {
  at = 0;
  /** The first line break at or after the last line asked for (`lineEnd`); the text's length past the last. */
  private nextBreak = -1;

  constructor(private readonly text: string) {}

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new YamlError(`collections nest deeper than ${MAX_DEPTH}`);
    this.space();
    const char = this.text[this.at];
    if (char === "[") return this.sequence(depth);
    if (char === "{") return this.mapping(depth);
    if (char === '"' || char === "'") return this.quoted();
    return resolvePlain(this.plain());
  }

  private sequence(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    this.at++;
    for (;;) {
      this.space();
      if (this.take("]")) return items;
      if (this.text[this.at] === ",") throw this.expected("an item");
      items.push(this.value(depth + 1));
      this.space();
      if (this.text[this.at] === ":") throw new YamlError("a key: value pair inside a flow sequence is not read");
      if (this.take("]")) return items;
      if (!this.take(",")) throw this.expected("\",\" or \"]\"");
    }
  }

  private mapping(depth: number): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    const seen = new Set<string>();
    this.at++;
    for (;;) {
      this.space();
      if (this.take("}")) return out;
      const char = this.text[this.at];
      if (char === ",") throw this.expected("an entry");
      if (char === "[" || char === "{") throw new YamlError("a collection as a mapping key is not read");
      const quoted = char === '"' || char === "'";
      const key = quoted ? this.quoted() : this.plain();
      const problem = quoted ? undefined : plainKeyProblem(key);
      if (problem !== undefined) throw new YamlError(problem);
      if (seen.has(key)) throw new YamlError(`the key "${key.slice(0, 40)}" appears twice`);
      seen.add(key);
      this.space();
      let value: JsonValue = null;
      if (this.take(":")) {
        this.space();
        const next = this.text[this.at];
        if (next !== "," && next !== "}") value = this.value(depth + 1);
      }
      setOwn(out, key, value);
      this.space();
      if (this.take("}")) return out;
      if (!this.take(",")) throw this.expected("\",\" or \"}\"");
    }
  }

  /**
   * A quoted scalar, folded across the lines of the collection as in a block. Its lines are
   * handed over one at a time, from where it starts: cutting the rest of the text into lines for
   * each scalar made a list of many quoted items quadratic (55 KiB took 2.4 s).
   */
  private quoted(): string {
    let end = this.lineEnd(this.at);
    const { value, rest } = scanQuoted(this.text.slice(this.at, end), () => {
      if (end >= this.text.length) return undefined;
      const start = end + 1;
      end = this.lineEnd(start);
      return this.text.slice(start, end);
    });
    this.at = end - rest.length;
    return value;
  }

  /**
   * Where the line holding `from` ends. The breaks are found once, in one pass, and met in
   * order: the reader only moves forward, so a long line of many scalars is not searched again
   * for each of them.
   */
  private lineEnd(from: number): number {
    while (this.nextBreak < from) {
      const found = this.text.indexOf("\n", this.nextBreak + 1);
      this.nextBreak = found < 0 ? this.text.length : found;
    }
    return this.nextBreak;
  }

  /**
   * A plain scalar ends at a flow indicator, at `: ` (or `:` before one), or at a comment; its
   * lines fold as in a block. It cannot start with an indicator.
   */
  private plain(): string {
    // `-`, `?` and `:` start a plain scalar only before a character that may be in one.
    if (/^(?:[&*!|>'"%@`#]|[-?:](?:[ \t\n,[\]{}]|$))/.test(this.text.slice(this.at, this.at + 2))) {
      throw new YamlError(`"${this.text[this.at] ?? ""}" cannot start a value in a flow collection (anchors, aliases, tags, block scalars are not read)`);
    }
    const start = this.at;
    for (; this.at < this.text.length; this.at++) {
      const char = this.text[this.at] as string;
      if (ENDS_PLAIN.has(char)) break;
      if (char === ":" && /^:(?:[ \t\n,\]}]|$)/.test(this.text.slice(this.at, this.at + 2))) break;
      if (char === "#" && /[ \t\n]/.test(this.text[this.at - 1] ?? "")) break;
    }
    return foldLines(this.text.slice(start, this.at).split("\n").map((line) => trimWhite(line)));
  }

  /** White space, line breaks and comments (a `#` at a line's start or after white space). */
  private space(): void {
    for (;;) {
      const char = this.text[this.at];
      if (char === " " || char === "\t" || char === "\n") this.at++;
      else if (char === "#" && (this.at === 0 || /[ \t\n]/.test(this.text[this.at - 1] as string))) this.at = this.lineEnd(this.at);
      else return;
    }
  }

  private take(char: string): boolean {
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }

  private expected(what: string): YamlError {
    return new YamlError(`expected ${what} in a flow collection at "${this.text.slice(this.at, this.at + 20)}"`);
  }
}
