/**
 * The sandbox proxy: the page a web host serves on an origin of its own, between the host's page
 * and the view (MCP Apps 2026-01-26, "Sandbox proxy"). It announces itself to its parent, takes
 * one resource from it, frames the view's HTML in an inner iframe under the resource's CSP, and
 * then relays messages between its parent and that frame, and between nothing else.
 *
 * `runSandboxProxy` runs in that page from its own source text (`sandboxProxyPage` writes it
 * into the page), so it names nothing outside its body but the browser's globals: the wire
 * names of `wire.ts` are repeated here on purpose.
 *
 * The host must still, on the response that serves this page:
 * - send `Content-Security-Policy: frame-ancestors <host origin>`, which a page cannot say of
 *   itself (a `<meta>` policy ignores `frame-ancestors`), so that no other site frames the proxy;
 * - set no `script-src` or other fetch directive there: the view's frame is a `srcdoc` document
 *   and inherits this page's policy on top of its own, so a strict one here would block the
 *   view's declared domains and its inline scripts (this page's own script is inline too);
 * - serve it from an origin that is not the host's (the proxy refuses to run on the host's).
 */

import { InvalidArgumentError } from "../../util/errors.js";

/** What the proxy page is told about its host. */
export interface SandboxProxyConfig {
  /** The host page's origin: the only parent the proxy serves and answers. */
  hostOrigin: string;
}

/**
 * The proxy's script. Refuses to start when the page is not framed, when it runs on the host's
 * own origin, or when its parent is not of `hostOrigin` (where the browser tells ancestors).
 */
export function runSandboxProxy(config: SandboxProxyConfig): void {
  const PREFIX = "ui/notifications/sandbox-";
  const READY = "ui/notifications/sandbox-proxy-ready";
  const RESOURCE = "ui/notifications/sandbox-resource-ready";
  const POLICY_KEY = "conduit-mcp/csp";
  const ALLOW_KEY = "conduit-mcp/allow";
  const DEFAULT_SANDBOX = "allow-scripts allow-forms";
  const SANDBOX_TOKENS = ["allow-scripts", "allow-forms", "allow-same-origin", "allow-popups", "allow-popups-to-escape-sandbox", "allow-modals", "allow-downloads", "allow-pointer-lock"];
  // The spec's restrictive default ("UI Resource Format", Host Behavior), for a host that sent
  // no policy of its own, with the parts the spec's proxy rules add (object-src, frame-src,
  // base-uri).
  const DEFAULT_POLICY = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";
  const hostOrigin = config.hostOrigin;
  const host = window.parent;
  const refuse = (why: string): void => console.error(`[conduit sandbox proxy] ${why}`);
  const own = (value: unknown, key: string): unknown =>
    typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  const methodOf = (message: unknown): string | undefined => {
    const method = own(message, "method");
    return typeof method === "string" ? method : undefined;
  };

  if (host === window) return refuse("not framed: this page only runs inside a host's iframe");
  if (location.origin === hostOrigin) return refuse("the sandbox must not share the host's origin");
  const ancestors = location.ancestorOrigins as DOMStringList | undefined;
  if (ancestors !== undefined && ancestors.length > 0 && ancestors.item(0) !== hostOrigin) return refuse("framed by a page that is not the host's");

  let inner: HTMLIFrameElement | undefined;
  let innerOrigin = "null";
  let loads = 0;

  const innerSandbox = (given: unknown): string | undefined => {
    if (given === undefined) return DEFAULT_SANDBOX;
    if (typeof given !== "string") return undefined;
    const tokens = given.split(/\s+/).filter((token) => token !== "");
    return tokens.every((token) => SANDBOX_TOKENS.includes(token)) ? tokens.join(" ") : undefined;
  };
  // A policy or allow list goes into an attribute; a line break or a quote of the other kind
  // would say more than a policy.
  const plain = (given: unknown, fallback: string): string | undefined => {
    if (given === undefined) return fallback;
    return typeof given === "string" && !/[\r\n"<>]/.test(given) ? given : undefined;
  };

  // The view's document with its policy as the first element of its head, so that the policy
  // holds before anything of the view is parsed. The HTML is parsed into a document of its own
  // (scripts do not run there) rather than cut as text, which a comment or an attribute could
  // fool into taking the policy in.
  const withPolicy = (html: string, policy: string): string => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const meta = doc.createElement("meta");
    meta.httpEquiv = "Content-Security-Policy";
    meta.content = policy;
    doc.head.prepend(meta);
    return `${doc.doctype === null ? "" : "<!DOCTYPE html>"}${doc.documentElement.outerHTML}`;
  };

  const load = (params: unknown): void => {
    const html = own(params, "html");
    const meta = own(params, "_meta");
    const sandbox = innerSandbox(own(params, "sandbox"));
    const policy = plain(own(meta, POLICY_KEY), DEFAULT_POLICY);
    const allow = plain(own(meta, ALLOW_KEY), "");
    if (typeof html !== "string" || sandbox === undefined || policy === undefined || allow === undefined) return refuse("a malformed resource was refused");
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", sandbox);
    if (allow !== "") frame.setAttribute("allow", allow);
    frame.setAttribute("csp", policy);
    frame.title = document.title;
    innerOrigin = sandbox.split(" ").includes("allow-same-origin") ? location.origin : "null";
    // The first load is the view's own document; another means it navigated itself elsewhere,
    // out of the policy written into it: that frame is no longer the view, so it goes.
    frame.addEventListener("load", () => {
      loads += 1;
      if (loads > 1) {
        refuse("the view navigated away from its document; it was removed");
        frame.remove();
        inner = undefined;
      }
    });
    frame.srcdoc = withPolicy(html, policy);
    inner = frame;
    document.body.append(frame);
  };

  window.addEventListener("message", (event: MessageEvent) => {
    const method = methodOf(event.data);
    if (event.source === host && event.origin === hostOrigin) {
      if (method === RESOURCE) {
        if (inner === undefined && loads === 0) load(own(event.data, "params"));
        return;
      }
      if (method?.startsWith(PREFIX) === true || inner === undefined) return;
      // An opaque origin cannot be named as a target; the frame is the view's until it
      // navigates, and then it is removed (above).
      inner.contentWindow?.postMessage(event.data, innerOrigin === "null" ? "*" : innerOrigin);
      return;
    }
    if (inner !== undefined && event.source === inner.contentWindow && event.origin === innerOrigin) {
      if (method?.startsWith(PREFIX) === true) return;
      host.postMessage(event.data, hostOrigin);
    }
    // Anything else (another window, another origin) is not the proxy's to carry.
  });

  host.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, hostOrigin);
}

/** An origin as the browser writes it: `http(s)://host[:port]`, nothing more. */
function checkedOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`hostOrigin must be an origin such as "https://host.example", got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value) {
    throw new InvalidArgumentError(`hostOrigin must be an origin such as "https://host.example" (scheme, host and port alone), got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/**
 * The proxy page's HTML, for a host to serve at its sandbox origin (with the header above).
 * `hostOrigin` is written into the page: the proxy serves that origin's pages alone.
 */
export function sandboxProxyPage(config: SandboxProxyConfig): string {
  const hostOrigin = checkedOrigin(config.hostOrigin);
  // `<` escaped so that nothing in the configuration can end the script.
  const data = JSON.stringify({ hostOrigin }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>(${String(runSandboxProxy)})(${data});</script></body></html>
`;
}
