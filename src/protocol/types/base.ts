/**
 * Spec types shared by every area, written for this project from the MCP schemas of
 * 2025-06-18, 2025-11-25 and 2026-07-28 (schema/<version>/schema.ts). One type covers all
 * three versions: fields a version lacks are optional. Objects stay open (`[key: string]:
 * unknown`) because servers add fields and the spec adds more in each version.
 */
import type { JsonObject } from "../../util/json.js";

export type { JsonObject, JsonValue } from "../../util/json.js";

export type Cursor = string;
export type ProgressToken = string | number;

/** `_meta`: keys under reserved prefixes belong to the spec; the rest to implementations. */
export type Meta = { [key: string]: unknown };

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
  [key: string]: unknown;
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

export interface ServerCapabilities {
  experimental?: { [key: string]: JsonObject };
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean; [key: string]: unknown };
  resources?: { subscribe?: boolean; listChanged?: boolean; [key: string]: unknown };
  tools?: { listChanged?: boolean; [key: string]: unknown };
  /** 2025-11-25 tasks. */
  tasks?: JsonObject;
  /** 2026-07-28 extensions, keyed by extension id. */
  extensions?: { [id: string]: JsonObject };
  [key: string]: unknown;
}

export interface ClientCapabilities {
  experimental?: { [key: string]: JsonObject };
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  tasks?: JsonObject;
  extensions?: { [id: string]: JsonObject };
}

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
];

export type Role = "user" | "assistant";

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
  [key: string]: unknown;
}

/** Every result: `_meta`, and in 2026-07-28 `resultType` (missing means "complete"). */
export interface Result {
  _meta?: Meta;
  resultType?: string;
  [key: string]: unknown;
}

export interface PaginatedResult extends Result {
  nextCursor?: Cursor;
}

/** The params of a list request: the page to fetch (none for the first). */
export interface PaginatedParams {
  cursor?: Cursor;
  _meta?: Meta;
}

/** `logging/setLevel` (legacy). */
export interface SetLevelParams {
  level: LoggingLevel;
  _meta?: Meta;
}

/** A log entry (`notifications/message`), as the Handler's `handleLog` receives it: sanitised. */
export interface LogParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** 2026-07-28 caching hints on list and read results. */
export interface CacheableResult extends Result {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

export type EmptyResult = Result;
