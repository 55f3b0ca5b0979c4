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
});
