// The apps bridge in a real Chromium: a host page on one loopback origin mounts a view through
// the sandbox proxy on another (the two-origin arrangement of MCP Apps 2026-01-26, "Sandbox
// proxy"), the view being the official App class of @modelcontextprotocol/ext-apps, unchanged,
// and the session a stand-in (test/helpers/apps/session-stand-in.ts) until AppSession lands.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../helpers/chromium.js";
import { startAppsOrigins, type AppsOrigins } from "../helpers/apps/origins.js";
import type { AppsHost } from "../helpers/apps/host-page.js";
import { needs } from "../helpers/system-tools.js";

declare global {
  var appsHost: AppsHost;
  /** What a frame's window got, recorded from its start by the context's init script. */
  var seenHere: Array<{ fromParent: boolean; origin: string; method: string | undefined }>;
}

/** Runs first in every frame: a record of each message, before any listener of the page. */
const RECORD_MESSAGES = `globalThis.seenHere = [];
addEventListener("message", (event) => {
  const method = event.data && typeof event.data.method === "string" ? event.data.method : undefined;
  globalThis.seenHere.push({ fromParent: event.source === parent && parent !== window, origin: event.origin, method });
}, true);`;

describe("the apps bridge in Chromium", needs("chromium-headless-shell"), () => {
  let origins: AppsOrigins;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    [origins, browser] = await Promise.all([startAppsOrigins(), chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] })]);
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await origins?.close();
  });

  /** The host page, loaded, with its errors collected. */
  async function hostPage(): Promise<{ page: Page; errors: string[] }> {
    context = await browser.newContext();
    await context.addInitScript(RECORD_MESSAGES);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${origins.host}/host.html`);
    await page.waitForFunction(() => globalThis.appsHost !== undefined);
    return { page, errors };
  }

  /** The resource as readAppResource would give it: the view, a policy that declares one connect origin. */
  function resource(connect: string[] = [origins.hostAlias]) {
    return {
      html: origins.viewHtml,
      csp: `default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src ${connect.length === 0 ? "'none'" : connect.join(" ")}; frame-src 'none'; object-src 'none'; base-uri 'self'`,
      allow: "",
    };
  }

  function frameAt(page: Page, test: (frame: Frame) => boolean): Frame {
    const frame = page.frames().find(test);
    if (frame === undefined) throw new Error(`no such frame among ${page.frames().map((f) => f.url()).join(", ")}`);
    return frame;
  }

  async function logOf(page: Page, probe: string): Promise<unknown> {
    const handle = await page.waitForFunction((name) => appsHost.logs().find((entry) => (entry as { probe?: string }).probe === name), probe);
    return ((await handle.jsonValue()) as { result: unknown }).result;
  }

  it("mounts the official App: proxy-ready, then the resource, then ui/initialize, initialized and tool-input, in order", async () => {
    const { page, errors } = await hostPage();
    await page.evaluate((request) => appsHost.mount(request), { sandboxUrl: `${origins.sandbox}/sandbox.html`, resource: resource(), toolArguments: { reach: true } });
    const reach = await logOf(page, "reach");
    expect(reach).toMatchObject({ origin: "null" });
    const events = await page.evaluate(() => appsHost.events);
    const steps = events.map((event) => (event.at === "received" || event.at === "sent" ? `${event.at} ${(event.message as { method?: string }).method ?? "response"}` : event.at));
    expect(steps.slice(0, 5)).toEqual(["connect", "received ui/initialize", "sent response", "received ui/notifications/initialized", "sent ui/notifications/tool-input"]);
    const hostSeen = await page.evaluate(() => globalThis.seenHere.filter((m) => m.method !== undefined));
    expect(hostSeen[0]).toEqual({ fromParent: false, origin: origins.sandbox, method: "ui/notifications/sandbox-proxy-ready" });
    const proxy = frameAt(page, (frame) => frame.url().startsWith(origins.sandbox));
    const proxySeen = await proxy.evaluate(() => globalThis.seenHere.filter((m) => m.fromParent));
    expect(proxySeen[0]).toEqual({ fromParent: true, origin: origins.host, method: "ui/notifications/sandbox-resource-ready" });
    expect(proxySeen.filter((m) => m.method === "ui/notifications/sandbox-resource-ready")).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  /** Mounts the view with `toolArguments` as its probes; the page, once the view is initialised. */
  async function mounted(toolArguments: Record<string, unknown> = {}, extra: { innerSandbox?: string } = {}): Promise<{ page: Page; errors: string[] }> {
    const opened = await hostPage();
    await opened.page.evaluate((request) => appsHost.mount(request), { sandboxUrl: `${origins.sandbox}/sandbox.html`, resource: resource(), toolArguments, ...extra });
    await opened.page.waitForFunction(() => appsHost.events.some((event) => event.at === "sent" && (event.message as { method?: string }).method === "ui/notifications/tool-input"));
    return opened;
  }

  const viewFrame = (page: Page): Frame => frameAt(page, (frame) => frame.url() === "about:srcdoc");
  const proxyFrame = (page: Page): Frame => frameAt(page, (frame) => frame.url().startsWith(origins.sandbox));

  it("the view's CSP lets fetch reach a declared origin and blocks an undeclared one", async () => {
    const { page } = await mounted({ fetch: { allowed: `${origins.hostAlias}/data`, blocked: `${origins.sandboxAlias}/data` } });
    expect(await logOf(page, "fetch")).toEqual({ allowed: "200 data", blocked: "TypeError", violations: [{ directive: "connect-src", blocked: `${origins.sandboxAlias}/data` }] });
    // The policy is held twice: the inner frame's csp attribute, and a <meta> first in the view's head.
    const policy = resource().csp;
    expect(await proxyFrame(page).evaluate(() => ({ csp: document.querySelector("iframe")!.getAttribute("csp"), sandbox: document.querySelector("iframe")!.getAttribute("sandbox") }))).toEqual({ csp: policy, sandbox: "allow-scripts allow-forms" });
    expect(await viewFrame(page).evaluate(() => [document.head.firstElementChild?.getAttribute("http-equiv"), document.head.firstElementChild?.getAttribute("content")])).toEqual(["Content-Security-Policy", policy]);
  });

  it("a view that navigates its frame away from its document loses the frame", async () => {
    origins.serve("sandbox", "/away.html", { body: "<p>away</p>" });
    const { page, errors } = await mounted({ navigate: `${origins.sandboxAlias}/away.html` });
    await proxyFrame(page).waitForFunction(() => document.querySelectorAll("iframe").length === 0);
    expect(errors).toContain("[conduit sandbox proxy] the view navigated away from its document; it was removed");
  });

  it("the view reaches neither the host page's DOM nor the proxy's (an opaque origin inside another origin)", async () => {
    const { page } = await mounted({ reach: true });
    expect(await logOf(page, "reach")).toEqual({ topDocument: "SecurityError", topBody: "SecurityError", parentDocument: "SecurityError", topLocation: "SecurityError", origin: "null" });
    // Even given allow-same-origin (the proxy's origin), the host page stays out of reach.
    await context?.close();
    const second = await mounted({ reach: true }, { innerSandbox: "allow-scripts allow-same-origin" });
    expect(await logOf(second.page, "reach")).toEqual({ topDocument: "SecurityError", topBody: "SecurityError", parentDocument: "object", topLocation: "SecurityError", origin: origins.sandbox });
  });

  it("follows the view's size-changed: the frame in the container takes the view's height", async () => {
    const { page } = await mounted({ grow: 480 });
    await page.waitForFunction(() => parseInt(appsHost.frameHeight(), 10) >= 480);
    const sizes = await page.evaluate(() => appsHost.sizes as Array<{ height?: number }>);
    expect(sizes.at(-1)!.height).toBeGreaterThanOrEqual(480);
    const box = await page.locator("#apps iframe").boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(480);
  });

  it("unmount tears the session down (ui/resource-teardown, answered by the App) and removes the frames", async () => {
    const { page } = await mounted();
    expect(page.frames()).toHaveLength(3);
    await page.evaluate(() => appsHost.unmount());
    const events = await page.evaluate(() => appsHost.events);
    const teardown = events.find((event) => event.at === "sent" && (event.message as { method?: string }).method === "ui/resource-teardown");
    expect(teardown).toBeDefined();
    const id = (teardown as { message: { id: number } }).message.id;
    expect(events.some((event) => event.at === "received" && (event.message as { id?: number; method?: string }).id === id && (event.message as { method?: string }).method === undefined)).toBe(true);
    expect(await page.evaluate(() => appsHost.frameCount())).toBe(0);
    expect(page.frames()).toHaveLength(1);
    await page.evaluate(() => appsHost.unmount());
  });

  /** Adds a frame at `url` to the host page (after the app's, so the app's stays `frames[0]`). */
  async function addFrame(page: Page, url: string): Promise<void> {
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      document.body.append(frame);
    }, url);
  }

  it("the host side drops what comes from another window, and what comes from the app's frame on another origin", async () => {
    const { page } = await mounted();
    // A frame of the sandbox's own origin, but not the app's: its tools/call is not the view's.
    origins.serve("sandbox", "/rogue.html", { body: `<script>parent.postMessage({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "rogue" } }, "*");</script>` });
    await addFrame(page, `${origins.sandbox}/rogue.html`);
    await page.waitForFunction(() => globalThis.seenHere.some((m) => m.method === "tools/call"));
    const before = await page.evaluate(() => appsHost.stats()!);
    expect(await page.evaluate(() => appsHost.events.some((event) => event.at === "received" && (event.message as { method?: string }).method === "tools/call"))).toBe(false);
    // The app's own window, navigated to another origin (localhost): its message is dropped too.
    origins.serve("sandbox", "/elsewhere.html", { body: `<script>parent.postMessage({ jsonrpc: "2.0", id: 98, method: "tools/call", params: { name: "elsewhere" } }, "*");</script>` });
    await proxyFrame(page).evaluate((url) => void (location.href = url), `${origins.sandboxAlias}/elsewhere.html`);
    await page.waitForFunction(() => globalThis.seenHere.filter((m) => m.method === "tools/call").length === 2);
    expect(await page.evaluate(() => appsHost.events.some((event) => event.at === "received" && (event.message as { method?: string }).method === "tools/call"))).toBe(false);
    expect(await page.evaluate(() => appsHost.stats()!)).toEqual({ ...before, dropped: before.dropped + 1 });
  });

  it("the host side drops the proxy's own methods after the handshake, and the proxy does not relay a view's", async () => {
    const { page } = await mounted();
    // From the proxy: a second proxy-ready is no message for the session.
    await proxyFrame(page).evaluate(() => parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*"));
    await page.waitForFunction(() => globalThis.seenHere.filter((m) => m.method === "ui/notifications/sandbox-proxy-ready").length === 2);
    expect(await page.evaluate(() => appsHost.stats()!.dropped)).toBe(1);
    // From the view: a sandbox-* method stops at the proxy; a ping behind it passes (one path, in order).
    await viewFrame(page).evaluate(() => {
      parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: "<p>forged</p>" } }, "*");
      parent.postMessage({ jsonrpc: "2.0", id: "after", method: "ping" }, "*");
    });
    await page.waitForFunction(() => appsHost.events.some((event) => event.at === "received" && (event.message as { id?: unknown }).id === "after"));
    const methods = await page.evaluate(() => globalThis.seenHere.map((m) => m.method));
    expect(methods).not.toContain("ui/notifications/sandbox-resource-ready");
  });

  it("the proxy drops what another window sends it: nothing of it reaches the view", async () => {
    const { page } = await mounted();
    // A frame on yet another origin, in the host's page, writes to the app's frame directly.
    origins.serve("host", "/to-proxy.html", { body: `<script>parent.frames[0].postMessage({ jsonrpc: "2.0", method: "test/rogue", params: {} }, "*");</script>` });
    await addFrame(page, `${origins.hostAlias}/to-proxy.html`);
    await proxyFrame(page).waitForFunction(() => globalThis.seenHere.some((m) => m.method === "test/rogue"));
    // The session's marker goes the same way the rogue message would have: host, proxy, view.
    await page.evaluate(() => appsHost.sendToView({ jsonrpc: "2.0", method: "test/marker", params: {} }));
    const received = (await logOf(page, "received")) as string[];
    expect(received).toContain("test/marker");
    expect(received).not.toContain("test/rogue");
  });

  it("the proxy serves its host alone: framed by another origin it says nothing and frames nothing", async () => {
    // The page without its frame-ancestors header, so that the proxy's own check is what refuses.
    origins.serve("sandbox", "/sandbox-open.html", { body: origins.bridge.sandboxProxyPage({ hostOrigin: origins.host }) });
    origins.serve("host", "/framer.html", { body: `<iframe src="${origins.sandbox}/sandbox-open.html"></iframe>` });
    const { page, errors } = await hostPage();
    await page.goto(`${origins.hostAlias}/framer.html`);
    const proxy = await (await page.waitForSelector("iframe")).contentFrame();
    await proxy!.waitForFunction(() => document.readyState === "complete");
    expect(errors).toContain("[conduit sandbox proxy] framed by a page that is not the host's");
    await page.evaluate(() => document.querySelector("iframe")!.contentWindow!.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: "<p>x</p>" } }, "*"));
    await proxy!.waitForFunction(() => globalThis.seenHere.some((m) => m.method === "ui/notifications/sandbox-resource-ready"));
    expect(await proxy!.evaluate(() => document.querySelectorAll("iframe").length)).toBe(0);
    expect(await page.evaluate(() => globalThis.seenHere)).toEqual([]);
  });

  it("with frame-ancestors on its response, another origin cannot frame the proxy at all", async () => {
    origins.serve("host", "/framer-strict.html", { body: `<iframe src="${origins.sandbox}/sandbox.html"></iframe>` });
    const { page, errors } = await hostPage();
    await page.goto(`${origins.hostAlias}/framer-strict.html`);
    await page.waitForFunction(() => document.readyState === "complete");
    const proxy = await (await page.waitForSelector("iframe")).contentFrame();
    // Chromium shows its own error page in place of a framing refused by frame-ancestors.
    expect(await proxy!.evaluate(() => typeof (globalThis as { seenHere?: unknown }).seenHere === "undefined" || location.href.startsWith("chrome-error:"))).toBe(true);
    expect(errors.join("\n")).toMatch(/frame-ancestors/);
  });

  it("waits for the proxy's sandbox-proxy-ready before it sends the resource", async () => {
    // A proxy of the test's: it says something else first, and ready only when told.
    origins.serve("sandbox", "/manual.html", {
      body: `<script>
        globalThis.sayReady = () => parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "${origins.host}");
        parent.postMessage({ jsonrpc: "2.0", method: "test/early" }, "${origins.host}");
      </script>`,
    });
    const { page } = await hostPage();
    const mounting = page.evaluate((request) => appsHost.mount(request), { sandboxUrl: `${origins.sandbox}/manual.html`, resource: resource() });
    await page.waitForFunction(() => globalThis.seenHere.some((m) => m.method === "test/early"));
    const proxy = proxyFrame(page);
    expect(await proxy.evaluate(() => globalThis.seenHere)).toEqual([]);
    await proxy.evaluate(() => (globalThis as unknown as { sayReady(): void }).sayReady());
    await mounting;
    await proxy.waitForFunction(() => globalThis.seenHere.length > 0);
    expect(await proxy.evaluate(() => globalThis.seenHere)).toEqual([{ fromParent: true, origin: origins.host, method: "ui/notifications/sandbox-resource-ready" }]);
    expect(await page.evaluate(() => appsHost.events[0])).toEqual({ at: "connect" });
  });

  it("refuses what it cannot mount: the host's own origin, an unknown sandbox token, a proxy that never says ready", async () => {
    const { page } = await hostPage();
    const failure = (request: { sandboxUrl: string; innerSandbox?: string; readyTimeout?: number }) =>
      page.evaluate((r) => appsHost.mountFailure({ resource: { html: "<p>x</p>", csp: "default-src 'none'" }, ...r }), request);
    expect(await failure({ sandboxUrl: `${origins.host}/sandbox.html` })).toMatchObject({ name: "TypeError", code: "ERR_CONDUIT_INVALID_ARGUMENT", message: expect.stringContaining("another origin") });
    expect(await failure({ sandboxUrl: `${origins.sandbox}/sandbox.html`, innerSandbox: "allow-scripts allow-top-navigation" })).toMatchObject({ name: "TypeError", code: "ERR_CONDUIT_INVALID_ARGUMENT", message: expect.stringContaining("allow-top-navigation") });
    origins.serve("sandbox", "/silent.html", { body: "<p>no proxy here</p>" });
    expect(await failure({ sandboxUrl: `${origins.sandbox}/silent.html`, readyTimeout: 300 })).toMatchObject({ name: "ClientError", kind: "timeout" });
    expect(await page.evaluate(() => appsHost.frameCount())).toBe(0);
  });
});
