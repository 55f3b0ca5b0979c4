/**
 * What a tool's `_meta` says about MCP Apps (`io.modelcontextprotocol/ui`): which app view
 * belongs to it and who may call it. Read once here so that the catalog, the adapters, `callTool`
 * and an app's session agree on one reading.
 *
 * The spec: `_meta.ui.resourceUri` names the view (`ui://…`; the flat `_meta["ui/resourceUri"]`
 * is the older spelling, still read); `_meta.ui.visibility` lists who may call the tool, `"model"`
 * (handed to the model) and `"app"` (callable from the tool's own view), both by default. A field
 * a server got wrong is read as absent, so a malformed visibility falls back to the default rather
 * than hiding a tool or, worse, handing an app-only tool to the model: an array that holds neither
 * known word counts as malformed, and unknown words beside known ones are dropped.
 */
import type { Tool } from "../protocol/types/index.js";

export const APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

export type ToolAudience = "model" | "app";

export const DEFAULT_VISIBILITY: readonly ToolAudience[] = Object.freeze(["model", "app"]);

export interface AppsToolMeta {
  /** The tool's view, a `ui://` URI; absent when the tool has none (or named it wrongly). */
  readonly resourceUri?: string;
  /** Who may call the tool; never empty. */
  readonly visibility: readonly ToolAudience[];
}

const NO_APP: AppsToolMeta = Object.freeze({ visibility: DEFAULT_VISIBILITY });

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function readVisibility(value: unknown): readonly ToolAudience[] {
  if (!Array.isArray(value)) return DEFAULT_VISIBILITY;
  const model = value.includes("model");
  const app = value.includes("app");
  if (model && app) return DEFAULT_VISIBILITY;
  if (model) return MODEL_ONLY;
  if (app) return APP_ONLY;
  return DEFAULT_VISIBILITY;
}

const MODEL_ONLY: readonly ToolAudience[] = Object.freeze(["model"]);
const APP_ONLY: readonly ToolAudience[] = Object.freeze(["app"]);

function readResourceUri(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith("ui://") && value.length > 5 ? value : undefined;
}

export function appsToolMeta(tool: Pick<Tool, "_meta">): AppsToolMeta {
  const meta = record(tool._meta);
  if (meta === undefined) return NO_APP;
  const ui = record(meta.ui);
  const resourceUri = readResourceUri(ui?.resourceUri) ?? readResourceUri(meta["ui/resourceUri"]);
  const visibility = readVisibility(ui?.visibility);
  if (resourceUri === undefined && visibility === DEFAULT_VISIBILITY) return NO_APP;
  return resourceUri === undefined ? { visibility } : { resourceUri, visibility };
}

/** May `audience` call this tool? */
export function visibleTo(tool: Pick<Tool, "_meta">, audience: ToolAudience): boolean {
  return appsToolMeta(tool).visibility.includes(audience);
}
