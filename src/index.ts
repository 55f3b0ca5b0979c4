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
export type { CatalogStoreOptions, ClientOptions, ConnectOptions, PinningOptions } from "./options.js";
export type { ServerTarget, RemoteTarget } from "./options.js";
export type { Store, StoreSetOptions } from "./stores/store.js";
export type { TraceCarrier, TracedRequest, TracedStep, Tracing } from "./tracing/tracing.js";
export { MAX_META_BYTES, MAX_META_KEYS } from "./protocol/request-meta.js";
export {
  isPendingInput,
  DEFAULT_PENDING_MS,
  MAX_PENDING_MS,
  type PendingInput,
  type PendingInputRequest,
  type PendingMethod,
  type InputVerdict,
} from "./pending-input.js";
export type { ResumeOptions, ResumeResult } from "./server-input.js";
export type { InputRequiredMode } from "./protocol/methods.js";
export { memoryStore, type AuthGrant, type AuthOptions, type AuthStore, type AuthorizeCallback } from "./auth/options.js";
export { loadServerConfig, jsonProblemAt, type ConfiguredServer, type LoadOptions } from "./host/config.js";
export type { ConnectAllOptions, ConnectAllResult } from "./host/connect-all.js";
export type { CatalogCallOptions, CatalogOptions, CatalogPrompt, CatalogResource, CatalogTool, ToolSearchOptions, ToolsOptions } from "./host/catalog.js";
export type { ToolSearchHit } from "./host/tool-search.js";
export { ToolVisibilityError, type ToolVisibilityErrorOptions, type ToolView } from "./host/tool-visibility.js";
export type { CatalogChange, PinningPolicy } from "./host/tool-pins.js";
export { ToolNotApprovedError, type ToolApprovalReason, type ToolNotApprovedErrorOptions } from "./host/tool-pin-error.js";
export { toolFingerprint, promptFingerprint, resourceTemplateFingerprint } from "./host/tool-fingerprint.js";
export type { ListenFilter, Subscription } from "./protocol/subscriptions.js";
export type { StdioTarget } from "./transport/stdio-target.js";
export type { HttpTarget } from "./transport/http.js";
export type { FetchLike } from "./transport/http-exchange.js";
export type { RequestId, EraPolicy, InboundMeta, SendOptions } from "./transport/transport.js";
export type { HostTransport as Transport, ChannelSink, ChannelTarget } from "./transport/channel.js";
export { MAX_CHANNEL_DEPTH } from "./transport/channel.js";
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
// MCP Apps: the extension and tools' visibility, which the catalog reads (the app's resource, its policy
// and the session of a rendered view are on `conduit-mcp/apps`)
export { APPS_EXTENSION, APP_MIME_TYPE, DEFAULT_VISIBILITY, appsToolMeta, visibleTo, type AppsToolMeta, type ToolAudience } from "./apps/apps-tool-meta.js";
export { appsExtension, type AppsExtensionSettings } from "./apps/apps-extension.js";
export type { LoadedSkill, RefusedSkill, SkillEntry, SkillFile, SkillFrontmatter, SkillListing, SkillResourceEntry, SkillsOptions } from "./ext/skills-types.js";
// Browser OAuth
export { webStorageStore, type WebStorage, type WebStorageStoreOptions } from "./stores/web-storage-store.js";
export { indexedDbStore, type IndexedDbStore, type IndexedDbStoreOptions, type KeyPairStore } from "./stores/indexeddb-store.js";
export { browserPopup, isPopupBlocked, POPUP_BLOCKED, type BrowserPopupOptions, type BlockedPopup, type BrowserAuthorization } from "./auth/browser-popup.js";
export { browserRedirect, type BrowserRedirectOptions, type BrowserRedirectAuthorization } from "./auth/browser-redirect.js";
export { completeAuthorization, type CompleteAuthorizationOptions, type CallbackOutcome } from "./auth/browser-callback.js";
export type { PendingFlow, PendingFlowStore } from "./auth/pending-flow.js";
