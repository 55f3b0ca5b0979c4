/**
 * `conduit-mcp/apps-bridge`: MCP Apps in a web host's page, in the spec's two-origin
 * arrangement (2026-01-26, "Sandbox proxy"). `mountApp` runs in the host's page and frames the
 * sandbox proxy; `sandboxProxyPage` is the page the host serves on its sandbox origin (or
 * `runSandboxProxy`, the same script for a page the host builds itself). The view is any MCP
 * Apps view (the official `App` class speaks to it unchanged); what the view asks is judged by
 * the session `connect` makes, not here.
 *
 * Runtime-neutral: no Node module; `mountApp` needs a DOM, `sandboxProxyPage` only strings.
 */
export { mountApp, type MountableResource, type MountAppOptions, type MountedApp, type MountStats } from "./mount.js";
export { runSandboxProxy, sandboxProxyPage, type SandboxProxyConfig } from "./proxy.js";
export type { AppPort, AppPortConnector } from "./port.js";
export { MAX_SIDE_PX, type AppSize, type AutoSize } from "./size.js";
export { DEFAULT_INNER_SANDBOX, INNER_SANDBOX_TOKENS, OUTER_SANDBOX } from "./wire.js";
