/**
 * The one walk over the catalog that every list of definitions makes: a tool the API cannot
 * take is reported on its own and the rest go on, because one bad tool in a request makes
 * the API refuse the whole request.
 *
 * A tool whose `visibility` lacks `"model"` is never given (MCP Apps, apps.mdx 2026-01-26: a host
 * MUST NOT hand the agent such a tool); it is reported like the others. The visibility is the
 * catalog's reading of the tool's `_meta.ui`, so a tool without one (not made by the catalog) is
 * left out too, rather than read a second way here.
 */
import type { CatalogTool } from "../index.js";
import { clip, isArray, isObject, own, ownString, type Json } from "./json.js";
import type { Limits } from "./options.js";
import { objectRoot } from "./root-schema.js";
import type { ToolReport } from "./types.js";

/** The names OpenAI and Anthropic take for a tool (the catalog's qualified names are such). */
const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What a definition is made from: the tool, its schema with an object root, its description. */
export interface Accepted {
  readonly tool: CatalogTool;
  readonly qualifiedName: string;
  readonly serverId: string;
  readonly schema: Json;
  readonly description: string | undefined;
}

export interface Selection {
  readonly accepted: Accepted[];
  readonly skipped: ToolReport[];
}

/** The tools of `catalog` the APIs can take, in order, at most `limits.maxTools` of them. */
export function selectTools(catalog: readonly CatalogTool[], limits: Limits): Selection {
  const given: unknown = catalog;
  if (!isArray(given)) throw new TypeError("the tools must be an array (client.tools())");
  const accepted: Accepted[] = [];
  const skipped: ToolReport[] = [];
  const names = new Set<string>();
  for (const tool of given) {
    const reason = judgeSafely(tool, limits, names, accepted);
    if (reason !== undefined) skipped.push({ ...identify(tool), reason });
  }
  return { accepted, skipped };
}

/** A tool that breaks what the checks expect (a getter that throws) is reported, not thrown. */
function judgeSafely(tool: unknown, limits: Limits, names: Set<string>, accepted: Accepted[]): string | undefined {
  try {
    return judge(tool, limits, names, accepted);
  } catch (error) {
    return `could not be read (${error instanceof Error ? clip(error.message) : "error"})`;
  }
}

/** Why `tool` is left out, or undefined when it was taken. */
function judge(tool: unknown, limits: Limits, names: Set<string>, accepted: Accepted[]): string | undefined {
  if (!isObject(tool)) return "not a tool object";
  const hidden = notForModel(tool);
  if (hidden !== undefined) return hidden;
  const { qualifiedName, serverId } = identify(tool);
  if (!VALID_NAME.test(qualifiedName)) return `the name ${JSON.stringify(clip(qualifiedName, 80))} is not 1 to 64 letters, digits, "_" or "-"`;
  if (names.has(qualifiedName)) return `a tool named ${qualifiedName} came earlier in the list`;
  const root = objectRoot(own(tool, "inputSchema"), limits.maxSchemaLength);
  if (!root.ok) return root.reason;
  if (accepted.length >= limits.maxTools) return `past the limit of ${limits.maxTools} tools in one request`;
  names.add(qualifiedName);
  accepted.push({ tool: tool as CatalogTool, qualifiedName, serverId, schema: root.schema, description: describe(tool) });
  return undefined;
}

/** Why the model may not be given `tool`, by the visibility the catalog gave it. */
function notForModel(tool: Json): string | undefined {
  const visibility = own(tool, "visibility");
  if (!isArray(visibility)) return "has no visibility (give the tools as client.tools() lists them)";
  if (visibility.includes("model")) return undefined;
  return `its visibility is ${clip(JSON.stringify(visibility), 80)}: its server made it for its app's view alone, not for the model`;
}

function identify(tool: unknown): { qualifiedName: string; serverId: string } {
  if (!isObject(tool)) return { qualifiedName: "", serverId: "" };
  return { qualifiedName: ownString(tool, "qualifiedName") ?? "", serverId: ownString(tool, "serverId") ?? "" };
}

/** The description for the model: the tool's own, else its title. */
function describe(tool: Json): string | undefined {
  const description = ownString(tool, "description");
  if (description !== undefined && description !== "") return description;
  const title = ownString(tool, "title");
  return title !== undefined && title !== "" ? title : undefined;
}
