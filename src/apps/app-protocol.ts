/**
 * The MCP Apps wire between a host and a view (`io.modelcontextprotocol/ui`, spec 2026-01-26):
 * the method names, the protocol version, and the shapes of what the host sends, in the spec's
 * field names. Only what the session acts on is typed closely; the rest is passed on as given.
 */
import type { Implementation, Tool } from "../protocol/types/index.js";
import type { RequestId } from "../util/json.js";

/** The versions of the view–host protocol this host speaks, newest first. */
export const APP_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(["2026-01-26"]);
export const LATEST_APP_PROTOCOL_VERSION = "2026-01-26";

export const AppMethod = {
  // View → host, requests.
  Initialize: "ui/initialize",
  OpenLink: "ui/open-link",
  Message: "ui/message",
  UpdateModelContext: "ui/update-model-context",
  RequestDisplayMode: "ui/request-display-mode",
  ToolsCall: "tools/call",
  ResourcesRead: "resources/read",
  Ping: "ping",
  // View → host, notifications.
  Initialized: "ui/notifications/initialized",
  SizeChanged: "ui/notifications/size-changed",
  RequestTeardown: "ui/notifications/request-teardown",
  Log: "notifications/message",
  // Host → view.
  ToolInput: "ui/notifications/tool-input",
  ToolInputPartial: "ui/notifications/tool-input-partial",
  ToolResult: "ui/notifications/tool-result",
  ToolCancelled: "ui/notifications/tool-cancelled",
  HostContextChanged: "ui/notifications/host-context-changed",
  ResourceTeardown: "ui/resource-teardown",
} as const;

/** The sandbox proxy's own messages: the bridge's business, never the view's. */
export const SANDBOX_METHOD_PREFIX = "ui/notifications/sandbox-";

export type DisplayMode = "inline" | "fullscreen" | "pip";
export const DISPLAY_MODES: readonly DisplayMode[] = Object.freeze(["inline", "fullscreen", "pip"]);

/** Which content a host takes in a `ui/message` or a `ui/update-model-context` (`McpUiSupportedContentBlockModalities`). */
export interface ContentModalities {
  text?: object;
  image?: object;
  audio?: object;
  resource?: object;
  resourceLink?: object;
  structuredContent?: object;
}

/** The CSP and permissions the host applied, as the view is told (`hostCapabilities.sandbox`). */
export interface AppSandbox {
  permissions?: { camera?: object; microphone?: object; geolocation?: object; clipboardWrite?: object; [key: string]: unknown };
  csp?: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
}

/** What the host can do for the view (`McpUiHostCapabilities`). */
export interface AppHostCapabilities {
  openLinks?: object;
  serverTools?: { listChanged?: boolean };
  serverResources?: { listChanged?: boolean };
  logging?: object;
  sandbox?: AppSandbox;
  updateModelContext?: ContentModalities;
  message?: ContentModalities;
  [key: string]: unknown;
}

/** What the view is told of its surroundings (`McpUiHostContext`): the host's, passed on as given. */
export interface AppHostContext {
  toolInfo?: { id?: RequestId; tool: Tool };
  theme?: "light" | "dark";
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  locale?: string;
  timeZone?: string;
  platform?: "web" | "desktop" | "mobile";
  [key: string]: unknown;
}

/** The answer to `ui/initialize` (`McpUiInitializeResult`). */
export interface AppInitializeResult {
  protocolVersion: string;
  hostInfo: Implementation;
  hostCapabilities: AppHostCapabilities;
  hostContext: AppHostContext;
}

/** What the view said of itself in `ui/initialize`. */
export interface AppInfo {
  protocolVersion: string;
  appInfo: Implementation;
  appCapabilities: { availableDisplayModes?: DisplayMode[]; [key: string]: unknown };
}

// ---- JSON-RPC messages -------------------------------------------------------------------------

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type OutgoingMessage =
  | { jsonrpc: "2.0"; id: RequestId | null; error: RpcErrorBody }
  | { jsonrpc: "2.0"; id: RequestId; result: object }
  | { jsonrpc: "2.0"; id: RequestId; method: string; params: object }
  | { jsonrpc: "2.0"; method: string; params: object };

export function errorReply(id: RequestId | null, code: number, message: string): OutgoingMessage {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

export function resultReply(id: RequestId, result: object): OutgoingMessage {
  return { jsonrpc: "2.0", id, result };
}

export function notification(method: string, params: object): OutgoingMessage {
  return { jsonrpc: "2.0", method, params };
}
