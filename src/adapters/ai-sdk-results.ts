/**
 * A tool result as the AI SDK's tool output for the model (`ToolResultOutput` of `ai@7`, what a
 * tool's `toModelOutput` returns), which each provider then turns into its API's form.
 *
 * All text: `{ type: "text" }`. With images (JPEG, PNG, GIF, WebP) or a PDF: `{ type:
 * "content" }` with `file` parts of base64 data. A result with `isError` is `{ type:
 * "error-text" }`, which providers send with their error flag (Anthropic's `is_error`); its
 * media become notes, as error text has no room for them. Audio, other media and what else no
 * tool result carries are notes (result-parts.ts).
 */
import type { CallToolResult } from "../index.js";
import { fileName, isErrorResult, mediaNote, partsOf, type Part } from "./result-parts.js";

const FILES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf"]);

/** A part of `{ type: "content" }` output. */
export type AiSdkContentPart =
  | { type: "text"; text: string }
  | { type: "file"; mediaType: string; data: { type: "data"; data: string }; filename?: string };

/** What the model is given for a tool's result. */
export type AiSdkToolOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "content"; value: AiSdkContentPart[] };

/** `result` as the AI SDK's tool output. */
export function toAiSdkToolOutput(result: CallToolResult): AiSdkToolOutput {
  const parts = partsOf(result);
  if (isErrorResult(result)) return { type: "error-text", value: parts.map((part) => asText(part, "an error result is text only")).join("\n") };
  const value = parts.map(contentPart);
  if (value.every((part) => part.type === "text")) return { type: "text", value: value.map((part) => part.text).join("\n") };
  return { type: "content", value };
}

function contentPart(part: Part): AiSdkContentPart {
  if (part.kind === "text" || !FILES.has(part.mimeType)) return { type: "text", text: asText(part, "the output takes JPEG, PNG, GIF and WebP images and PDF files") };
  const file: AiSdkContentPart = { type: "file", mediaType: part.mimeType, data: { type: "data", data: part.data } };
  return part.uri === undefined ? file : { ...file, filename: fileName(part, "file") };
}

function asText(part: Part, why: string): string {
  return part.kind === "text" ? part.text : mediaNote(part, why);
}
