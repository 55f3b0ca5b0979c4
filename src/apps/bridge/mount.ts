/**
 * Mounting an app's view in a web host's page, the two-origin arrangement of MCP Apps
 * (2026-01-26, "Sandbox proxy"): an outer frame on the sandbox origin runs the proxy
 * (`proxy.ts`), which frames the view; this side waits for the proxy's `sandbox-proxy-ready`,
 * connects the view's session (`port.ts`), sends `sandbox-resource-ready`, and from then on
 * carries messages between the outer frame and the session.
 *
 * Every message is checked for its window (the outer frame's, by identity) and its origin (the
 * sandbox's) before anything reads it; the proxy's own methods (`ui/notifications/sandbox-*`)
 * go no further than here, either way.
 */
import { knownKeys, positiveNumber } from "../../util/arguments.js";
import { ClientError, InvalidArgumentError } from "../../util/errors.js";
import { callHost, guardLogger, stderrLogger, type Logger } from "../../util/logger.js";
import { Occurrences, soFar } from "../../util/sparse-log.js";
import { delay } from "../../util/time.js";
import type { AppPort, AppPortConnector } from "./port.js";
import { AUTO_SIZES, applySize, reportedSize, type AppSize, type AutoSize } from "./size.js";
import { ALLOW_KEY, DEFAULT_INNER_SANDBOX, INNER_SANDBOX_TOKENS, OUTER_SANDBOX, POLICY_KEY, PROXY_READY, RESOURCE_READY, SANDBOX_PREFIX, SIZE_CHANGED, methodOf } from "./wire.js";

/** What of an app's resource the frames need (`readAppResource` returns it, and more). */
export interface MountableResource {
  /** The view's HTML document. */
  html: string;
  /** The view's Content-Security-Policy, a header value (`default-src 'none'; …`). */
  csp: string;
  /** The frames' `allow` attribute (Permissions Policy), empty or absent for none. */
  allow?: string | undefined;
}

export interface MountAppOptions {
  /** Where the outer frame goes (appended as its last child). */
  container: Element;
  /** The sandbox proxy's page, on an origin that is not the host page's. */
  sandboxUrl: string | URL;
  resource: MountableResource;
  /** Makes the view's session once the proxy is ready (`AppSession`, or a stand-in). */
  connect: AppPortConnector;
  /** The inner frame's sandbox tokens (default `allow-scripts allow-forms`: an opaque origin). */
  innerSandbox?: string;
  /** How long to wait for the proxy's `sandbox-proxy-ready`, ms (default 10 000; `Infinity`: no bound). */
  readyTimeout?: number;
  /** Ends the wait for the proxy (and then removes the frame). */
  signal?: AbortSignal;
  /** Which sides of the frame follow the view's `size-changed` (default `"height"`). */
  autoSize?: AutoSize;
  /** Told each size the view reports, after the frame followed it. */
  onSizeChange?: (size: AppSize) => void;
  /** The outer frame's `title`, for assistive technology. */
  title?: string;
  /** Where drops and the host's own failures are reported (default: warnings to the console). */
  logger?: Logger;
}

export interface MountStats {
  /** Messages carried from the session to the view. */
  toView: number;
  /** Messages carried from the view to the session. */
  fromView: number;
  /** Messages from the outer frame that were not carried (before ready, or the proxy's own). */
  dropped: number;
}

export interface MountedApp {
  /** The outer frame (on the sandbox origin). */
  readonly frame: HTMLIFrameElement;
  readonly sandboxOrigin: string;
  stats(): MountStats;
  /** Tears the session down (the port's `teardown`), then removes the frame. Idempotent. */
  unmount(): Promise<void>;
}

const KNOWN = new Set(["container", "sandboxUrl", "resource", "connect", "innerSandbox", "readyTimeout", "signal", "autoSize", "onSizeChange", "title", "logger"]);
const DEFAULT_READY_TIMEOUT = 10_000;

interface Checked {
  container: Element;
  hostWindow: Window;
  sandboxUrl: URL;
  resource: { html: string; csp: string; allow: string };
  connect: AppPortConnector;
  innerSandbox: string;
  readyTimeout: number;
  signal: AbortSignal | undefined;
  autoSize: AutoSize;
  onSizeChange: ((size: AppSize) => void) | undefined;
  title: string;
  logger: Logger;
}

function text(what: string, value: unknown): string {
  if (typeof value !== "string") throw new InvalidArgumentError(`${what} must be a string, got ${typeof value}`);
  return value;
}

function sandboxUrlOf(given: unknown, hostWindow: Window): URL {
  let url: URL;
  try {
    url = new URL(given instanceof URL ? given.href : text("mountApp: sandboxUrl", given), hostWindow.location.href);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    throw new InvalidArgumentError(`mountApp: sandboxUrl is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new InvalidArgumentError(`mountApp: sandboxUrl must be http(s), got ${url.protocol}`);
  // MCP Apps 2026-01-26, "Sandbox proxy" 1: the host and the sandbox have different origins.
  if (url.origin === hostWindow.location.origin) throw new InvalidArgumentError(`mountApp: the sandbox must be on another origin than the host page (${url.origin})`);
  return url;
}

function innerSandboxOf(given: unknown): string {
  if (given === undefined) return DEFAULT_INNER_SANDBOX;
  const tokens = text("mountApp: innerSandbox", given).split(/\s+/).filter((token) => token !== "");
  const unknown = tokens.find((token) => !INNER_SANDBOX_TOKENS.includes(token));
  if (unknown !== undefined) throw new InvalidArgumentError(`mountApp: innerSandbox may hold ${INNER_SANDBOX_TOKENS.join(", ")}; not ${JSON.stringify(unknown)}`);
  return tokens.join(" ");
}

function checkOptions(options: MountAppOptions): Checked {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("mountApp: options must be an object");
  knownKeys("mountApp", options, KNOWN);
  const container: unknown = options.container;
  const hostWindow = (container as Element | null)?.ownerDocument?.defaultView;
  if (typeof container !== "object" || container === null || typeof (container as Element).append !== "function" || hostWindow == null) {
    throw new InvalidArgumentError("mountApp: container must be an element of a document in a window");
  }
  const resource: unknown = options.resource;
  if (typeof resource !== "object" || resource === null) throw new InvalidArgumentError("mountApp: resource must be { html, csp, allow }");
  const { html, csp, allow } = resource as MountableResource;
  if (typeof options.connect !== "function") throw new InvalidArgumentError("mountApp: connect must be a function");
  if (options.onSizeChange !== undefined && typeof options.onSizeChange !== "function") throw new InvalidArgumentError("mountApp: onSizeChange must be a function");
  if (options.autoSize !== undefined && !AUTO_SIZES.includes(options.autoSize)) throw new InvalidArgumentError(`mountApp: autoSize must be one of ${AUTO_SIZES.join(", ")}`);
  return {
    container: container as Element,
    hostWindow,
    sandboxUrl: sandboxUrlOf(options.sandboxUrl, hostWindow),
    resource: { html: text("mountApp: resource.html", html), csp: text("mountApp: resource.csp", csp), allow: allow === undefined ? "" : text("mountApp: resource.allow", allow) },
    connect: options.connect,
    innerSandbox: innerSandboxOf(options.innerSandbox),
    readyTimeout: options.readyTimeout === undefined ? DEFAULT_READY_TIMEOUT : positiveNumber("mountApp: readyTimeout", options.readyTimeout),
    signal: options.signal,
    autoSize: options.autoSize ?? "height",
    onSizeChange: options.onSizeChange,
    title: options.title === undefined ? "MCP App" : text("mountApp: title", options.title),
    logger: guardLogger(options.logger ?? stderrLogger),
  };
}

type State = "opening" | "open" | "closing" | "closed";

/** The frame, its listener and its session, from creation to removal. */
class AppFrames implements MountedApp {
  readonly frame: HTMLIFrameElement;
  readonly sandboxOrigin: string;
  private state: State = "opening";
  private port: AppPort | undefined;
  private ready: (() => void) | undefined;
  private ending: Promise<void> | undefined;
  private readonly counts: MountStats = { toView: 0, fromView: 0, dropped: 0 };
  private readonly drops = new Occurrences();

  constructor(private readonly options: Checked) {
    this.sandboxOrigin = options.sandboxUrl.origin;
    const frame = options.hostWindow.document.createElement("iframe");
    frame.setAttribute("sandbox", OUTER_SANDBOX);
    if (options.resource.allow !== "") frame.setAttribute("allow", options.resource.allow);
    frame.title = options.title;
    frame.style.border = "0";
    frame.style.display = "block";
    frame.style.width = "100%";
    frame.src = options.sandboxUrl.href;
    this.frame = frame;
  }

  /** Appends the frame and waits for the proxy; on any failure the frame is gone again. */
  async open(): Promise<void> {
    const { hostWindow, container, readyTimeout, signal } = this.options;
    const bound = new AbortController();
    const onAbort = (): void => bound.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const proxyReady = new Promise<void>((resolve) => (this.ready = resolve));
    hostWindow.addEventListener("message", this.onMessage);
    container.append(this.frame);
    try {
      await Promise.race([proxyReady, this.outOfTime(readyTimeout, bound.signal)]);
      this.start();
    } catch (error) {
      this.remove();
      throw error;
    } finally {
      bound.abort();
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private async outOfTime(ms: number, signal: AbortSignal): Promise<never> {
    try {
      await delay(ms, signal);
    } catch (error) {
      if (this.options.signal?.aborted === true) throw new ClientError("cancelled", "mounting the app was cancelled before the sandbox proxy was ready", { cause: this.options.signal.reason });
      throw error;
    }
    throw new ClientError("timeout", `the sandbox proxy at ${this.sandboxOrigin} did not say it was ready within ${ms} ms`);
  }

  /** The proxy is ready: the session first (the view may speak as soon as it runs), then the view. */
  private start(): void {
    this.port = this.options.connect((message) => this.send(message));
    this.state = "open";
    // (A `send` inside `connect` itself is refused above: the proxy has no view to give it to.)
    const { html, csp, allow } = this.options.resource;
    this.post({ jsonrpc: "2.0", method: RESOURCE_READY, params: { html, sandbox: this.options.innerSandbox, _meta: { [POLICY_KEY]: csp, [ALLOW_KEY]: allow } } });
  }

  private send(message: object): void {
    // A view that is gone takes nothing, as a closed window does; before the proxy has the
    // resource there is no view yet, and the spec has the session wait for `initialized` anyway.
    if (this.state === "closed") return;
    if (this.state === "opening") throw new ClientError("usage", "nothing may be sent to a view before it is mounted (wait for ui/notifications/initialized)");
    const method = methodOf(message);
    if (method?.startsWith(SANDBOX_PREFIX) === true) throw new ClientError("usage", `${method} is the sandbox proxy's own method and is not sent to a view`);
    this.counts.toView += 1;
    this.post(message);
  }

  private post(message: object): void {
    // Named, never "*": a frame that navigated to another origin is not given the message.
    this.frame.contentWindow?.postMessage(message, this.sandboxOrigin);
  }

  private readonly onMessage = (event: MessageEvent): void => {
    // Another window's message is not this app's, and not counted as its drop.
    if (event.source === null || event.source !== this.frame.contentWindow) return;
    if (event.origin !== this.sandboxOrigin) return this.drop(`a message from ${event.origin}, not the sandbox's origin`);
    const message: unknown = event.data;
    const method = methodOf(message);
    if (this.state === "opening") {
      if (method === PROXY_READY) return this.ready?.();
      return this.drop("a message before the sandbox proxy was ready");
    }
    if (method?.startsWith(SANDBOX_PREFIX) === true) return this.drop(`${method} after the proxy was ready`);
    if (this.state === "closed" || this.port === undefined) return;
    if (method === SIZE_CHANGED) this.followSize(message);
    this.counts.fromView += 1;
    const port = this.port;
    callHost(this.options.logger, "the app session's receive", (m: unknown) => port.receive(m), message);
  };

  private followSize(message: unknown): void {
    const size = reportedSize(typeof message === "object" && message !== null && Object.hasOwn(message, "params") ? (message as { params: unknown }).params : undefined);
    if (size === undefined) return;
    applySize(this.frame, size, this.options.autoSize);
    const onSizeChange = this.options.onSizeChange;
    if (onSizeChange !== undefined) callHost(this.options.logger, "onSizeChange", onSizeChange, size);
  }

  private drop(why: string): void {
    this.counts.dropped += 1;
    if (this.drops.next()) this.options.logger.debug(`app at ${this.sandboxOrigin}: dropped ${why}${soFar(this.drops)}`);
  }

  stats(): MountStats {
    return { ...this.counts };
  }

  unmount(): Promise<void> {
    this.ending ??= this.end();
    return this.ending;
  }

  private async end(): Promise<void> {
    if (this.state === "opening" || this.state === "closed") return this.remove();
    this.state = "closing";
    try {
      await this.port?.teardown();
    } catch (error) {
      this.options.logger.warn(`app at ${this.sandboxOrigin}: the session's teardown failed; the frame is removed anyway`, { error });
    } finally {
      this.remove();
    }
  }

  private remove(): void {
    this.state = "closed";
    this.options.hostWindow.removeEventListener("message", this.onMessage);
    this.frame.remove();
  }
}

/**
 * Mounts an app's view in `container`: resolves once the sandbox proxy is ready and has the
 * resource (the view then starts its own `ui/initialize`, which goes to the session). Rejects
 * with `"timeout"` when the proxy does not say it is ready in time, `"cancelled"` when `signal`
 * ends the wait, and `InvalidArgumentError` for options it cannot use; the frame is removed in
 * each case.
 */
export async function mountApp(options: MountAppOptions): Promise<MountedApp> {
  const frames = new AppFrames(checkOptions(options));
  await frames.open();
  return frames;
}
