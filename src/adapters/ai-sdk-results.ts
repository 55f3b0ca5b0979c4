/**
 * A tool result as the AI SDK's tool output for the model (its `ToolResultOutput`, what a tool's
 * `toModelOutput` returns), which each provider then turns into its API's form.
 *
 * All text: `{ type: "text" }`. With images (JPEG, PNG, GIF, WebP) or a PDF: `{ type:
 * "content" }` with the media as base64 parts, whose shape depends on the SDK's major version:
 * `ai@7` takes `{ type: "file", data: { type: "data", data } }` (and warns on every step about
 * the older forms it still reads); `ai@6` takes `{ type: "image-data" }` for an image and `{ type:
 * "file-data" }` for a file, and hands a provider the newer form unread, which drops it. The
 * caller says which (`aiVersion`), since nothing the SDK gives a tool tells the two apart.
 *
 * A result with `isError` is `{ type: "error-text" }`, which providers send with their error flag
 * (Anthropic's `is_error`); its media become notes, as error text has no room for them. Audio,
 * other media and what else no tool result carries are notes (result-parts.ts).
 */
import type { CallToolResult } from "../index.js";
import { checkKeys } from "./options.js";
import { fileName, isErrorResult, mediaNote, partsOf, type Media, type Part } from "./result-parts.js";

const FILES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf"]);

/** The major versions of the `ai` package whose tool output shapes this adapter writes. */
export type AiSdkVersion = 6 | 7;
export const AI_SDK_VERSIONS: readonly AiSdkVersion[] = [6, 7];

/** A media part of `ai@7`'s `{ type: "content" }` output. */
export interface AiSdk7FilePart {
  type: "file";
  mediaType: string;
  data: { type: "data"; data: string };
  filename?: string;
}

/** A media part of `ai@6`'s `{ type: "content" }` output: an image, or another file (a PDF). */
export type AiSdk6MediaPart = { type: "image-data"; mediaType: string; data: string } | { type: "file-data"; mediaType: string; data: string; filename?: string };

/** A part of `{ type: "content" }` output, in the shape of the SDK's major version `V`. */
export type AiSdkContentPart<V extends AiSdkVersion = AiSdkVersion> = { type: "text"; text: string } | (V extends 6 ? AiSdk6MediaPart : AiSdk7FilePart);

/** What the model is given for a tool's result. */
export type AiSdkToolOutput<V extends AiSdkVersion = AiSdkVersion> =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "content"; value: AiSdkContentPart<V>[] };

export interface AiSdkOutputOptions<V extends AiSdkVersion> {
  /** The major version of the `ai` package in use: 6 or 7. Required, as their media shapes differ. */
  aiVersion: V;
}

/** `result` as the AI SDK's tool output, for the SDK's major version `options.aiVersion`. */
export function toAiSdkToolOutput<V extends AiSdkVersion>(result: CallToolResult, options: AiSdkOutputOptions<V>): AiSdkToolOutput<V> {
  checkKeys("AI SDK output options", options, ["aiVersion"]);
  return aiSdkToolOutput(result, checkAiVersion(options?.aiVersion));
}

/** The output without the option checks, for a tool whose options were checked when it was made. */
export function aiSdkToolOutput<V extends AiSdkVersion>(result: CallToolResult, aiVersion: V): AiSdkToolOutput<V> {
  const parts = partsOf(result);
  if (isErrorResult(result)) return { type: "error-text", value: parts.map((part) => asText(part, "an error result is text only")).join("\n") };
  if (parts.every((part) => part.kind === "text" || !FILES.has(part.mimeType))) return { type: "text", value: parts.map((part) => asText(part, WHY)).join("\n") };
  return { type: "content", value: parts.map((part) => contentPart(part, aiVersion)) };
}

/** `aiVersion` as given, or a TypeError naming what was given and what is supported. */
export function checkAiVersion<V extends AiSdkVersion>(aiVersion: V): V {
  if ((AI_SDK_VERSIONS as readonly unknown[]).includes(aiVersion)) return aiVersion;
  const given = typeof aiVersion === "number" || typeof aiVersion === "string" ? JSON.stringify(aiVersion) : typeof aiVersion;
  throw new TypeError(`options.aiVersion must be the major version of the "ai" package in use, 6 or 7 (their tool results take images in different shapes), got ${given}`);
}

const WHY = "the output takes JPEG, PNG, GIF and WebP images and PDF files";

function contentPart<V extends AiSdkVersion>(part: Part, aiVersion: V): AiSdkContentPart<V> {
  if (part.kind === "text" || !FILES.has(part.mimeType)) return { type: "text", text: asText(part, WHY) };
  return (aiVersion === 6 ? mediaPart6(part) : filePart7(part)) as AiSdkContentPart<V>;
}

function filePart7(part: Media): AiSdk7FilePart {
  const data = { type: "data" as const, data: part.data };
  return part.uri === undefined ? { type: "file", mediaType: part.mimeType, data } : { type: "file", mediaType: part.mimeType, data, filename: fileName(part, "file") };
}

/** ai@6 sends `image-data` to providers as an image and `file-data` as a document; an image has no file name. */
function mediaPart6(part: Media): AiSdk6MediaPart {
  if (part.mimeType.startsWith("image/")) return { type: "image-data", mediaType: part.mimeType, data: part.data };
  if (part.uri === undefined) return { type: "file-data", mediaType: part.mimeType, data: part.data };
  return { type: "file-data", mediaType: part.mimeType, data: part.data, filename: fileName(part, "file") };
}

function asText(part: Part, why: string): string {
  return part.kind === "text" ? part.text : mediaNote(part, why);
}
