/**
 * Who may call a catalog tool (MCP Apps, apps.mdx 2026-01-26 "Visibility"): a host MUST NOT give
 * the model a tool whose `visibility` lacks `"model"`, and MUST refuse an app's `tools/call` of a
 * tool whose `visibility` lacks `"app"`. The catalog's `callTool` judges every call by who makes
 * it (`caller`, `"model"` unless the call says it comes from an app) before anything is sent, so
 * that a model that names an app-only tool costs the server nothing.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { quote } from "../util/text.js";
import type { ToolAudience } from "../index.js";

/** Which tools `client.tools()` gives: those the model may call (the default), those an app may, or all. */
export type ToolView = ToolAudience | "all";

const VIEWS: ReadonlySet<string> = new Set(["model", "app", "all"]);

/** The `audience` option of `client.tools()`, checked. */
export function checkView(value: unknown): ToolView {
  if (value === undefined) return "model";
  if (typeof value === "string" && VIEWS.has(value)) return value as ToolView;
  throw new InvalidArgumentError(`the tools option \`audience\` must be "model", "app" or "all", got ${quote(value)}`);
}

/** The `caller` option of `client.callTool`, checked: `"model"` unless given. */
export function checkCaller(value: unknown): ToolAudience {
  if (value === undefined || value === "model") return "model";
  if (value === "app") return "app";
  throw new InvalidArgumentError(`the call option \`caller\` must be "model" or "app", got ${quote(value)}`);
}

export interface ToolVisibilityErrorOptions {
  serverId: string;
  /** The catalog's name of the tool. */
  qualifiedName: string;
  /** The tool's own name on its server. */
  toolName: string;
  caller: ToolAudience;
  visibility: readonly ToolAudience[];
}

const brand = Symbol.for("conduit-mcp.ToolVisibilityError");

/**
 * A call refused because its caller is not among those the tool's server allows (a model calling
 * a tool made for its app's view alone, or an app calling one made for the model alone). A
 * `ClientError` of kind `"unsupported"`, as for a name the catalog does not know: to the caller,
 * the tool is not there. Nothing was sent.
 */
export class ToolVisibilityError extends ClientError {
  readonly qualifiedName: string;
  readonly toolName: string;
  readonly caller: ToolAudience;
  readonly visibility: readonly ToolAudience[];

  constructor(options: ToolVisibilityErrorOptions) {
    super("unsupported", visibilityMessage(options), { serverId: options.serverId });
    this.qualifiedName = options.qualifiedName;
    this.toolName = options.toolName;
    this.caller = options.caller;
    this.visibility = options.visibility;
    Object.defineProperty(this, brand, { value: true });
  }

  // Its own brand: without it, every ClientError would pass `instanceof ToolVisibilityError`.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

function visibilityMessage({ serverId, qualifiedName, toolName, caller, visibility }: ToolVisibilityErrorOptions): string {
  const only = visibility.includes("model") ? "the model alone" : "its app's view alone";
  const who = caller === "model" ? "a model" : "an app";
  return `the tool ${qualifiedName} (${quote(toolName)} of server "${serverId}") is for ${only} (visibility ${JSON.stringify(visibility)}): ${who} may not call it`;
}
