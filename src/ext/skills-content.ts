/**
 * A skill file as a `resources/read` returned it, verified (SEP-2640 "Integrity and
 * verification"): its raw bytes — the UTF-8 of a text, the decoded bytes of a blob — must be as
 * long as the entry's `size`, measured before anything is decoded or hashed, and hash to its
 * `digest`. Content that fails is never returned. A file of a `"dynamic"` skill has neither:
 * only the skill's byte budget bounds it.
 */
import { ClientError } from "../util/errors.js";
import { base64Length, fromBase64, utf8, utf8Length } from "../util/bytes.js";
import { excerpt } from "../util/text.js";
import type { ReadResourceResult, ResourceContents } from "../protocol/types/index.js";
import { SkillError } from "./skills-error.js";
import type { SkillFile, SkillResourceEntry } from "./skills-types.js";
import { canonicalUri } from "./skills-uri.js";

/** What a read is checked against. */
export interface ExpectedFile {
  readonly serverId: string;
  readonly skillUri: string;
  /** The URI read. */
  readonly uri: string;
  /** The entry's record of the file; undefined for a `"dynamic"` skill. */
  readonly listed: SkillResourceEntry | undefined;
  /** Bytes the file may have at most (what is left of a dynamic skill's budget). */
  readonly budget: number;
}

export async function verifiedFile(read: ReadResourceResult, expected: ExpectedFile): Promise<SkillFile> {
  const content = contentFor(read, expected);
  const text = "text" in content && typeof content.text === "string" ? content.text : undefined;
  const blob = text === undefined ? (content as { blob: string }).blob : undefined;
  const measured = text !== undefined ? utf8Length(text) : base64Length(blob as string);
  checkLength(measured, expected, read);
  const bytes = text !== undefined ? utf8(text) : fromBase64(blob as string);
  // A blob that is not clean base64 decodes to other than its measure: measured again.
  if (bytes.length !== measured) checkLength(bytes.length, expected, read);
  const listed = expected.listed;
  if (listed !== undefined) {
    const digest = await sha256(bytes);
    if (digest !== listed.digest) {
      throw failure("digest", `${expected.uri} hashes to ${digest}, not to the ${listed.digest} of its entry`, expected, read);
    }
  }
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : undefined;
  return { uri: expected.uri, mimeType, bytes, text, verified: listed !== undefined };
}

/** The item of `contents` for the file: the one of its URI, or the only one. */
function contentFor(read: ReadResourceResult, expected: ExpectedFile): ResourceContents {
  const wanted = canonicalUri(expected.uri);
  const match = read.contents.find((item) => item.uri === expected.uri || (wanted !== undefined && canonicalUri(item.uri) === wanted));
  const content = match ?? (read.contents.length === 1 ? read.contents[0] : undefined);
  if (content === undefined) {
    throw new ClientError("protocol", `the read of ${excerpt(expected.uri)} returned ${read.contents.length} contents, none of them for it`, { serverId: expected.serverId, data: read });
  }
  return content;
}

function checkLength(length: number, expected: ExpectedFile, read: ReadResourceResult): void {
  const listed = expected.listed;
  if (listed !== undefined && length !== listed.size) {
    throw failure("size", `${expected.uri} is ${length} bytes long, not the ${listed.size} of its entry`, expected, read);
  }
  if (listed === undefined && length > expected.budget) {
    throw failure("limit", `${expected.uri} is ${length} bytes long, more than the ${expected.budget} left of the skill's byte budget`, expected, read);
  }
}

function failure(reason: "size" | "digest" | "limit", message: string, expected: ExpectedFile, read: ReadResourceResult): SkillError {
  return new SkillError(reason, excerpt(message, 400), { serverId: expected.serverId, skillUri: expected.skillUri, fileUri: expected.uri, data: read });
}

/** `sha256:<hex>` of `bytes`, by WebCrypto (every runtime has it). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
