/**
 * Flow collections of YAML front matter: `[a, b]` and `{ key: value }`, nested, with quoted and
 * plain scalars. A collection may span lines; `FlowGatherer` says when its text is complete,
 * reading each line once, and `parseFlow` reads the gathered text.
 */
import type { JsonValue } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { YamlError, resolvePlain, scanQuoted } from "./skills-yaml-scalars.js";

/** Collections deeper than this are refused rather than read on the stack. */
export const MAX_DEPTH = 64;

/** Whether the brackets opened so far are closed, outside quotes. */
export class FlowGatherer {
  private open = 0;
  private quote: string | undefined;
  private escaped = false;

  /**
   * Feeds one more line: `done` once every bracket is closed; `content` is the line to read
   * (the whole of it when done, else without its comment).
   */
  feed(line: string): { done: boolean; content: string } {
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (this.quote !== undefined) {
        if (this.escaped) this.escaped = false;
        else if (char === "\\" && this.quote === '"') this.escaped = true;
        else if (char === this.quote) this.quote = undefined;
        continue;
      }
      // A quote opens a scalar only where one starts (an apostrophe inside a plain word does not).
      if ((char === '"' || char === "'") && (i === 0 || /[\s[{,:]/.test(line[i - 1] as string))) this.quote = char;
      else if (char === "[" || char === "{") this.open++;
      else if (char === "]" || char === "}") this.open--;
      else if (char === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) return { done: false, content: line.slice(0, i) };
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
      const key = char === '"' || char === "'" ? this.quoted() : this.plain();
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

  /** A quoted scalar, folded across the lines of the collection as in a block. */
  private quoted(): string {
    const lines = this.text.slice(this.at).split("\n");
    let next = 0;
    const { value, rest } = scanQuoted(lines[0] as string, () => lines[++next]);
    this.at = this.text.length - [rest, ...lines.slice(next + 1)].join("\n").length;
    return value;
  }

  /**
   * A plain scalar ends at a flow indicator, at `: ` (or `:` before one), or at a comment; its
   * lines fold as in a block. It cannot start with an indicator.
   */
  private plain(): string {
    if (/^(?:[&*!|>'"%@`#]|[-?:](?:[ \t\n]|$))/.test(this.text.slice(this.at, this.at + 2))) {
      throw new YamlError(`"${this.text[this.at] ?? ""}" cannot start a value in a flow collection (anchors, aliases, tags, block scalars are not read)`);
    }
    const start = this.at;
    for (; this.at < this.text.length; this.at++) {
      const char = this.text[this.at] as string;
      if (ENDS_PLAIN.has(char)) break;
      if (char === ":" && /^:(?:[ \t\n,\]}]|$)/.test(this.text.slice(this.at, this.at + 2))) break;
      if (char === "#" && /[ \t\n]/.test(this.text[this.at - 1] ?? "")) break;
    }
    return foldLines(this.text.slice(start, this.at).split("\n").map((line) => line.trim()));
  }

  private space(): void {
    while (this.text[this.at] === " " || this.text[this.at] === "\t" || this.text[this.at] === "\n") this.at++;
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
