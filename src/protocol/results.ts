/**
 * Checks on what a server returns, field by field, at the boundary. Only the fields the client
 * relies on are checked; everything else passes through untouched (tool schemas and
 * `structuredContent` are kept exactly as received). A list entry that is unusable (a tool
 * without a name) is dropped and reported through the context rather than failing the list.
 * The method table (`methods.ts`) names the check of each method.
 *
 * `allPages` walks a paginated list (basic/utilities/pagination) to its end, which the era
 * defines: only an absent `nextCursor` in 2026-07-28 (where "" is a cursor), an empty one too
 * before. A cursor seen twice, or too many pages, is a server bug that must not loop forever.
 */
import { expectArray, expectObject, field, index, protocolError } from "../util/assert.js";
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
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
  return { ...entry, arguments: args.map((arg: unknown) => (isObject(arg) ? without(arg, ["title"]) : arg)) };
}

function checkList<T>(raw: unknown, context: CheckContext, method: string, key: string, entryProblem: EntryCheck): T {
  const checked = checkEntries<T>(raw, context, method, key, entryProblem);
  if (takenAsIs(context.version)) return checked;
  const fields = laterFields(key === "tools" ? "tools" : "other", context.version);
  const entries = (checked as Record<string, unknown>)[key] as Record<string, unknown>[];
  return { ...checked, [key]: entries.map((entry) => withoutArgumentTitles(without(entry, fields))) };
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
  return (kept === undefined ? result : { ...result, [key]: kept }) as T;
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
  return { ...without(result, STRUCTURED), content: blocksOf(content, context, "tools/call") } as CallToolResult;
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
  return { ...result, messages: kept } as GetPromptResult;
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

export const MAX_PAGES = 10_000;

export async function allPages<T>(
  emptyCursorEnds: boolean,
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    for (const item of result.items) items.push(item);
    cursor = result.nextCursor;
    if (cursor === undefined || (cursor === "" && emptyCursorEnds)) return items;
    if (seen.has(cursor)) throw new ClientError("protocol", `the server repeated the cursor ${quote(cursor)}`);
    seen.add(cursor);
  }
  throw new ClientError("protocol", `the list did not end after ${MAX_PAGES} pages`);
}
