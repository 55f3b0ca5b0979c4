/** Sampling: `sampling/createMessage` (a server request in legacy, an input request in modern). */
import type { Meta, Result, Role } from "./base.js";
import type { AudioContent, ImageContent, TextContent, ToolResultContent, ToolUseContent } from "./content.js";
import type { Tool } from "./tools.js";

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
