/**
 * The checks of what a view asks, one per method, each a verdict: the params the session acts
 * on, or the JSON-RPC error the view gets. Pure: the session decides what to do with a pass.
 *
 * - `ui/initialize`: a version string, `appInfo` (name and version) and `appCapabilities`.
 * - `tools/call`: a tool name and, if any, an arguments object.
 * - `resources/read`: a `ui://` URI (the only resources a view reads are views).
 * - `ui/open-link`: the URL vetting of URL elicitation (`vetUrl`: absolute https, no user name
 *   or password, bounded length), so that `javascript:`, `data:`, `file:` and the rest never
 *   reach the host.
 * - `ui/message`, `ui/update-model-context`: bounded bytes and blocks, each block of a kind the
 *   host declared, text cleaned of what a person cannot see but a model reads (`sanitize`).
 * - `ui/request-display-mode`: one of the spec's modes.
 * - `ui/notifications/size-changed`: finite, non-negative numbers up to `maxDimension`.
 */
import type { ContentBlock, Implementation } from "../protocol/types/index.js";
import { pass, refuse, type Verdict } from "../util/assert.js";
import { ErrorCode } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { sanitize } from "../util/sanitize.js";
import { quote } from "../util/text.js";
import { vetUrl, type VettedUrl } from "../shared-checks.js";
import { measureJson } from "../util/json-measure.js";
import { DISPLAY_MODES, type AppInfo, type ContentModalities, type DisplayMode } from "./app-protocol.js";
import type { AppLimits } from "./app-limits.js";

const INVALID = ErrorCode.InvalidParams;
/** Names and URIs are identifiers, not documents. */
const MAX_NAME = 1024;
const MAX_URI = 8 * 1024;

export function checkInitialize(params: Record<string, unknown>): Verdict<AppInfo> {
  const { protocolVersion, appInfo, appCapabilities } = params;
  if (typeof protocolVersion !== "string" || protocolVersion === "" || protocolVersion.length > 64) return refuse(INVALID, "protocolVersion must be a version string");
  if (!isObject(appInfo) || typeof appInfo.name !== "string" || typeof appInfo.version !== "string") return refuse(INVALID, "appInfo must name the app (name and version)");
  if (!isObject(appCapabilities)) return refuse(INVALID, "appCapabilities must be an object");
  const modes = appCapabilities.availableDisplayModes;
  if (modes !== undefined && !(Array.isArray(modes) && modes.every(isDisplayMode))) return refuse(INVALID, "appCapabilities.availableDisplayModes must list display modes");
  return pass({ protocolVersion, appInfo: appInfo as unknown as Implementation, appCapabilities: appCapabilities });
}

export interface ToolCallAsk {
  name: string;
  arguments: Record<string, unknown> | undefined;
}

export function checkToolCall(params: Record<string, unknown>): Verdict<ToolCallAsk> {
  const { name, arguments: args } = params;
  if (typeof name !== "string" || name === "" || name.length > MAX_NAME) return refuse(INVALID, "tools/call needs a tool name");
  if (args !== undefined && !isObject(args)) return refuse(INVALID, "tools/call arguments must be an object");
  return pass({ name, arguments: args });
}

export function checkResourceRead(params: Record<string, unknown>): Verdict<string> {
  const { uri } = params;
  if (typeof uri !== "string" || uri.length > MAX_URI) return refuse(INVALID, "resources/read needs a uri");
  // A view reads views: the server's other resources (files, data) are the model's and the host's.
  if (!uri.startsWith("ui://") || uri.length === 5) return refuse(INVALID, `a view may read only ui:// resources, not ${quote(uri.slice(0, 64))}`);
  return pass(uri);
}

export function checkOpenLink(params: Record<string, unknown>, serverOrigin: string | undefined): Verdict<VettedUrl> {
  return vetUrl(params.url, serverOrigin);
}

export interface ChatMessage {
  role: "user";
  content: ContentBlock[];
}

export function checkChatMessage(params: Record<string, unknown>, modalities: ContentModalities, limits: AppLimits): Verdict<ChatMessage> {
  const size = measureJson(params, limits.maxChatMessageBytes, limits.maxDepth);
  if (!size.ok) return refuse(INVALID, `a ui/message must be at most ${limits.maxChatMessageBytes} bytes`);
  if (params.role !== "user") return refuse(INVALID, 'a ui/message has the role "user"');
  // The stable spec shows one block, its types an array of them: both are read.
  const given = isObject(params.content) ? [params.content] : params.content;
  if (!Array.isArray(given) || given.length === 0) return refuse(INVALID, "a ui/message needs content");
  const content = checkBlocks(given, modalities, limits.maxContentBlocks);
  if (!content.ok) return content;
  return pass({ role: "user", content: content.value });
}

export interface ModelContext {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

export function checkModelContext(params: Record<string, unknown>, modalities: ContentModalities, limits: AppLimits): Verdict<ModelContext> {
  const size = measureJson(params, limits.maxModelContextBytes, limits.maxDepth);
  if (!size.ok) return refuse(INVALID, `a ui/update-model-context must be at most ${limits.maxModelContextBytes} bytes`);
  const update: ModelContext = {};
  if (params.content !== undefined) {
    if (!Array.isArray(params.content)) return refuse(INVALID, "content must be an array of content blocks");
    const content = checkBlocks(params.content as unknown[], modalities, limits.maxContentBlocks);
    if (!content.ok) return content;
    update.content = content.value;
  }
  if (params.structuredContent !== undefined) {
    if (!isObject(params.structuredContent)) return refuse(INVALID, "structuredContent must be an object");
    if (modalities.structuredContent === undefined) return refuse(INVALID, "this host takes no structuredContent");
    update.structuredContent = params.structuredContent;
  }
  return pass(update);
}

/** The block kinds by the modality that admits them. */
const MODALITY_OF: Readonly<Record<string, keyof ContentModalities>> = {
  text: "text",
  image: "image",
  audio: "audio",
  resource: "resource",
  resource_link: "resourceLink",
};

function checkBlocks(blocks: unknown[], modalities: ContentModalities, maxBlocks: number): Verdict<ContentBlock[]> {
  if (blocks.length > maxBlocks) return refuse(INVALID, `at most ${maxBlocks} content blocks`);
  const checked: ContentBlock[] = [];
  for (const [i, block] of blocks.entries()) {
    if (!isObject(block) || typeof block.type !== "string") return refuse(INVALID, `content[${i}] must be a content block`);
    const modality = Object.hasOwn(MODALITY_OF, block.type) ? MODALITY_OF[block.type] : undefined;
    if (modality === undefined || modalities[modality] === undefined) return refuse(INVALID, `content[${i}]: this host takes no ${quote(block.type.slice(0, 64))} content`);
    const problem = blockProblem(block);
    if (problem !== undefined) return refuse(INVALID, `content[${i}]: ${problem}`);
    checked.push(block.type === "text" ? { ...block, type: "text", text: sanitize(block.text as string, { lines: true, max: Infinity }) } : (block as unknown as ContentBlock));
  }
  return pass(checked);
}

function blockProblem(block: Record<string, unknown>): string | undefined {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? undefined : "a text block needs text";
    case "image":
    case "audio":
      return typeof block.data === "string" && typeof block.mimeType === "string" ? undefined : `an ${block.type} block needs data and a mimeType`;
    case "resource_link":
      return typeof block.uri === "string" && typeof block.name === "string" ? undefined : "a resource link needs a uri and a name";
    default:
      return isObject(block.resource) && typeof block.resource.uri === "string" ? undefined : "an embedded resource needs a resource with a uri";
  }
}

export function isDisplayMode(value: unknown): value is DisplayMode {
  return DISPLAY_MODES.includes(value as DisplayMode);
}

export function checkDisplayMode(params: Record<string, unknown>): Verdict<DisplayMode> {
  return isDisplayMode(params.mode) ? pass(params.mode) : refuse(INVALID, 'mode must be "inline", "fullscreen" or "pip"');
}

export interface ViewSize {
  width?: number;
  height?: number;
}

export function checkSize(params: Record<string, unknown>, maxDimension: number): Verdict<ViewSize> {
  const size: ViewSize = {};
  for (const side of ["width", "height"] as const) {
    const value = params[side];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > maxDimension) {
      return refuse(INVALID, `${side} must be a number of pixels from 0 to ${maxDimension}`);
    }
    size[side] = value;
  }
  if (size.width === undefined && size.height === undefined) return refuse(INVALID, "a size change names a width or a height");
  return pass(size);
}
