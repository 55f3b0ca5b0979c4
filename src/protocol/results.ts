/**
 * Checks on what a server returns, field by field, at the boundary. Only the fields the client
 * relies on are checked; everything else passes through untouched (tool schemas and
 * `structuredContent` are kept exactly as received). A list entry that is unusable (a tool
 * without a name) is dropped and reported through the context rather than failing the list.
 * The method table (`methods.ts`) names the check of each method.
 *
 * `allPages` walks a paginated list (basic/utilities/pagination) to its end, which the era
 * defines: only an absent `nextCursor` in 2026-07-28 (where "" is a cursor), an empty one too
 * before. A cursor seen twice is a server bug that must not loop for ever; a list that never
 * ends, with new cursors each time, stops at the listing bounds (`LIST_BOUNDS`).
 */
import { expectArray, expectObject, field, index, protocolError } from "../util/assert.js";
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { withField } from "../util/sanitize.js";
import { excerpt, quote } from "../util/text.js";
import { blockProblem, laterFields, takenAsIs, without } from "./version-shapes.js";
import type {
  CacheableResult,
  CallToolResult,
  CompleteResult,
  EmptyResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  PaginatedResult,
  ReadResourceResult,
  Result,
} from "./types/index.js";
import type { ProtocolVersion } from "./versions.js";

/** Who a check reports to, and the version whose rules apply. */
export interface CheckContext {
  readonly version: ProtocolVersion;
  /** An unusable entry of a list was left out. */
  dropped(method: string, index: number, reason: string): void;
}

export type ResultCheck<R> = (raw: unknown, context: CheckContext) => R;

export function checkResult(raw: unknown, method: string): Result {
  return expectObject(raw, `the result of ${method}`, raw);
}

/** The check of a method whose result says nothing beyond success. */
export const emptyResult =
  (method: string): ResultCheck<EmptyResult> =>
  (raw) =>
    checkResult(raw, method);

type EntryCheck = (entry: Record<string, unknown>) => string | undefined;

/** A prompt's arguments have no `title` before 2025-06-18 either. */
function withoutArgumentTitles(entry: Record<string, unknown>): Record<string, unknown> {
  const args = entry.arguments;
  if (!Array.isArray(args) || !args.some((arg) => isObject(arg) && Object.hasOwn(arg, "title"))) return entry;
  return withField(entry, "arguments", args.map((arg: unknown) => (isObject(arg) ? without(arg, ["title"]) : arg)));
}

function checkList<T>(raw: unknown, context: CheckContext, method: string, key: string, entryProblem: EntryCheck): T {
  const checked = checkEntries<T>(raw, context, method, key, entryProblem);
  if (takenAsIs(context.version)) return checked;
  const fields = laterFields(key === "tools" ? "tools" : "other", context.version);
  const entries = (checked as Record<string, unknown>)[key] as Record<string, unknown>[];
  return withField(checked as object, key, entries.map((entry) => withoutArgumentTitles(without(entry, fields)))) as T;
}

function checkEntries<T>(raw: unknown, context: CheckContext, method: string, key: string, entryProblem: EntryCheck): T {
  const result = checkResult(raw, method);
  const path = field(`the result of ${method}`, key);
  const entries = expectArray(result[key], path, raw);
  const cursor = result.nextCursor;
  if (cursor !== undefined && typeof cursor !== "string") throw protocolError(`${field(`the result of ${method}`, "nextCursor")} must be a string`, raw);
  let kept: unknown[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const reason = isObject(entry) ? entryProblem(entry) : `${index(path, i)} is not an object`;
    if (reason === undefined) {
      kept?.push(entry);
      continue;
    }
    kept ??= entries.slice(0, i);
    context.dropped(method, i, reason);
  }
  return (kept === undefined ? result : withField(result, key, kept)) as T;
}

const needsString = (entry: Record<string, unknown>, ...names: string[]): string | undefined => {
  for (const name of names) if (typeof entry[name] !== "string") return `"${name}" is not a string`;
  return undefined;
};

export function checkListTools(raw: unknown, context: CheckContext): ListToolsResult {
  return checkList(raw, context, "tools/list", "tools", (tool) =>
    needsString(tool, "name") ?? (isObject(tool.inputSchema) ? undefined : `tool "${excerpt(tool.name, 100)}" has no inputSchema object`),
  );
}

export function checkListResources(raw: unknown, context: CheckContext): ListResourcesResult {
  return checkList(raw, context, "resources/list", "resources", (entry) => needsString(entry, "uri", "name"));
}

export function checkListResourceTemplates(raw: unknown, context: CheckContext): ListResourceTemplatesResult {
  return checkList(raw, context, "resources/templates/list", "resourceTemplates", (entry) => needsString(entry, "uriTemplate", "name"));
}

export function checkListPrompts(raw: unknown, context: CheckContext): ListPromptsResult {
  return checkList(raw, context, "prompts/list", "prompts", (entry) => needsString(entry, "name"));
}

export function checkCallTool(raw: unknown, context: CheckContext): CallToolResult {
  const result = checkResult(raw, "tools/call");
  const content = expectArray(result.content, field("the result of tools/call", "content"), raw);
  if (takenAsIs(context.version)) return result as CallToolResult;
  // Copied by hand, not spread, for each call's result: see `withField`.
  return withField(without(result, STRUCTURED), "content", blocksOf(content, context, "tools/call")) as unknown as CallToolResult;
}

const STRUCTURED = ["structuredContent"] as const;

/** The blocks of `content` that exist in the version; the others are reported. */
function blocksOf(content: unknown[], context: CheckContext, method: string): unknown[] {
  return content.filter((block, i) => {
    const problem = blockProblem(isObject(block) ? block.type : undefined, context.version);
    if (problem !== undefined) context.dropped(method, i, problem);
    return problem === undefined;
  });
}

export function checkReadResource(raw: unknown): ReadResourceResult {
  const result = checkResult(raw, "resources/read");
  const path = field("the result of resources/read", "contents");
  expectArray(result.contents, path, raw).forEach((entry, i) => {
    const item = expectObject(entry, index(path, i), raw);
    if (typeof item.uri !== "string") throw protocolError(`${field(index(path, i), "uri")} must be a string`, raw);
    if (typeof item.text !== "string" && typeof item.blob !== "string") {
      throw protocolError(`${index(path, i)} needs a "text" or "blob" string`, raw);
    }
  });
  return result as ReadResourceResult;
}

export function checkGetPrompt(raw: unknown, context: CheckContext): GetPromptResult {
  const result = checkResult(raw, "prompts/get");
  const messages = expectArray(result.messages, field("the result of prompts/get", "messages"), raw);
  if (takenAsIs(context.version)) return result as GetPromptResult;
  // A message is one block: a message whose block the version does not have goes with it.
  const kept = messages.filter((message, i) => {
    const problem = blockProblem(isObject(message) && isObject(message.content) ? message.content.type : undefined, context.version);
    if (problem !== undefined) context.dropped("prompts/get", i, problem);
    return problem === undefined;
  });
  return withField(result, "messages", kept) as unknown as GetPromptResult;
}

export function checkComplete(raw: unknown): CompleteResult {
  const result = checkResult(raw, "completion/complete");
  const completion = expectObject(result.completion, field("the result of completion/complete", "completion"), raw);
  const values = expectArray(completion.values, 'the result of completion/complete "completion" "values"', raw);
  if (!values.every((value) => typeof value === "string")) {
    throw protocolError('the result of completion/complete "completion" "values" must hold strings', raw);
  }
  return result as CompleteResult;
}

/**
 * A page of `skills/list` (the skills extension, SEP-2640). Its entries stay unchecked here: the
 * extension's rules on them (URIs, names, digests, limits) are `ext/skills-entry.ts`, which
 * refuses an entry alone rather than the page.
 */
export interface ListSkillsResult extends PaginatedResult, CacheableResult {
  skills: unknown[];
}

/** `skills/get`: one entry, checked like a listed one. */
export interface GetSkillResult extends CacheableResult {
  skill: unknown;
}

export function checkListSkills(raw: unknown): ListSkillsResult {
  const result = checkResult(raw, "skills/list");
  expectArray(result.skills, field("the result of skills/list", "skills"), raw);
  if (result.nextCursor !== undefined && typeof result.nextCursor !== "string") {
    throw protocolError(`${field("the result of skills/list", "nextCursor")} must be a string`, raw);
  }
  return result as ListSkillsResult;
}

export function checkGetSkill(raw: unknown): GetSkillResult {
  const result = checkResult(raw, "skills/get");
  expectObject(result.skill, field("the result of skills/get", "skill"), raw);
  return result as GetSkillResult;
}

/**
 * How far one listing walked to its end may go, whichever bound comes first; past one, the
 * listing fails with a `"protocol"` error naming it, before what it holds grows further. Far
 * above any real server's list (the official servers page by tens to hundreds of items), far
 * below what would fill a host's memory: 100 000 tools of a few kilobytes each are some
 * hundreds of megabytes already. The cursors are remembered to catch a repeat, so their total
 * length is bounded too: a cursor is an opaque token, not a payload. And what a listing of more
 * than one page keeps is bounded in characters of JSON (`listCharacters`): each page is bounded
 * by `maxMessageBytes` alone, and a thousand pages of it would be tens of gigabytes.
 */
export const LIST_BOUNDS = Object.freeze({
  pages: 1_000,
  items: 100_000,
  cursorCharacters: 4 * 1024 * 1024,
  listCharacters: 64 * 1024 * 1024,
});

/** Every page of `method`'s list, its items in order; see `walkPages`. */
export async function allPages<T>(method: string, emptyCursorEnds: boolean, fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let pages = 0;
  let characters = 0;
  await walkPages(method, emptyCursorEnds, async (cursor) => {
    const page = await fetchPage(cursor);
    pages += 1;
    // A one-page list costs nothing to measure: the first page is measured when a second comes.
    if (pages === 2) characters += measured(method, items);
    if (pages >= 2) {
      characters += measured(method, page.items);
      if (characters > LIST_BOUNDS.listCharacters) throw overBound(`${method}'s pages passed ${LIST_BOUNDS.listCharacters} characters of JSON in all (at page ${pages})`);
    }
    // Counted before they are kept: the bound holds for what is held.
    return { count: page.items.length, nextCursor: page.nextCursor, keep: () => pushAll(items, page.items) };
  });
  return items;
}

/** The length of `items` as JSON; a value too deep to write again is too much to keep. */
function measured(method: string, items: unknown[]): number {
  try {
    return JSON.stringify(items).length;
  } catch {
    throw new ClientError("protocol", `${method}: a page could not be measured (nested too deep), the bound of one listing`);
  }
}

function pushAll<T>(into: T[], items: T[]): void {
  for (const item of items) into.push(item);
}

/**
 * Walks `method`'s list page by page within `LIST_BOUNDS`: `fetchPage` gives a page's count of
 * items and, in `keep`, what to do with them once they are known to fit. The walker that keeps
 * only what it learns of each item (the tools' task support) calls nothing there.
 */
export async function walkPages(
  method: string,
  emptyCursorEnds: boolean,
  fetchPage: (cursor: string | undefined) => Promise<{ count: number; nextCursor: string | undefined; keep?: () => void }>,
): Promise<void> {
  const seen = new Set<string>();
  let items = 0;
  let cursorCharacters = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    items += result.count;
    if (items > LIST_BOUNDS.items) throw overBound(`${method} listed more than ${LIST_BOUNDS.items} items (at page ${page})`);
    result.keep?.();
    cursor = result.nextCursor;
    if (cursor === undefined || (cursor === "" && emptyCursorEnds)) return;
    if (seen.has(cursor)) throw new ClientError("protocol", `the server repeated the ${method} cursor ${quote(cursor)}`);
    if (page >= LIST_BOUNDS.pages) throw overBound(`${method} did not end after ${LIST_BOUNDS.pages} pages`);
    cursorCharacters += cursor.length;
    if (cursorCharacters > LIST_BOUNDS.cursorCharacters) throw overBound(`${method}'s cursors passed ${LIST_BOUNDS.cursorCharacters} characters in all (at page ${page})`);
    seen.add(cursor);
  }
}

function overBound(what: string): ClientError {
  return new ClientError("protocol", `${what}, the bound of one listing: the server's list is endless or too large`);
}
