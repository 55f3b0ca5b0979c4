/** Prompts and argument completion. */
import type { Icon, Meta, PaginatedResult, CacheableResult, Result, Role } from "./base.js";
import type { ContentBlock } from "./content.js";

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListPromptsResult extends PaginatedResult, CacheableResult {
  prompts: Prompt[];
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
  [key: string]: unknown;
}

export interface GetPromptParams {
  name: string;
  arguments?: { [name: string]: string };
  _meta?: Meta;
}

export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}

export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompleteParams {
  ref: CompletionReference;
  argument: { name: string; value: string };
  context?: { arguments?: { [name: string]: string } };
}

export interface CompleteResult extends Result {
  completion: { values: string[]; total?: number; hasMore?: boolean; [key: string]: unknown };
}
