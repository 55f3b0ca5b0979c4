/**
 * A reader for the YAML of SKILL.md front matter: the block structure (mappings, sequences,
 * indentation), over scalars (`skills-yaml-scalars.ts`) and flow collections
 * (`skills-yaml-flow.ts`). It reads what front matter is written in — mappings, sequences,
 * plain, quoted and block scalars, flow collections, comments — and refuses the rest (anchors,
 * aliases, tags, complex keys, directives, several documents, a key given twice) with a
 * `YamlError`: a skill whose front matter cannot be read cannot be compared with its entry, and
 * is not loaded. A host that needs all of YAML passes its own parser (`parseFrontmatter`).
 *
 * Plain scalars take their 1.2 core-schema type (`1.0` is a number, `yes` a string). A key is
 * a string: a plain key YAML reads as something else is taken only where JSON writes that value
 * as the key is written (`1`, `true`); `1.0`, `0x1F`, `True` or `null` as a key is refused,
 * since YAML libraries render it to JSON differently (`"1"` or `"1.0"`, `""` or `"null"`).
 */
import type { JsonValue } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { FlowGatherer, MAX_DEPTH, parseFlow } from "./skills-yaml-flow.js";
import { YamlError, blockHeader, blockValue, checkPlain, commentStart, isBlank, plainKeyProblem, resolvePlain, scanQuoted, trimWhite, withoutComment } from "./skills-yaml-scalars.js";

export { YamlError } from "./skills-yaml-scalars.js";

/** The value of one YAML document (null when it holds nothing). */
export function parseYaml(source: string): JsonValue {
  // YAML 1.2 takes a carriage return alone for a line break, the `yaml` package not always (it
  // is white space after a colon, text elsewhere); a byte order mark it drops at the start of a
  // line, or refuses before a `-`: no reading of either is sure. (SKILL.md's own mark, before
  // its first `---`, is not part of the front matter.)
  if (LONE_CR.test(source)) throw new YamlError("front matter: a carriage return not followed by a line feed is read differently by YAML libraries");
  if (source.includes("\ufeff")) throw new YamlError("front matter: a byte order mark is read differently by YAML libraries");
  const lines = source.split(/\r?\n/);
  // A line break ends the line before it: it does not begin an empty line (a `|+` scalar at the
  // end would keep one line break too many).
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return new BlockReader(lines).document();
}

const LONE_CR = /\r(?!\n)/;
const isSequenceItem = (content: string): boolean => content === "-" || content.startsWith("- ") || content.startsWith("-\t");
const NOT_A_KEY_START = /^(?:[[\]{},&*!|>%@`#]|[?:-](?:[ \t]|$))/;

class BlockReader {
  private i = 0;

  constructor(private readonly lines: string[]) {}

  document(): JsonValue {
    this.skipEmpty();
    if (this.i >= this.lines.length) return null;
    const value = this.block(this.indentAt(this.i), 0, -1);
    this.skipEmpty();
    if (this.i < this.lines.length) throw this.fail("this line is not part of what comes before it (indentation?)");
    return value;
  }

  /** The node that starts on the current line at `indent`; `parent` is the indentation it belongs to. */
  private block(indent: number, depth: number, parent: number): JsonValue {
    if (depth > MAX_DEPTH) throw this.fail(`collections nest deeper than ${MAX_DEPTH}`);
    const content = this.line(this.i).slice(indent);
    if (isSequenceItem(content)) return this.sequence(indent, depth);
    if (this.key(content) !== undefined) return this.mapping(indent, depth);
    this.i++;
    return this.inline(content, parent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    const seen = new Set<string>();
    for (this.skipEmpty(); this.i < this.lines.length; this.skipEmpty()) {
      const at = this.indentAt(this.i);
      if (at < indent) break;
      if (at > indent) throw this.fail("this line is indented more than the keys before it");
      const key = this.key(this.line(this.i).slice(indent));
      if (key === undefined) throw this.fail("expected a key: value line");
      const problem = key.quoted ? undefined : plainKeyProblem(key.name);
      if (problem !== undefined) throw this.fail(problem);
      if (seen.has(key.name)) throw this.fail(`the key "${key.name.slice(0, 40)}" appears twice`);
      seen.add(key.name);
      this.i++;
      setOwn(out, key.name, this.valueAfter(key.rest, indent, depth));
    }
    return out;
  }

  private sequence(indent: number, depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    for (this.skipEmpty(); this.i < this.lines.length; this.skipEmpty()) {
      const at = this.indentAt(this.i);
      if (at < indent) break;
      if (at > indent) throw this.fail("this line is indented more than the items before it");
      const content = this.line(this.i).slice(indent);
      // A key at the indentation of an indentless sequence ends it and goes on with its mapping.
      if (!isSequenceItem(content)) break;
      const after = content.slice(1);
      const rest = after.replace(/^[ \t]+/, "");
      if (rest === "" || rest.startsWith("#")) {
        this.i++;
        items.push(this.nested(indent, depth, false));
        continue;
      }
      // The item's node starts after the dash: the line is read again as if it started there,
      // so that `- key: value` and the keys under it line up as a mapping does. A tab there
      // would indent that collection (`-\tkey: value`).
      const column = indent + 1 + (after.length - rest.length);
      if (after.slice(0, after.length - rest.length).includes("\t") && (isSequenceItem(rest) || this.key(rest) !== undefined)) {
        throw this.fail("a tab indents this line (YAML indents with spaces)");
      }
      this.lines[this.i] = " ".repeat(column) + rest;
      items.push(this.block(column, depth + 1, indent));
    }
    return items;
  }

  /** The value after `key:`, on its line (`rest`) or on the lines under it. */
  private valueAfter(rest: string, indent: number, depth: number): JsonValue {
    const value = rest.replace(/^[ \t]+/, "");
    if (value === "" || value.startsWith("#")) return this.nested(indent, depth, true);
    return this.inline(value, indent, depth);
  }

  /** A node on the lines under one at `indent`, or null; a mapping's value may be a sequence at its own indentation. */
  private nested(indent: number, depth: number, indentless: boolean): JsonValue {
    this.skipEmpty();
    if (this.i >= this.lines.length) return null;
    const at = this.indentAt(this.i);
    if (at > indent) return this.block(at, depth + 1, indent);
    if (indentless && at === indent && isSequenceItem(this.line(this.i).slice(at))) return this.sequence(at, depth + 1);
    return null;
  }

  /** A node that starts within a line (its start consumed): a scalar or a flow collection. */
  private inline(text: string, parent: number, depth: number): JsonValue {
    const first = text[0] as string;
    if ("&*!".includes(first)) throw this.fail("anchors, aliases and tags are not read");
    if ("%@`]},".includes(first)) throw this.fail(`"${first}" cannot start a value`);
    if (/^[?-](?:[ \t]|$)/.test(text)) throw this.fail(`"${first} " cannot start a value on this line`);
    if (first === "|" || first === ">") return this.blockScalar(text, parent);
    if (first === '"' || first === "'") return this.quoted(text, parent);
    if (first === "[" || first === "{") return this.flow(text, parent, depth);
    return this.plain(text, parent);
  }

  private plain(text: string, parent: number): JsonValue {
    const first = withoutComment(text);
    checkPlain(first);
    let value = first;
    let breaks = 0;
    let continued = false;
    // A comment ends a plain scalar: no line after it continues the value.
    let open = commentStart(text) < 0;
    while (open && this.i < this.lines.length) {
      const line = this.line(this.i);
      if (isBlank(line)) {
        this.noTabIndent(line, parent);
        breaks++;
        this.i++;
        continue;
      }
      const text = trimWhite(line);
      if (this.indentAt(this.i) <= parent || text.startsWith("#")) break;
      const more = withoutComment(text);
      checkPlain(more);
      value += (breaks === 0 ? " " : "\n".repeat(breaks)) + more;
      breaks = 0;
      continued = true;
      open = commentStart(text) < 0;
      this.i++;
    }
    // A value of several lines is text, whatever its words.
    return continued ? value : resolvePlain(value);
  }

  private quoted(text: string, parent: number): string {
    const { value, rest } = scanQuoted(text, () => this.continuation(parent));
    this.endOfValue(rest);
    return value;
  }

  private flow(text: string, parent: number, depth: number): JsonValue {
    const gatherer = new FlowGatherer();
    const lines: string[] = [];
    for (let piece = gatherer.feed(text); ; ) {
      lines.push(piece.content);
      if (piece.done) break;
      const line = this.continuation(parent, gatherer.lastOpen);
      if (line === undefined) throw this.fail("a flow collection is not closed");
      // Whole: the white space at its end may be an escape's (`"\ `).
      piece = gatherer.feed(line);
    }
    const { value, rest } = parseFlow(lines.join("\n"), depth);
    this.endOfValue(rest);
    return value;
  }

  /**
   * The next line of a value that spans lines: it must be indented under the value's parent.
   * A line that begins with the bracket closing a whole flow collection (`closing`) may stand at
   * the parent's indentation, not before it.
   */
  private continuation(parent: number, closing = false): string | undefined {
    if (this.i >= this.lines.length) return undefined;
    const line = this.line(this.i);
    const spaces = this.noTabIndent(line, parent);
    const closes = closing && /^ *[\]}]/.test(line);
    if (!isBlank(line) && (spaces < parent || (spaces === parent && !closes))) throw this.fail("a value that goes on to this line must be indented more");
    this.i++;
    return line;
  }

  /**
   * The spaces that begin a line under `parent`. A tab may separate, but not stand where the
   * indentation is (YAML 1.2 6.1): not even on a line of white space alone, or before a closing
   * bracket.
   */
  private noTabIndent(line: string, parent: number): number {
    const spaces = leadingSpaces(line);
    if (line[spaces] === "\t" && spaces <= parent) throw this.fail("a tab indents this line (YAML indents with spaces)");
    return spaces;
  }

  /** `|` or `>`: the lines indented under `parent` (by the first of them, or as the header says). */
  private blockScalar(text: string, parent: number): string {
    const header = blockHeader(text);
    let indent = header.indent === undefined ? undefined : Math.max(parent, 0) + header.indent;
    const lines: string[] = [];
    // Empty lines before the first line of text may not be indented more than it (YAML 1.2 8.1.1.1).
    let leading = 0;
    for (; this.i < this.lines.length; this.i++) {
      const line = this.line(this.i);
      const at = leadingSpaces(line);
      if (isBlank(line)) {
        if (at < line.length && (indent === undefined || at < indent)) throw this.fail("a tab indents this line (YAML indents with spaces)");
        if (indent === undefined) leading = Math.max(leading, line.length);
        // White space past the indentation is the line's text (a line of spaces is kept).
        lines.push(indent !== undefined && line.length > indent ? line.slice(indent) : "");
        continue;
      }
      // A tab in the indentation, even of a comment line that ends the scalar.
      if (line[at] === "\t" && (indent === undefined || at < indent)) throw this.fail("a tab indents this line (YAML indents with spaces)");
      if (indent === undefined && leading > at && at > parent) throw this.fail("an empty line before a block scalar's text is indented more than the text");
      indent ??= at;
      if (at < indent || at <= parent) break;
      lines.push(line.slice(indent));
    }
    // PyYAML keeps such a line as text, the `yaml` package drops it: no reading is sure.
    if (header.indent !== undefined && endsInWhiteLine(lines)) throw this.fail("a line of white space alone at the end of a block scalar with an indentation indicator is read differently by YAML libraries");
    return blockValue(lines, header);
  }

  /** After a closed value only a comment may follow on its line. */
  private endOfValue(rest: string): void {
    const trimmed = trimWhite(rest);
    if (trimmed !== "" && !(trimmed.startsWith("#") && /^[ \t]/.test(rest))) throw this.fail(`unexpected "${trimmed.slice(0, 20)}" after a value`);
  }

  /** A `key:` line: its key (quoted or plain) and what follows the colon. */
  private key(content: string): { name: string; quoted: boolean; rest: string } | undefined {
    if (content.startsWith('"') || content.startsWith("'")) {
      let scanned: { value: string; rest: string };
      try {
        scanned = scanQuoted(content, () => undefined);
      } catch {
        return undefined;
      }
      const colon = /^[ \t]*:(?:[ \t]|$)/.exec(scanned.rest);
      return colon === null ? undefined : { name: scanned.value, quoted: true, rest: scanned.rest.slice(colon[0].length) };
    }
    if (NOT_A_KEY_START.test(content)) return undefined;
    const end = commentStart(content);
    const colon = /:(?:[ \t]|$)/.exec(end < 0 ? content : content.slice(0, end));
    if (colon === null) return undefined;
    const name = trimWhite(content.slice(0, colon.index), false);
    return name === "" ? undefined : { name, quoted: false, rest: content.slice(colon.index + 1) };
  }

  private skipEmpty(): void {
    while (this.i < this.lines.length) {
      const trimmed = trimWhite(this.line(this.i));
      if (trimmed !== "" && !trimmed.startsWith("#")) return;
      this.i++;
    }
  }

  /** The indentation of line `i`; a tab cannot indent YAML. */
  private indentAt(i: number): number {
    const line = this.line(i);
    const spaces = leadingSpaces(line);
    if (line[spaces] === "\t") throw this.fail("a tab indents this line (YAML indents with spaces)", i);
    return spaces;
  }

  private line(i: number): string {
    const line = this.lines[i] as string;
    if (/^(?:---|\.\.\.)(?:[ \t]|$)/.test(line) || (i === 0 && line.startsWith("%"))) throw this.fail("a second document or a directive is not read", i);
    return line;
  }

  private fail(message: string, line = this.i): YamlError {
    return new YamlError(`front matter line ${line + 1}: ${message}`);
  }
}

/** Whether the last of a block scalar's lines with anything in them holds white space alone. */
function endsInWhiteLine(lines: readonly string[]): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (line !== "") return isBlank(line);
  }
  return false;
}

function leadingSpaces(line: string): number {
  let count = 0;
  while (line[count] === " ") count++;
  return count;
}
