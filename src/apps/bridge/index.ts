/**
 * `conduit-mcp/apps-bridge`: MCP Apps in a web host's page, in the spec's two-origin
 * arrangement (2026-01-26, "Sandbox proxy"). `mountApp` runs in the host's page and frames the
 * sandbox proxy; `sandboxProxyPage` is the page the host serves on its sandbox origin (or
 * `runSandboxProxy`, the same script for a page the host builds itself). The view is any MCP
 * Apps view (the official `App` class speaks to it unchanged); what the view asks is judged by
 * the session `connect` makes, not here.
 *
 * Runtime-neutral: no Node module; `mountApp` needs a DOM, `sandboxProxyPage` only strings
 * (and is also on `conduit-mcp/apps-bridge/proxy`, whose types need no DOM, for a Node server).
 *
 * ```ts
 * // The host's server, on its sandbox origin (not the page's):
 * //   GET /proxy.html → sandboxProxyPage({ hostOrigin: "https://host.example" }),
 * //   with the header `Content-Security-Policy: frame-ancestors https://host.example`.
 * // The host's page:
 * const app = await mountApp({
 *   container: document.querySelector("#app")!,
 *   sandboxUrl: "https://sandbox.host.example/proxy.html",
 *   resource,                                  // { html, csp, allow } of readAppResource
 *   connect: (send) => new AppSession({ send, ... }),
 * });
 * // ... later:
 * await app.unmount();                         // ui/resource-teardown, then the frames go
 * ```
 *
 * What is checked here: the sandbox is on another origin; every message's window and origin on
 * both sides; the proxy's own methods go no further than the proxy and the bridge; the view's
 * policy is both the inner frame's `csp` attribute and a `<meta>` first in its head; the inner
 * frame is sandboxed (by default on an opaque origin) and never given top navigation; a view
 * that navigates away loses its frame. What the host must still do: serve the proxy from an
 * origin of its own with `frame-ancestors` (a `<meta>` policy cannot say it) and no stricter
 * fetch directives (the view's `srcdoc` frame inherits them); decide, through the session, what
 * the view may ask.
 */
export { mountApp, type MountableResource, type MountAppOptions, type MountedApp, type MountStats } from "./mount.js";
export { runSandboxProxy, sandboxProxyPage, type SandboxProxyConfig } from "./proxy.js";
export type { AppPort, AppPortConnector } from "./port.js";
export { MAX_SIDE_PX, type AppSize, type AutoSize } from "./size.js";
export { DEFAULT_INNER_SANDBOX, INNER_SANDBOX_TOKENS, OUTER_SANDBOX } from "./wire.js";
