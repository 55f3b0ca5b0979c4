/**
 * Walking a paginated list (basic/utilities/pagination) to its end. Only the absence of
 * `nextCursor` means the end in 2026-07-28, where "" is a valid cursor; a legacy server's ""
 * is read as the end too, since those versions never gave it another meaning and a loop on it
 * would only repeat the first page. A cursor seen twice, or too many pages, is a server bug
 * that must not loop forever.
 */
import { ClientError } from "../util/errors.js";
import type { Era } from "./versions.js";

export const MAX_PAGES = 10_000;

export async function allPages<T>(
  era: Era,
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    for (const item of result.items) items.push(item);
    cursor = result.nextCursor;
    if (cursor === undefined || (cursor === "" && era === "legacy")) return items;
    if (seen.has(cursor)) throw new ClientError("protocol", `the server repeated the cursor ${JSON.stringify(cursor)}`);
    seen.add(cursor);
  }
  throw new ClientError("protocol", `the list did not end after ${MAX_PAGES} pages`);
}
