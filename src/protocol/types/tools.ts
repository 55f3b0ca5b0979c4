/** Tools: `tools/list`, `tools/call`. */
import type { JsonObject } from "../../util/json.js";
import type { CacheableResult, Icon, Meta, PaginatedResult, Result } from "./base.js";
import type { ContentBlock } from "./content.js";

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  /** Kept exactly as the server sent it (JSON Schema; 2020-12 in 2026-07-28). */
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  /** 2025-11-25 tasks: "forbidden" | "optional" | "required". */
  execution?: { taskSupport?: string; [key: string]: unknown };
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListToolsResult extends PaginatedResult, CacheableResult {
  tools: Tool[];
}

export interface CallToolParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

export interface CallToolResult extends Result {
  content: ContentBlock[];
  /** Any JSON value in 2026-07-28; an object before. */
  structuredContent?: unknown;
  isError?: boolean;
}
