/**
 * The public shapes of an `AppSession`: its options, what it asks the host, and its counters.
 */
import type { Implementation, Tool } from "../protocol/types/index.js";
import type { ServerHandle } from "../server.js";
import type { Logger } from "../util/logger.js";
import type { VettedUrl } from "../shared-checks.js";
import type { AppLimitsOptions } from "./app-limits.js";
import type { AppHostContext, AppInfo, AppSandbox, ContentModalities, DisplayMode } from "./app-protocol.js";
import type { ChatMessage, ModelContext, ViewSize } from "./app-requests.js";
import type { ToolAudience } from "./apps-tool-meta.js";

/** What the session needs of the server the tool belongs to: a `ServerHandle` has it all. */
export type AppServer = Pick<ServerHandle, "id" | "origin" | "serverCapabilities" | "listTools" | "callTool" | "readResource">;

/**
 * `connecting` until the view says `ui/notifications/initialized` (it has sent `ui/initialize`
 * when `viewInfo` is set); `initialized` while it runs; `closing` while `teardown()` waits for
 * the view's answer; `closed` for good: nothing is sent or served any more.
 */
export type AppSessionState = "connecting" | "initialized" | "closing" | "closed";

/** Which app asks: the server and the tool whose view it is. */
export interface AppOrigin {
  serverId: string;
  /** The name of the tool whose view this is. */
  tool: string;
}

/** A view's request that passes through to its server, put to the host's `consent`. */
export type AppRequest =
  | (AppOrigin & {
      method: "tools/call";
      /** The tool to be called, as the server lists it now. */
      target: Tool;
      arguments: Record<string, unknown> | undefined;
      /** Who may call `target` (`"app"` always; `"model"` too when the model may). */
      visibility: readonly ToolAudience[];
    })
  | (AppOrigin & { method: "resources/read"; uri: string });

/** A link the view asks the host to open, vetted: the host shows it; Conduit never opens it. */
export interface AppLink extends VettedUrl, AppOrigin {}

/** A host's answer: `false` declines (the view gets an error), anything else accepts. */
export type HostAnswer = boolean | void | Promise<boolean | void>;

export interface AppSessionOptions {
  /** The server the tool belongs to: the only one the view's calls and reads go to. */
  server: AppServer;
  /** The tool whose view this is (its name and `_meta`, as listed). */
  tool: Tool;
  /** Sends a JSON-RPC message to the view. */
  send: (message: object) => void;
  /**
   * Whether the view may make this call or read. Without one: a read of a `ui://` resource is
   * allowed, a call only of a tool the model cannot see (`visibility: ["app"]`, the server's
   * plumbing for its own view); a tool the model may call is one a host would ask the user
   * about, and without a hook the session cannot ask, so it refuses. Anything but `true`
   * refuses; the wait is bounded by `limits.hostTimeout`.
   */
  consent?: ((ask: AppRequest) => boolean | Promise<boolean>) | undefined;
  /** Shows the host the link the view asks to open (`ui/open-link`); declares `openLinks`. */
  onOpenLink?: ((link: AppLink) => HostAnswer) | undefined;
  /** A message for the conversation (`ui/message`); declares `message`. */
  onMessage?: ((message: ChatMessage, from: AppOrigin) => HostAnswer) | undefined;
  /** The view's context for the model's next turns (`ui/update-model-context`); declares `updateModelContext`. */
  onUpdateModelContext?: ((context: ModelContext, from: AppOrigin) => HostAnswer) | undefined;
  /** The view's content size changed (`ui/notifications/size-changed`), numbers checked. */
  onSizeChange?: ((size: ViewSize) => void) | undefined;
  /**
   * The view asks for a display mode it and the host both list: returns the mode now in effect
   * (without one, the current mode is the answer, as the spec asks).
   */
  onDisplayMode?: ((mode: DisplayMode, from: AppOrigin) => DisplayMode | Promise<DisplayMode>) | undefined;
  /** The view asks to be closed (`ui/notifications/request-teardown`); the host decides. */
  onRequestTeardown?: ((from: AppOrigin) => void) | undefined;
  /** The view is ready (`ui/notifications/initialized`): what it said of itself. */
  onInitialized?: ((view: AppInfo) => void) | undefined;
  /** The host's name and version for the view (default `{ name: "conduit", version: "0" }`). */
  hostInfo?: Implementation | undefined;
  /** What the view is told of its surroundings; `toolInfo` defaults to the tool. */
  hostContext?: AppHostContext | undefined;
  /** The CSP and permissions the host applied (`hostCapabilities.sandbox`). */
  sandbox?: AppSandbox | undefined;
  /** What content the host takes (default: text, and structured content for the model's context). */
  modalities?: { message?: ContentModalities | undefined; updateModelContext?: ContentModalities | undefined } | undefined;
  /** The server's tools as the host knows them now (its catalog); default: the server lists them for each call. */
  tools?: (() => readonly Tool[] | Promise<readonly Tool[]>) | undefined;
  /** Where the view's requests (debug), its logs and the refusals go. */
  logger?: Logger | undefined;
  limits?: AppLimitsOptions | undefined;
}

/** What a session refused or dropped, counted (each kind is logged only now and then). */
export interface AppSessionStats {
  /** Messages of any kind refused over `limits.messageRate`. */
  overRate: number;
  /** Messages refused as malformed or out of bounds. */
  invalid: number;
  /** Requests refused because `limits.maxInFlight` were being served. */
  busy: number;
  /** Responses to no request the host made. */
  strayResponses: number;
  /** Log entries dropped over `limits.logRate`. */
  logsDropped: number;
  /** Messages from the view after the session closed. */
  afterClose: number;
}
