/**
 * `conduit-mcp/apps`: MCP Apps on the host's side (`io.modelcontextprotocol/ui`), runtime-neutral
 * like the root entry. An app's resource with its policy (CSP, `allow`, fingerprint) and
 * `AppSession`, the policy core of one rendered view. Its own subpath, so that a host that never
 * renders an app loads none of it: the root entry keeps only what the catalog reads of a tool
 * (`appsToolMeta`, visibility) and the extension's declaration.
 */
export { APPS_EXTENSION, APP_MIME_TYPE, DEFAULT_VISIBILITY, appsToolMeta, visibleTo, type AppsToolMeta, type ToolAudience } from "./apps-tool-meta.js";
export { appsExtension, type AppsExtensionSettings } from "./apps-extension.js";
// MCP Apps: an app's resource, its policy, permissions and fingerprint
export { readAppResource, APP_RESOURCE_DEFAULTS, type AppResource, type ReadAppResourceOptions } from "./app-resource.js";
export { AppResourceError, type AppResourceFailure } from "./app-resource-error.js";
export { appUiMeta, APP_PERMISSIONS, type AppUiMeta, type AppCspDomains, type AppPermission, type AppPermissions, type DroppedField } from "./app-meta.js";
export { appCsp } from "./app-csp.js";
export { appAllow } from "./app-permissions.js";
export { appFingerprint, type AppFingerprintInput } from "./app-fingerprint.js";
export { appSource, type SourceVerdict } from "./app-sources.js";
// MCP Apps: the policy core of one rendered view
export { AppSession } from "./app-session.js";
export type { AppSessionOptions, AppSessionState, AppSessionStats, AppRequest, AppLink, AppOrigin, AppServer, HostAnswer } from "./app-session-types.js";
export { DEFAULT_APP_LIMITS, type AppLimits, type AppLimitsOptions } from "./app-limits.js";
export { APP_PROTOCOL_VERSIONS, LATEST_APP_PROTOCOL_VERSION, type AppHostCapabilities, type AppHostContext, type AppInfo, type AppInitializeResult, type AppSandbox, type ContentModalities, type DisplayMode } from "./app-protocol.js";
export type { ChatMessage, ModelContext, ViewSize } from "./app-requests.js";
