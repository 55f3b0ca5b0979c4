/**
 * A tool result read once into the parts every API's content is made of: text, and binary
 * media (an image, or an embedded resource's blob) that an API may or may not take.
 *
 * What no model API takes in a tool result becomes a short text note, so the model knows
 * something was there: audio (none of OpenAI, Anthropic or the AI SDK's tool results carry
 * it), and content of a type this library does not know. A resource link becomes a line with
 * its name and URI (the model may ask for it with a resource tool); an embedded text resource
 * becomes its text under its URI. When `content` is empty and `structuredContent` is present,
 * the structured value is given as JSON text (the spec asks servers to repeat it as text in
 * `content`, so otherwise `content` already says it).
 */
import type { CallToolResult } from "../index.js";
import { clip, isArray, isObject, own, ownString, type Json } from "./json.js";

export type Part = { kind: "text"; text: string } | Media;

export interface Media {
  kind: "media";
  /** Base64, as the server sent it. */
  data: string;
  mimeType: string;
  /** The URI of the embedded resource the blob came from; undefined for an image block. */
  uri: string | undefined;
}

/** The text given for a result with nothing in it, so that no API sees an empty tool result. */
export const NO_CONTENT = "(the tool returned no content)";

/** The parts of `result`, in order; never empty. */
export function partsOf(result: CallToolResult): Part[] {
  const content: unknown = isObject(result) ? own(result, "content") : undefined;
  const blocks = isArray(content) ? content : [];
  const parts = blocks.map(partOf);
  if (parts.length === 0 && isObject(result) && own(result, "structuredContent") !== undefined) parts.push(text(structured(own(result, "structuredContent"))));
  if (parts.length === 0) parts.push(text(NO_CONTENT));
  return parts;
}

/** Whether the server said the call failed. */
export function isErrorResult(result: CallToolResult): boolean {
  return isObject(result) && own(result, "isError") === true;
}

function partOf(block: unknown): Part {
  if (!isObject(block)) return note("a content block that is not an object was left out");
  const type = own(block, "type");
  switch (type) {
    case "text":
      return text(ownString(block, "text") ?? "");
    case "image":
      return media(block, "data", undefined) ?? note("an image without data was left out");
    case "audio":
      return note(`${clip(ownString(block, "mimeType") ?? "audio")} audio${size(ownString(block, "data"))} was left out: tool results cannot carry audio`);
    case "resource_link":
      return text(link(block));
    case "resource":
      return resource(own(block, "resource"));
    default:
      return note(`content of type ${clip(JSON.stringify(type) ?? "undefined", 60)} was left out`);
  }
}

function resource(contents: unknown): Part {
  if (!isObject(contents)) return note("an embedded resource without contents was left out");
  const uri = clip(ownString(contents, "uri") ?? "(no uri)", 500);
  const body = ownString(contents, "text");
  if (body !== undefined) return text(`[resource ${uri}]\n${body}`);
  return media(contents, "blob", uri) ?? note(`the embedded resource ${uri} had neither text nor blob`);
}

function media(block: Json, field: string, uri: string | undefined): Media | undefined {
  const data = ownString(block, field);
  if (data === undefined) return undefined;
  return { kind: "media", data, mimeType: ownString(block, "mimeType") ?? "application/octet-stream", uri };
}

function link(block: Json): string {
  const name = ownString(block, "title") ?? ownString(block, "name") ?? "resource";
  const details = [ownString(block, "mimeType"), ownString(block, "description")].filter((item) => item !== undefined);
  return `[resource link] ${clip(name)}: ${clip(ownString(block, "uri") ?? "(no uri)", 500)}${details.length > 0 ? ` (${clip(details.join("; "), 300)})` : ""}`;
}

/** The note for media an API does not take: what it was, and `why` it was left out. */
export function mediaNote(part: Media, why: string): string {
  const where = part.uri === undefined ? "an image" : `the resource ${part.uri}`;
  return `[${clip(part.mimeType)} content (${where}${size(part.data)}) was left out: ${why}]`;
}

function size(base64: string | undefined): string {
  if (base64 === undefined) return "";
  const bytes = Math.floor((base64.replace(/=+$/, "").length * 3) / 4);
  return bytes < 1024 ? `, ${bytes} bytes` : `, ${Math.round(bytes / 1024)} KiB`;
}

function structured(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function text(value: string): Part {
  return { kind: "text", text: value };
}

function note(value: string): Part {
  return text(`[${value}]`);
}

/** A `data:` URL, as OpenAI takes images and files. */
export function dataUrl(part: Media): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

/** A file name for a blob, from the last segment of its resource's URI. */
export function fileName(part: Media, fallback: string): string {
  const name = (part.uri ?? "").replace(/[?#].*$/, "").split(/[/\\]/).pop() ?? "";
  return name === "" ? fallback : clip(name, 100);
}
