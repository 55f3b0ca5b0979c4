export { Client, type NotificationListener, type ServerNotification } from "./client.js";
export {
  ServerHandle,
  type CallOptions,
  type ListOptions,
  type ServerState,
  type ServerStateChange,
  type ServerStats,
  type ToolCallOptions,
  type AwaitTaskOptions,
  type CacheableList,
  type Listed,
} from "./server.js";
export type { RestartOptions } from "./restart-policy.js";
export { isTask } from "./protocol/tasks.js";
export type { ClientOptions, ConnectOptions } from "./options.js";
export type { ServerTarget, RemoteTarget } from "./options.js";
export type { Store, StoreSetOptions } from "./stores/store.js";
export { memoryStore, type AuthGrant, type AuthOptions, type AuthStore, type AuthorizeCallback } from "./auth/options.js";
export { loadServerConfig, jsonProblemAt, type ConfiguredServer, type LoadOptions } from "./host/config.js";
export type { ConnectAllOptions, ConnectAllResult } from "./host/connect-all.js";
export type { CatalogCallOptions, CatalogOptions, CatalogPrompt, CatalogResource, CatalogTool, ToolsOptions } from "./host/catalog.js";
export { ToolVisibilityError, type ToolVisibilityErrorOptions, type ToolView } from "./host/tool-visibility.js";
export type { ListenFilter, Subscription } from "./protocol/subscriptions.js";
export type { StdioTarget } from "./transport/stdio-target.js";
export type { HttpTarget } from "./transport/http.js";
export type { FetchLike } from "./transport/http-exchange.js";
export type { RequestId } from "./transport/transport.js";
export type { Progress } from "./rpc/pending-call.js";
export { ClientError, RpcError, ErrorCode, InvalidArgumentError, type ClientErrorKind, type ClientErrorOptions, type RequiredUrl } from "./util/errors.js";
export type { Logger } from "./util/logger.js";
export { sanitize, type SanitizeOptions } from "./util/sanitize.js";
export { redactUrl, redactCommandLine } from "./util/text.js";
export type { RateLimit } from "./util/token-bucket.js";
export type {
  Handler,
  InputContext,
  ElicitationContext,
  FormElicitationContext,
  UrlElicitationContext,
  NotificationContext,
  FieldInfo,
} from "./input/handler.js";
export type { SamplingOptions, HandlerTimeouts } from "./input/options.js";
export type { ElicitationMode } from "./protocol/versions.js";
export {
  SUPPORTED_VERSIONS,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  type ProtocolVersion,
  type LegacyVersion,
  type ModernVersion,
  type Era,
} from "./protocol/versions.js";
export type * from "./protocol/types/index.js";
import type { LoggingLevel } from "./protocol/types/index.js";
export { LOGGING_LEVELS } from "./protocol/types/index.js";
/** The RFC 5424 level of a log entry (the spec's `LoggingLevel`). */
export type LogLevel = LoggingLevel;
export { skillsOf, SKILLS_EXTENSION, type ServerSkills } from "./ext/skills.js";
export { SkillError, type SkillFailure } from "./ext/skills-error.js";
// MCP Apps
export { APPS_EXTENSION, APP_MIME_TYPE, DEFAULT_VISIBILITY, appsToolMeta, visibleTo, type AppsToolMeta, type ToolAudience } from "./ext/apps-tool-meta.js";
export { appsExtension, type AppsExtensionSettings } from "./ext/apps-extension.js";
export type { LoadedSkill, RefusedSkill, SkillEntry, SkillFile, SkillFrontmatter, SkillListing, SkillResourceEntry, SkillsOptions } from "./ext/skills-types.js";
// MCP Apps: an app's resource, its policy, permissions and fingerprint
export { readAppResource, APP_RESOURCE_DEFAULTS, type AppResource, type ReadAppResourceOptions } from "./ext/app-resource.js";
export { AppResourceError, type AppResourceFailure } from "./ext/app-resource-error.js";
export { appUiMeta, APP_PERMISSIONS, type AppUiMeta, type AppCspDomains, type AppPermission, type AppPermissions, type DroppedField } from "./ext/app-meta.js";
export { appCsp } from "./ext/app-csp.js";
export { appAllow } from "./ext/app-permissions.js";
export { appFingerprint, type AppFingerprintInput } from "./ext/app-fingerprint.js";
export { appSource, type SourceVerdict } from "./ext/app-sources.js";
// Browser OAuth
export { webStorageStore, type WebStorage, type WebStorageStoreOptions } from "./stores/web-storage-store.js";
export { indexedDbStore, type IndexedDbStore, type IndexedDbStoreOptions, type KeyPairStore } from "./stores/indexeddb-store.js";
export { browserPopup, isPopupBlocked, POPUP_BLOCKED, type BrowserPopupOptions, type BlockedPopup, type BrowserAuthorization } from "./auth/browser-popup.js";
export { browserRedirect, type BrowserRedirectOptions, type BrowserRedirectAuthorization } from "./auth/browser-redirect.js";
export { completeAuthorization, type CompleteAuthorizationOptions, type CallbackOutcome } from "./auth/browser-callback.js";
export type { PendingFlow, PendingFlowStore } from "./auth/pending-flow.js";
// MCP Apps: the policy core of one rendered view
export { AppSession } from "./ext/app-session.js";
export type { AppSessionOptions, AppSessionState, AppSessionStats, AppRequest, AppLink, AppOrigin, AppServer, HostAnswer } from "./ext/app-session-types.js";
export { DEFAULT_APP_LIMITS, type AppLimits, type AppLimitsOptions } from "./ext/app-limits.js";
export { APP_PROTOCOL_VERSIONS, LATEST_APP_PROTOCOL_VERSION, type AppHostCapabilities, type AppHostContext, type AppInfo, type AppInitializeResult, type AppSandbox, type ContentModalities, type DisplayMode } from "./ext/app-protocol.js";
export type { ChatMessage, ModelContext, ViewSize } from "./ext/app-requests.js";
