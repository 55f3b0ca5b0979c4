/** Content blocks (tool results, prompt messages, sampling). */
import type { Annotations, Icon, Meta } from "./base.js";

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** 2025-11-25+: a model's request to call a tool, inside sampling messages. */
export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: Meta;
  [key: string]: unknown;
}

/** 2025-11-25+: the outcome of a tool use, inside sampling messages. */
export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
