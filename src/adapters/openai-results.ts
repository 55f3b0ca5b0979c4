/**
 * A tool result as OpenAI takes it back.
 *
 * Chat Completions: a `tool` message, whose content is text only. An image becomes a note in
 * it; `toOpenAIChatImageParts` gives the images as `image_url` parts for a user message after
 * the tool messages, the one place Chat Completions takes them. Responses: a
 * `function_call_output` item, whose output may hold text, images (PNG, JPEG, WebP, GIF, as
 * data URLs) and files (PDF, as `input_file`); other media become notes. Neither API has an
 * error flag for a function's output, so `isError` becomes a first line saying the tool
 * reported an error. Audio, and what else no tool result carries, is a note (result-parts.ts).
 */
import type { CallToolResult } from "../index.js";
import { dataUrl, fileName, isErrorResult, mediaNote, partsOf, type Media, type Part } from "./result-parts.js";

/** The line put first in the output of a result with `isError`. */
export const OPENAI_ERROR_LINE = "[the tool reported an error]";
const IMAGES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** A Chat Completions tool message (`ChatCompletionToolMessageParam` of the `openai` package). */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** An image for a Chat Completions user message (`ChatCompletionContentPartImage`). */
export interface OpenAIChatImagePart {
  type: "image_url";
  image_url: { url: string };
}

/** One item of a Responses function call output (`ResponseFunctionCallOutputItem`). */
export type OpenAIOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string };

/** A Responses input item with a function's output (`ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIOutputPart[];
}

/** `result` as the tool message answering the tool call `toolCallId`. */
export function toOpenAIChatToolMessage(toolCallId: string, result: CallToolResult): OpenAIChatToolMessage {
  const lines = partsOf(result).map((part) => (part.kind === "text" ? part.text : mediaNote(part, "a Chat Completions tool message is text only")));
  return { role: "tool", tool_call_id: toolCallId, content: withError(result, lines).join("\n") };
}

/** The images of `result` Chat Completions takes, for a user message (its tool message only notes them). */
export function toOpenAIChatImageParts(result: CallToolResult): OpenAIChatImagePart[] {
  return partsOf(result)
    .filter((part): part is Media => part.kind === "media" && IMAGES.has(part.mimeType))
    .map((part) => ({ type: "image_url", image_url: { url: dataUrl(part) } }));
}

/** `result` as the Responses input item answering the function call `callId`: a string when it is all text. */
export function toOpenAIFunctionCallOutput(callId: string, result: CallToolResult): OpenAIFunctionCallOutput {
  const parts = partsOf(result).map(responsesPart);
  if (parts.every((part) => part.type === "input_text")) {
    return { type: "function_call_output", call_id: callId, output: withError(result, parts.map((part) => part.text)).join("\n") };
  }
  const output: OpenAIOutputPart[] = isErrorResult(result) ? [{ type: "input_text", text: OPENAI_ERROR_LINE }, ...parts] : parts;
  return { type: "function_call_output", call_id: callId, output };
}

function responsesPart(part: Part): OpenAIOutputPart {
  if (part.kind === "text") return { type: "input_text", text: part.text };
  if (IMAGES.has(part.mimeType)) return { type: "input_image", image_url: dataUrl(part), detail: "auto" };
  if (part.mimeType === "application/pdf") return { type: "input_file", file_data: dataUrl(part), filename: fileName(part, "document.pdf") };
  return { type: "input_text", text: mediaNote(part, "a function call output takes PNG, JPEG, WebP and GIF images and PDF files") };
}

function withError(result: CallToolResult, lines: string[]): string[] {
  return isErrorResult(result) ? [OPENAI_ERROR_LINE, ...lines] : lines;
}
