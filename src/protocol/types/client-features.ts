/**
 * What servers ask of the client: sampling (`sampling/createMessage`), elicitation
 * (`elicitation/create`, form and URL modes) and roots (`roots/list`). A server request in the
 * legacy era, an input request of an MRTR round in the modern one.
 */
import type { Meta, Result, Role } from "./base.js";
import type { AudioContent, ImageContent, TextContent, ToolResultContent, ToolUseContent } from "./content.js";
import type { Tool } from "./tools.js";

// ---- sampling ------------------------------------------------------------------------------

export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

export interface SamplingMessage {
  role: Role;
  /** One block; from 2025-11-25 on also an array of blocks. */
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ModelPreferences {
  hints?: { name?: string; [key: string]: unknown }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
  [key: string]: unknown;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: { [key: string]: unknown };
  tools?: Tool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
  [key: string]: unknown;
}

export interface CreateMessageResult extends Result {
  role: Role;
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
}

// ---- elicitation ---------------------------------------------------------------------------

export interface StringFieldSchema {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  default?: string;
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title: string }[];
}

export interface NumberFieldSchema {
  type: "number" | "integer";
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanFieldSchema {
  type: "boolean";
  title?: string;
  description?: string;
  default?: boolean;
}

export interface MultiSelectFieldSchema {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] } | { anyOf: { const: string; title: string }[] };
  default?: string[];
}

export type FieldSchema = StringFieldSchema | NumberFieldSchema | BooleanFieldSchema | MultiSelectFieldSchema;

export interface FormSchema {
  $schema?: string;
  type: "object";
  properties: { [name: string]: FieldSchema };
  required?: string[];
}

export interface ElicitFormParams {
  mode?: "form";
  message: string;
  requestedSchema: FormSchema;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ElicitUrlParams {
  mode: "url";
  message: string;
  url: string;
  /** 2025-11-25 only. */
  elicitationId?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export type ElicitValue = string | number | boolean | string[];

export interface ElicitResult extends Result {
  action: "accept" | "decline" | "cancel";
  content?: { [name: string]: ElicitValue };
}

// ---- roots ---------------------------------------------------------------------------------

export interface Root {
  /** A `file://` URI. */
  uri: string;
  name?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListRootsResult extends Result {
  roots: Root[];
}
