// Generated YAML documents for the differential test of the front matter reader
// (fuzz-yaml.test.ts): a tree of nodes, each with the choices of how it is written (block or
// flow, plain or quoted, folded across lines or not, a comment after it), written out by
// `render`. Every document is in the subset the reader says it reads; `mutated` then breaks
// some of them, a character or a line at a time, for the documents it must refuse or read as
// `yaml` does.
import fc from "fast-check";

/** A scalar as written in a block or a flow collection. */
export type Scalar =
  | { kind: "plain"; words: string[]; breaks: number[] }
  | { kind: "single"; text: string; breaks: number[] }
  | { kind: "double"; pieces: string[] }
  | { kind: "empty" };

export interface BlockScalar {
  kind: "block";
  style: "|" | ">";
  chomp: "" | "-" | "+";
  /** An explicit indentation indicator (1-4), or 0 for none. */
  indicator: number;
  lines: string[];
  comment: boolean;
}

export type FlowNode = Scalar | { kind: "fseq"; items: FlowNode[]; spread: boolean; trailingComma: boolean } | { kind: "fmap"; entries: Array<[Key, FlowNode | null]>; spread: boolean };

export type Node = Scalar | BlockScalar | FlowNode | { kind: "bmap"; entries: Array<[Key, Node]>; extra: number; comment: boolean } | { kind: "bseq"; items: Node[]; indentless: boolean; nextLine: boolean };

export interface Key {
  text: string;
  style: "plain" | "single" | "double";
}

// --- scalars -----------------------------------------------------------------------------------

/** Characters a plain word may hold anywhere; `:` and `#` only inside a word (see `plainWord`). */
const WORD_CHAR = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGZ0123456789._/()~+=$^;\\é😀");
/** Words the core schema types: numbers in each notation, booleans, nulls, and near misses. */
const TYPED_WORD = fc.constantFrom(
  "0", "-0", "+1", "42", "-7", "007", "0o17", "0o8", "0x1F", "0xg", "1.5", "-2.5e3", ".5", "5.", "1e400", "1_000", ".inf", "-.Inf", ".NaN", ".nan.",
  "true", "True", "TRUE", "tRUE", "false", "null", "Null", "NULL", "~", "yes", "no", "on", "2024-01-01", "1.0.0",
);
const plainWord = fc.oneof(
  { weight: 6, arbitrary: fc.array(WORD_CHAR, { minLength: 1, maxLength: 6 }).map((chars) => chars.join("")) },
  { weight: 1, arbitrary: fc.tuple(fc.array(WORD_CHAR, { minLength: 1, maxLength: 3 }), fc.constantFrom(":", "#", "-", "'", '"', "?"), fc.array(WORD_CHAR, { minLength: 1, maxLength: 3 })).map(([a, mark, b]) => a.join("") + mark + b.join("")) },
  { weight: 2, arbitrary: TYPED_WORD },
);
/** Where a plain or single-quoted scalar breaks its line: 1 a line break, 2 an empty line between. */
const breaksFor = (count: number) => fc.array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: count, maxLength: count });

const plain: fc.Arbitrary<Scalar> = fc
  .array(plainWord, { minLength: 1, maxLength: 4 })
  .chain((words) => breaksFor(words.length - 1).map((breaks): Scalar => ({ kind: "plain", words, breaks })));

const QUOTED_CHAR = fc.constantFrom(..."ab z'\"#:-[]{},&*!|>%@`\\\t é😀\u202e\u200b");
const single: fc.Arbitrary<Scalar> = fc
  .array(QUOTED_CHAR, { maxLength: 12 })
  .map((chars) => chars.join(""))
  .chain((text) => breaksFor(text.split(" ").length - 1).map((breaks): Scalar => ({ kind: "single", text, breaks })));

/** Pieces of a double-quoted scalar: characters, escapes, and line breaks (folded or escaped). */
const DOUBLE_PIECE = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(..."ab z'#:-[]{},&*!|>\t é😀\u202e") },
  { weight: 3, arbitrary: fc.constantFrom("\\\\", '\\"', "\\n", "\\t", "\\0", "\\a", "\\b", "\\e", "\\f", "\\r", "\\v", "\\/", "\\ ", "\\_", "\\N", "\\L", "\\P", "\\x41", "\\u00e9", "\\U0001F600", "\\ud800", "\\\t") },
  { weight: 1, arbitrary: fc.constantFrom("\n", "\n\n", "\\\n", "  \n", "\n   ") },
);
const double: fc.Arbitrary<Scalar> = fc.array(DOUBLE_PIECE, { maxLength: 12 }).map((pieces): Scalar => ({ kind: "double", pieces }));

const BLOCK_LINE = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(..."ab z#:-'\"é"), { minLength: 1, maxLength: 8 }).map((c) => c.join("").trim() || "x") },
  { weight: 1, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.constantFrom("  indented", " one more", "\tafter a tab", "# not a comment", "key: not a key", "- not an item", "---x", "   ", " \t") },
);
const block: fc.Arbitrary<BlockScalar> = fc.record({
  kind: fc.constant("block" as const),
  style: fc.constantFrom("|" as const, ">" as const),
  chomp: fc.constantFrom("" as const, "-" as const, "+" as const),
  indicator: fc.constantFrom(0, 0, 0, 1, 2, 4),
  lines: fc.tuple(fc.array(fc.constant(""), { maxLength: 1 }), BLOCK_LINE.filter((l) => l !== "" && !/^[ \t]/.test(l)), fc.array(BLOCK_LINE, { maxLength: 4 }), fc.array(fc.constant(""), { maxLength: 2 })).map(([before, first, rest, after]) => [...before, first, ...rest, ...after]),
  comment: fc.boolean(),
});

const scalar = fc.oneof({ weight: 4, arbitrary: plain }, { weight: 2, arbitrary: single }, { weight: 2, arbitrary: double }, { weight: 1, arbitrary: fc.constant<Scalar>({ kind: "empty" }) });
/** A plain scalar of a flow collection: on one line (its words hold no flow indicator). */
const flowPlain: fc.Arbitrary<Scalar> = fc.array(plainWord, { minLength: 1, maxLength: 4 }).map((words): Scalar => ({ kind: "plain", words, breaks: words.slice(1).map(() => 0) }));
const flowScalar = fc.oneof({ weight: 4, arbitrary: flowPlain }, { weight: 2, arbitrary: single }, { weight: 2, arbitrary: double });

const key: fc.Arbitrary<Key> = fc.oneof(
  { weight: 6, arbitrary: fc.array(WORD_CHAR, { minLength: 1, maxLength: 8 }).map((c) => ({ text: c.join(""), style: "plain" as const })) },
  { weight: 1, arbitrary: fc.constantFrom("name", "description", "license", "allowed-tools", "metadata", "two words", "__proto__", "constructor", "1", "1.0", "true", "True", "null", "~", "0x1F", "a:b", "a#b").map((text) => ({ text, style: "plain" as const })) },
  { weight: 2, arbitrary: fc.tuple(fc.array(QUOTED_CHAR, { maxLength: 6 }), fc.constantFrom("single" as const, "double" as const)).map(([c, style]) => ({ text: c.join(""), style })) },
);
// The core schema's words, written out here rather than taken from the reader.
const NULL_WORD = /^(?:~|null|Null|NULL)$/;
const BOOL_WORD = /^(?:true|True|TRUE|false|False|FALSE)$/;
const NUMBER_WORD = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** The key `k` makes in JSON, near enough: `1` and `01` are one key, `true` and `True` too. */
function jsonKey(k: Key): string {
  if (k.style !== "plain") return k.text;
  if (NULL_WORD.test(k.text)) return "";
  if (BOOL_WORD.test(k.text)) return k.text.toLowerCase();
  return NUMBER_WORD.test(k.text) ? String(Number(k.text)) : k.text;
}
/** Keys once each, by the key they make: `a` and `'a'` are the same key. */
const keys = <T>(value: fc.Arbitrary<T>, max: number) => fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: max, selector: ([k]) => jsonKey(k) });

// --- collections -------------------------------------------------------------------------------

const { flow } = fc.letrec<{ flow: FlowNode; fseq: FlowNode; fmap: FlowNode }>((tie) => ({
  flow: fc.oneof({ depthSize: "small", withCrossShrink: true }, flowScalar, tie("fseq"), tie("fmap")),
  fseq: fc.record({ kind: fc.constant("fseq" as const), items: fc.array(tie("flow"), { maxLength: 3 }), spread: fc.boolean(), trailingComma: fc.boolean() }),
  fmap: fc.record({ kind: fc.constant("fmap" as const), entries: keys(fc.option(tie("flow"), { freq: 4 }), 3), spread: fc.boolean() }),
}));

const { node } = fc.letrec<{ node: Node; bmap: Node; bseq: Node }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, block, flow, tie("bmap"), tie("bseq")),
  bmap: fc.record({ kind: fc.constant("bmap" as const), entries: keys(tie("node"), 3), extra: fc.constantFrom(0, 0, 1, 2), comment: fc.boolean() }),
  bseq: fc.record({ kind: fc.constant("bseq" as const), items: fc.array(tie("node"), { minLength: 1, maxLength: 3 }), indentless: fc.boolean(), nextLine: fc.boolean() }),
}));

/** A front matter: a block mapping at the top, as SKILL.md has, now and then a sequence or a scalar. */
export const documentTree: fc.Arbitrary<Node> = fc.oneof(
  { weight: 8, arbitrary: keys(node, 4).map((entries): Node => ({ kind: "bmap", entries, extra: 0, comment: false })) },
  { weight: 1, arbitrary: node },
);

// --- writing -----------------------------------------------------------------------------------

const spaces = (n: number) => " ".repeat(n);

function quoteSingle(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function quoteDouble(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function keyText(k: Key): string {
  return k.style === "plain" ? k.text : k.style === "single" ? quoteSingle(k.text) : quoteDouble(k.text);
}

/** A scalar's lines: the first goes after what precedes it, the others are indented by `cont`. */
function scalarLines(s: Scalar, cont: number, inFlow: boolean): string[] {
  switch (s.kind) {
    case "empty":
      return [""];
    case "plain":
      return joinWords(s.words, inFlow ? s.breaks.map(() => 0) : s.breaks, cont);
    case "single": {
      const words = quoteSingle(s.text).split(" ");
      return joinWords(words, s.breaks, cont);
    }
    case "double":
      return `"${s.pieces.join("")}"`.split("\n").map((line, i) => (i === 0 ? line : spaces(cont) + line));
  }
}

function joinWords(words: string[], breaks: readonly number[], cont: number): string[] {
  const lines = [words[0] ?? ""];
  words.slice(1).forEach((word, i) => {
    const gap = breaks[i] ?? 0;
    if (gap === 0) lines[lines.length - 1] += ` ${word}`;
    else lines.push(...(gap === 2 ? [""] : []), spaces(cont) + word);
  });
  return lines;
}

function flowLines(f: FlowNode, cont: number): string[] {
  if (f.kind !== "fseq" && f.kind !== "fmap") return scalarLines(f, cont, true);
  const parts = f.kind === "fseq" ? f.items.map((item) => flowLines(item, cont + 2)) : f.entries.map(([k, v]) => (v === null ? [keyText(k)] : glue(`${keyText(k)}: `, flowLines(v, cont + 2))));
  const [open, close] = f.kind === "fseq" ? ["[", "]"] : ["{", "}"];
  const comma = f.kind === "fseq" && f.trailingComma && parts.length > 0 ? "," : "";
  if (!f.spread) return glue(open, [...joinParts(parts, ", "), ...[]]).map((line, i, all) => (i === all.length - 1 ? line + comma + close : line));
  // One item a line, each indented under the collection, the closing bracket on its own line.
  const lines = [open];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    part.forEach((line, j) => lines.push((j === 0 ? spaces(cont + 2) : "") + line + (j === part.length - 1 && (!last || comma !== "") ? "," : "")));
  });
  lines.push(spaces(cont) + close);
  return lines;
}

/** `prefix` before the first of `lines`. */
function glue(prefix: string, lines: string[]): string[] {
  return [prefix + (lines[0] ?? ""), ...lines.slice(1)];
}

function joinParts(parts: string[][], separator: string): string[] {
  const out: string[] = [""];
  parts.forEach((part, i) => {
    out[out.length - 1] += (i === 0 ? "" : separator) + (part[0] ?? "");
    out.push(...part.slice(1));
  });
  return out;
}

function blockLines(b: BlockScalar, parent: number): string[] {
  const indent = parent + (b.indicator === 0 ? 2 : b.indicator);
  const header = `${b.style}${b.chomp}${b.indicator === 0 ? "" : b.indicator}${b.comment ? " # header" : ""}`;
  return [header, ...b.lines.map((line) => (line === "" ? "" : spaces(indent) + line))];
}

/** The lines of `n` as the value of a key at `indent`; the first follows `key:`. */
function valueLines(n: Node, indent: number): string[] {
  switch (n.kind) {
    case "bmap":
      return [n.comment ? " # a mapping" : "", ...mapLines(n.entries, indent + 2 + n.extra)];
    case "bseq":
      return ["", ...seqLines(n.items, n.indentless ? indent : indent + 2)];
    case "block":
      return glue(" ", blockLines(n, indent));
    case "fseq":
    case "fmap":
      return glue(" ", flowLines(n, indent + 2));
    default:
      return n.kind === "empty" ? [""] : glue(" ", scalarLines(n, indent + 2, false));
  }
}

function mapLines(entries: Array<[Key, Node]>, indent: number): string[] {
  return entries.flatMap(([k, v]) => glue(`${spaces(indent)}${keyText(k)}:`, valueLines(v, indent)));
}

function seqLines(items: Node[], indent: number): string[] {
  return items.flatMap((item) => {
    const dash = `${spaces(indent)}-`;
    if (item.kind === "bmap" || item.kind === "bseq") {
      const inner = item.kind === "bmap" ? mapLines(item.entries, indent + 2) : seqLines(item.items, indent + 2);
      // On the dash's line, or under it.
      if (item.kind === "bseq" && item.nextLine) return [dash, ...inner];
      return [dash + " " + (inner[0] ?? "").slice(indent + 2), ...inner.slice(1)];
    }
    return glue(dash, valueLines(item, indent));
  });
}

/** The document's text: the lines of its top node, with a comment line now and then. */
export function render(tree: Node): string {
  const lines = tree.kind === "bmap" ? mapLines(tree.entries, 0) : tree.kind === "bseq" ? seqLines(tree.items, 0) : glue("", valueLines(tree, 0)).map((line, i) => (i === 0 ? line.trimStart() : line));
  return lines.join("\n");
}

// --- breaking ----------------------------------------------------------------------------------

/** What is put into a document to break it: YAML the reader refuses, and near misses. */
const INSERT = fc.constantFrom(
  "&a ", "*a", "!!str ", "!t ", "? ", ": ", "- ", "---", "...", "%YAML 1.2", "#", " #", "\t", "[", "]", "{", "}", ",", "'", '"', "\\", "|", ">", "|+", ">-2", "@", "`", "\u00a0", "\ufeff", "\r", "\n", "\n  ", "\n- ", "\nk: v", "a: b: c",
);

type Edit = { at: number; kind: "insert"; text: string } | { at: number; kind: "delete"; length: number } | { at: number; kind: "indent"; by: number } | { at: number; kind: "swap" };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant("insert" as const), text: INSERT }),
  fc.record({ at: fc.nat(), kind: fc.constant("delete" as const), length: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ at: fc.nat(), kind: fc.constant("indent" as const), by: fc.integer({ min: -2, max: 2 }) }),
  fc.record({ at: fc.nat(), kind: fc.constant("swap" as const) }),
);

function apply(text: string, e: Edit): string {
  const at = e.at % (text.length + 1);
  switch (e.kind) {
    case "insert":
      return text.slice(0, at) + e.text + text.slice(at);
    case "delete":
      return text.slice(0, at) + text.slice(at + e.length);
    case "indent": {
      const lines = text.split("\n");
      const i = e.at % lines.length;
      lines[i] = e.by > 0 ? spaces(e.by) + (lines[i] as string) : (lines[i] as string).replace(new RegExp(`^ {0,${-e.by}}`), "");
      return lines.join("\n");
    }
    case "swap": {
      const lines = text.split("\n");
      const i = e.at % lines.length;
      const j = (i + 1) % lines.length;
      [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
      return lines.join("\n");
    }
  }
}

/** A generated document with one to three edits made to it. */
export const mutated: fc.Arbitrary<string> = fc.tuple(documentTree.map(render), fc.array(edit, { minLength: 1, maxLength: 3 })).map(([text, edits]) => edits.reduce(apply, text));
