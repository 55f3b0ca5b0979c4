/**
 * The HTML of an MCP App out of a `resources/read` result: the content item for the URI, of the
 * app MIME type, measured before it is decoded, and decoded strictly — a Base64 `blob` must be
 * Base64 and its bytes UTF-8, a `text` must be well-formed Unicode. What fails is never returned:
 * an app the host renders is exactly what the server sent.
 *
 * @see apps.mdx 2026-01-26, "UI Resource Format" (Content Requirements)
 */
import type { ReadResourceResult, ResourceContents } from "../protocol/types/index.js";
import { base64Length, fromBase64, utf8Length } from "../util/bytes.js";
import { excerpt, quote } from "../util/text.js";
import { APP_MIME_TYPE } from "./apps-tool-meta.js";
import { AppResourceError, type AppResourceFailure } from "./app-resource-error.js";

export interface AppContentRequest {
  readonly serverId: string;
  readonly uri: string;
  readonly maxBytes: number;
}

export interface AppContent {
  readonly html: string;
  /** The item's `_meta.ui`, unchecked. */
  readonly ui: unknown;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
// Standard Base64 with its padding; whitespace is taken out first (some servers wrap lines).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// In a `u` pattern a surrogate class matches only a surrogate that is not half of a pair.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function appContent(read: ReadResourceResult, request: AppContentRequest): AppContent {
  const fail = (reason: AppResourceFailure, message: string) => new AppResourceError(reason, message, { serverId: request.serverId, uri: request.uri, data: read });
  const contents: unknown = read.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw fail("content", `the read of ${excerpt(request.uri)} returned no contents`);
  const item = pick(contents as ResourceContents[], request.uri);
  if (item === undefined) throw fail("content", `the read of ${excerpt(request.uri)} returned ${contents.length} contents, none of them for it`);
  if (!isAppMimeType(item.mimeType)) throw fail("mime", `${excerpt(request.uri)} is ${item.mimeType === undefined ? "of no MIME type" : `of MIME type ${quote(item.mimeType, 80)}`}, not ${APP_MIME_TYPE}`);
  const html = decode(item, request, fail);
  const meta = record(item._meta);
  return { html, ui: meta !== undefined && Object.hasOwn(meta, "ui") ? meta.ui : undefined };
}

/** The item of the URI with the app's type, else the only item, else the first of the URI. */
function pick(contents: readonly ResourceContents[], uri: string): ResourceContents | undefined {
  const items = contents.filter((item) => record(item) !== undefined);
  const forUri = items.filter((item) => item.uri === uri);
  return forUri.find((item) => isAppMimeType(item.mimeType)) ?? (contents.length === 1 ? items[0] : forUri[0]);
}

/**
 * `text/html;profile=mcp-app`, read as a media type is: type, subtype and parameter names in any
 * case, spaces around `;` and `=`, the value maybe quoted; a `charset` parameter only as UTF-8
 * (the HTML is decoded as UTF-8), and no other parameter.
 */
export function isAppMimeType(value: unknown): boolean {
  if (typeof value !== "string" || value.length > 200) return false;
  const [essence = "", ...parameters] = value.split(";").map((part) => part.trim());
  if (essence.toLowerCase() !== "text/html") return false;
  let profile = false;
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    if (equals < 0) return false;
    const name = parameter.slice(0, equals).trim().toLowerCase();
    const raw = parameter.slice(equals + 1).trim();
    const unquoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
    if (name === "profile" && unquoted === "mcp-app" && !profile) profile = true;
    else if (name !== "charset" || !/^utf-?8$/i.test(unquoted)) return false;
  }
  return profile;
}

function decode(item: ResourceContents, request: AppContentRequest, fail: (reason: AppResourceFailure, message: string) => AppResourceError): string {
  const uri = excerpt(request.uri);
  const tooLong = (bytes: number, atLeast = false) =>
    fail("size", `${uri} is ${atLeast ? "at least " : ""}${bytes} bytes of HTML, more than the ${request.maxBytes} this host reads (maxBytes)`);
  if (typeof item.text === "string") {
    // A UTF-16 unit is at least one byte of UTF-8: a text this long is too long without counting.
    if (item.text.length > request.maxBytes) throw tooLong(item.text.length, true);
    const bytes = utf8Length(item.text);
    if (bytes > request.maxBytes) throw tooLong(bytes);
    if (LONE_SURROGATE.test(item.text)) throw fail("encoding", `the text of ${uri} is not well-formed Unicode (a lone surrogate)`);
    return item.text;
  }
  if (typeof item.blob !== "string") throw fail("content", `the content of ${uri} has neither a text nor a blob string`);
  const measured = base64Length(item.blob);
  if (measured > request.maxBytes) throw tooLong(measured);
  const blob = item.blob.replace(/[\t\n\r ]/g, "");
  if (!BASE64.test(blob)) throw fail("encoding", `the blob of ${uri} is not Base64`);
  try {
    return strictUtf8.decode(fromBase64(blob));
  } catch {
    throw fail("encoding", `the blob of ${uri} is not UTF-8`);
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
