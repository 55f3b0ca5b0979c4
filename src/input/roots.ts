/**
 * Roots filtering (client/roots): the client exposes only what the user may share and MUST
 * guard against path traversal. Of the handler's roots, only `file://` URIs on this host are
 * sent, normalised by the URL parser (which resolves `.` and `..`, percent-encoded or not);
 * the rest are dropped and reported.
 */
import type { ListRootsResult, Root } from "../protocol/types/index.js";
import { isObject } from "../util/json.js";

export interface FilteredRoots {
  result: ListRootsResult;
  dropped: { uri: unknown; reason: string }[];
}

export function filterRoots(result: unknown): { ok: true; value: FilteredRoots } | { ok: false; reason: string } {
  if (!isObject(result) || !Array.isArray(result.roots)) return { ok: false, reason: "the answer must be { roots: [...] }" };
  const roots: Root[] = [];
  const dropped: FilteredRoots["dropped"] = [];
  for (const entry of result.roots) {
    const uri = isObject(entry) ? entry.uri : undefined;
    const problem = rootProblem(uri);
    if (problem !== undefined) {
      dropped.push({ uri, reason: problem });
      continue;
    }
    const root: Root = { uri: new URL(uri as string).href };
    const source = entry as Record<string, unknown>;
    if (typeof source.name === "string") root.name = source.name;
    if (isObject(source._meta)) root._meta = source._meta;
    roots.push(root);
  }
  return { ok: true, value: { result: { roots }, dropped } };
}

function rootProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string") return "uri is not a string";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "file:") return "not a file:// URI";
  // The URL parser turns file://localhost/ into an empty host.
  if (url.host !== "") return `on another host (${url.host})`;
  return undefined;
}
