/**
 * A tool result as an Anthropic `tool_result` block, `isError` kept as `is_error`.
 *
 * Text becomes text blocks (Anthropic refuses an empty one, so those are dropped); images in
 * the four formats the API takes (JPEG, PNG, GIF, WebP) become base64 image blocks; a PDF blob
 * becomes a document block. Other media, audio, and what else no tool result carries are
 * notes (result-parts.ts).
 */
import type { CallToolResult } from "../index.js";
import { NO_CONTENT, fileName, isErrorResult, mediaNote, partsOf, type Part } from "./result-parts.js";

export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
const IMAGES: ReadonlySet<string> = new Set<AnthropicImageMediaType>(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** A block of a tool result's content (`TextBlockParam`, `ImageBlockParam`, `DocumentBlockParam`). */
export type AnthropicToolResultBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string }; title: string };

/** A tool result block of a user message (`ToolResultBlockParam` of `@anthropic-ai/sdk`). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: AnthropicToolResultBlock[];
  is_error?: boolean;
}

/** `result` as the block answering the tool use `toolUseId`. */
export function toAnthropicToolResult(toolUseId: string, result: CallToolResult): AnthropicToolResult {
  const content = partsOf(result)
    .map(block)
    .filter((item) => item.type !== "text" || item.text.trim() !== "");
  if (content.length === 0) content.push({ type: "text", text: NO_CONTENT });
  return { type: "tool_result", tool_use_id: toolUseId, content, ...(isErrorResult(result) ? { is_error: true } : {}) };
}

function block(part: Part): AnthropicToolResultBlock {
  if (part.kind === "text") return { type: "text", text: part.text };
  if (IMAGES.has(part.mimeType)) return { type: "image", source: { type: "base64", media_type: part.mimeType as AnthropicImageMediaType, data: part.data } };
  if (part.mimeType === "application/pdf") return { type: "document", source: { type: "base64", media_type: "application/pdf", data: part.data }, title: fileName(part, "document.pdf") };
  return { type: "text", text: mediaNote(part, "a tool_result takes JPEG, PNG, GIF and WebP images and PDF documents") };
}
