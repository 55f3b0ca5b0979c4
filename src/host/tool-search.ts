/**
 * Ranked search over the catalog's tools, for catalogs too big to paste into a prompt: BM25 over
 * the fields a model would read (the name, the title, the description, the parameters' names and
 * descriptions), each field weighted, as one document per tool (BM25F's simple form: weighted
 * term counts and a weighted length).
 *
 * The index is made per server, from that server's part of the catalog, and kept while the part
 * is the same array: a `list_changed` on one server rebuilds that server's index alone. The
 * collection's statistics (how many tools, their mean length, in how many tools a term is) are
 * summed over the servers at query time, so that a score means the same whichever server a tool
 * is on. Ties are broken by qualified name: the same catalog and query give the same order.
 */
import { InvalidArgumentError } from "../util/errors.js";
import type { CatalogTool } from "./catalog.js";

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** How much a word counts in each field. */
const WEIGHTS = { name: 3, title: 2, description: 1, parameter: 2, parameterDescription: 0.5 } as const;

/** A query of more than this is a caller's mistake (a prompt pasted whole), not a search. */
export const MAX_QUERY_CHARS = 1_000;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 1_000;
/** Of a description, the words read. */
const MAX_WORDS_PER_FIELD = 2_000;
/**
 * Of a field, the characters read (enough for 2 000 words of prose): a server's 1 MB description
 * costs no more than this, since the case splitting and the split into words run over the whole
 * text before any word is counted.
 */
export const MAX_FIELD_CHARS = 32 * 1024;

/** Words too common to tell tools apart. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  "a an and are as at be by can for from has have in into is it its of on or that the this to was will with you your".split(" "),
);

export interface ToolSearchHit {
  readonly tool: CatalogTool;
  /** BM25 score: higher is a better match; comparable within one search only. */
  readonly score: number;
}

/** One server's tools, indexed. */
export interface PartIndex {
  readonly tools: readonly CatalogTool[];
  /** Per term, the tools holding it and its weighted count in each. */
  readonly postings: ReadonlyMap<string, { readonly docs: Uint32Array; readonly weights: Float32Array }>;
  /** Weighted length of each tool's document. */
  readonly lengths: Float32Array;
  readonly totalLength: number;
  /** Each tool's name and qualified name, folded, for the boost of a query that is a name. */
  readonly names: readonly string[];
}

/**
 * The words of a text: lower case, split at anything not a letter or digit and at camelCase
 * boundaries (`createIssue`, `get_file_contents`), a plural's `s` dropped, stop words left out.
 */
export function words(text: string, max = MAX_WORDS_PER_FIELD): string[] {
  const out: string[] = [];
  const read = text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
  // `HTMLParser` → `HTML Parser` by a lookahead: `([A-Z]+)([A-Z][a-z])` backtracks over a run
  // of capitals from each of its letters, quadratic (a minute for 64 K of them).
  const spaced = read.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])(?=[A-Z][a-z])/g, "$1 ").toLowerCase();
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    out.push(stem(raw));
    if (out.length >= max) break;
  }
  return out;
}

/** The lightest of stemming: plurals. Enough to meet "issues" with "issue", never wrong by much. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

function fold(name: string): string {
  return words(name).join(" ");
}

export function indexPart(tools: readonly CatalogTool[]): PartIndex {
  const counts = new Map<string, { docs: number[]; weights: number[] }>();
  const lengths = new Float32Array(tools.length);
  const names: string[] = [];
  let totalLength = 0;
  // Parameter names and short titles repeat across a server's tools (`owner`, `repo`, `path`):
  // each is split once per build.
  const short = new Map<string, string[]>();
  const wordsOf = (text: string): string[] => {
    if (text.length > 64) return words(text);
    let split = short.get(text);
    if (split === undefined) short.set(text, (split = words(text)));
    return split;
  };
  tools.forEach((tool, doc) => {
    const bag = new Map<string, number>();
    let length = 0;
    const add = (text: unknown, weight: number): void => {
      if (typeof text !== "string" || text === "") return;
      for (const word of wordsOf(text)) {
        bag.set(word, (bag.get(word) ?? 0) + weight);
        length += weight;
      }
    };
    add(tool.name, WEIGHTS.name);
    add(tool.title, WEIGHTS.title);
    add(tool.description, WEIGHTS.description);
    // The parameters, and those of the objects they hold (an array of relations, each `from` and
    // `to`), a level less each time; a schema of ten thousand parameters is read no further
    // than 200 of them.
    let budget = 200;
    const walk = (schema: unknown, weight: number, depth: number): void => {
      for (const [name, property] of propertiesOf(schema)) {
        if (--budget < 0) return;
        add(name, weight);
        if (typeof property !== "object" || property === null) continue;
        add((property as { description?: unknown }).description, WEIGHTS.parameterDescription);
        if (depth < 2) {
          walk(property, WEIGHTS.parameterDescription, depth + 1);
          walk((property as { items?: unknown }).items, WEIGHTS.parameterDescription, depth + 1);
        }
      }
    };
    walk(tool.inputSchema, WEIGHTS.parameter, 0);
    for (const [word, weight] of bag) {
      let posting = counts.get(word);
      if (posting === undefined) counts.set(word, (posting = { docs: [], weights: [] }));
      posting.docs.push(doc);
      posting.weights.push(weight);
    }
    lengths[doc] = length;
    totalLength += length;
    names.push(`${fold(tool.name)}\u0000${fold(tool.qualifiedName)}`);
  });
  const postings = new Map<string, { docs: Uint32Array; weights: Float32Array }>();
  for (const [word, posting] of counts) postings.set(word, { docs: Uint32Array.from(posting.docs), weights: Float32Array.from(posting.weights) });
  return { tools, postings, lengths, totalLength, names };
}

function propertiesOf(schema: unknown): [string, unknown][] {
  if (typeof schema !== "object" || schema === null) return [];
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return [];
  return Object.entries(properties as Record<string, unknown>);
}

/** Checks a search's query and limit as given by a caller. */
export function searchArguments(query: unknown, limit: unknown): { terms: string[]; folded: string; limit: number } {
  if (typeof query !== "string") throw new InvalidArgumentError("a tool search's query must be a string");
  if (query.length > MAX_QUERY_CHARS) throw new InvalidArgumentError(`a tool search's query must be at most ${MAX_QUERY_CHARS} characters`);
  const chosen = limit ?? DEFAULT_SEARCH_LIMIT;
  if (typeof chosen !== "number" || !Number.isInteger(chosen) || chosen < 1 || chosen > MAX_SEARCH_LIMIT) {
    throw new InvalidArgumentError(`a tool search's \`limit\` must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  const terms = [...new Set(words(query, 64))];
  return { terms, folded: terms.length === 0 ? "" : fold(query), limit: chosen };
}

/** The best `limit` tools of the parts for the query's terms; none when no term is in any tool. */
export function rank(parts: readonly PartIndex[], terms: readonly string[], folded: string, limit: number): ToolSearchHit[] {
  let count = 0;
  let totalLength = 0;
  for (const part of parts) {
    count += part.tools.length;
    totalLength += part.totalLength;
  }
  if (count === 0 || terms.length === 0) return [];
  const meanLength = totalLength / count || 1;
  const idf = new Map<string, number>();
  for (const term of terms) {
    let df = 0;
    for (const part of parts) df += part.postings.get(term)?.docs.length ?? 0;
    if (df > 0) idf.set(term, Math.log(1 + (count - df + 0.5) / (df + 0.5)));
  }
  if (idf.size === 0) return [];
  const top = new TopHits(limit);
  for (const part of parts) {
    const scores = new Map<number, number>();
    for (const [term, weight] of idf) {
      const posting = part.postings.get(term);
      if (posting === undefined) continue;
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i]!;
        const tf = posting.weights[i]!;
        const norm = K1 * (1 - B + (B * part.lengths[doc]!) / meanLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (weight * (tf * (K1 + 1))) / (tf + norm));
      }
    }
    for (const [doc, score] of scores) {
      const [name, qualified] = part.names[doc]!.split("\u0000");
      // A query that is a tool's name (in any spelling: get_file, getFile, "get file") is that tool.
      const boosted = folded !== "" && (folded === name || folded === qualified) ? score * 2 + 10 : score;
      top.offer({ tool: part.tools[doc]!, score: boosted });
    }
  }
  return top.hits;
}

/** Better first: the higher score, then the qualified name that sorts first. */
function before(a: ToolSearchHit, b: ToolSearchHit): boolean {
  return a.score > b.score || (a.score === b.score && a.tool.qualifiedName < b.tool.qualifiedName);
}

/** The best `limit` hits seen, in order: a search over 100 000 matches sorts only what it keeps. */
class TopHits {
  readonly hits: ToolSearchHit[] = [];

  constructor(private readonly limit: number) {}

  offer(hit: ToolSearchHit): void {
    const hits = this.hits;
    if (hits.length === this.limit && !before(hit, hits[hits.length - 1]!)) return;
    let low = 0;
    let high = hits.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(hits[middle]!, hit)) low = middle + 1;
      else high = middle;
    }
    hits.splice(low, 0, hit);
    if (hits.length > this.limit) hits.pop();
  }
}
