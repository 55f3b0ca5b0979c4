/**
 * The host's answer to a view's `ui/initialize` (`McpUiInitializeResult`): the version, as MCP
 * negotiates it (the view's own when this host speaks it, else this host's newest, for the view
 * to accept or leave), the host's name, what the host can do, and the view's context.
 *
 * The capabilities declare only what the host can do: a callback it gave (`openLinks`,
 * `message`, `updateModelContext`), the session's own proxying where the server has the
 * capability (`serverTools`, `serverResources`), the logging every session takes in, and the
 * sandbox the host says it applied. Nothing is declared for list changes, which no session sends.
 */
import type { Implementation } from "../protocol/types/index.js";
import { APP_PROTOCOL_VERSIONS, LATEST_APP_PROTOCOL_VERSION, type AppHostCapabilities, type AppHostContext, type AppInfo, type AppInitializeResult, type ContentModalities } from "./app-protocol.js";
import type { AppSessionOptions } from "./app-session-types.js";

const DEFAULT_HOST_INFO: Implementation = Object.freeze({ name: "conduit", version: "0" });

export type Modalities = (kind: "message" | "updateModelContext") => ContentModalities;

export function initializeResult(options: AppSessionOptions, view: AppInfo, hostContext: AppHostContext, modalities: Modalities): AppInitializeResult {
  const asked = view.protocolVersion;
  return {
    protocolVersion: APP_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_APP_PROTOCOL_VERSION,
    hostInfo: options.hostInfo ?? DEFAULT_HOST_INFO,
    hostCapabilities: hostCapabilities(options, modalities),
    hostContext,
  };
}

export function hostCapabilities(options: AppSessionOptions, modalities: Modalities): AppHostCapabilities {
  const server = options.server.serverCapabilities;
  const capabilities: AppHostCapabilities = { logging: {} };
  if (server?.tools !== undefined) capabilities.serverTools = {};
  if (server?.resources !== undefined) capabilities.serverResources = {};
  if (options.onOpenLink !== undefined) capabilities.openLinks = {};
  if (options.onMessage !== undefined) capabilities.message = modalities("message");
  if (options.onUpdateModelContext !== undefined) capabilities.updateModelContext = modalities("updateModelContext");
  if (options.sandbox !== undefined) capabilities.sandbox = options.sandbox;
  return capabilities;
}
