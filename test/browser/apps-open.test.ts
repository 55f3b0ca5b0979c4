// `conduit call <tool> --open` end to end: the built command serves a real server's app on its
// two loopback origins, a real Chromium opens the printed URL, and the view's session runs in
// the command with the terminal's consent (here an --answers file). Against the official
// @modelcontextprotocol/server-basic-vanillajs (its view is the official App class, unchanged)
// and a server of our own whose app has a model-only and an app-only tool
// (test/fixtures/apps-visibility-server.mjs), whose view is driven from inside its frame with
// raw JSON-RPC, as a hostile view would.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../helpers/chromium.js";
import { needs } from "../helpers/system-tools.js";

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));
// The package exports only its server module; its command is the bin beside it.
const VANILLA = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js", import.meta.url));
const OWN = fileURLToPath(new URL("../fixtures/apps-visibility-server.mjs", import.meta.url));


/** Runs first in every frame: a record of each message, before any listener of the page. */
declare global {
  /** What the frame's window got, recorded from its start by the context's init script. */
  var openSeen: Array<{ fromParent: boolean; method: string | undefined; id: unknown }>;
}

const RECORD_MESSAGES = `globalThis.openSeen = [];
addEventListener("message", (event) => {
  const data = event.data;
  const method = data && typeof data.method === "string" ? data.method : undefined;
  globalThis.openSeen.push({ fromParent: event.source === parent && parent !== window, method, id: data ? data.id : undefined });
}, true);`;

interface Opened {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

/** Runs `conduit call <tool> --open` and waits for the URL it prints. */
async function openWith(tool: string, server: string[], answers: object = {}, args: string[] = []): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), "conduit-open-"));
  const file = join(dir, "answers.json");
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, [BIN, "call", tool, ...args, "--open", "--answers", file, "--", process.execPath, ...server], {
    env: { ...process.env, HOME: dir, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (err += text));
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const found = /is served at (http:\/\/127\.0\.0\.1:\d+\/\S+\/)/.exec(err);
      if (found !== null) resolve(found[1]!);
    };
    child.stderr.on("data", look);
    child.once("exit", (code) => reject(new Error(`conduit ended (${code}) before serving: ${err}`)));
  });
  return { child, url, stdout: () => out, stderr: () => err };
}

/** Ctrl-C, as the person ends it; resolves with the exit code. */
async function stop(opened: Opened): Promise<number | null> {
  if (opened.child.exitCode !== null) return opened.child.exitCode;
  const exited = once(opened.child, "exit");
  opened.child.kill("SIGINT");
  const [code] = (await exited) as [number | null];
  return code;
}

describe("conduit call --open in Chromium", needs("chromium-headless-shell"), () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let opened: Opened | undefined;

  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error("dist/cli/bin.js is missing: run `npm run build` (npm test does)");
    browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
    if (opened !== undefined) await stop(opened);
    opened = undefined;
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function pageAt(url: string): Promise<{ page: Page; errors: string[] }> {
    context = await browser.newContext();
    await context.addInitScript(RECORD_MESSAGES);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    return { page, errors };
  }

  /** The frame of the sandbox proxy (the page's child) and the view's (the proxy's child). */
  async function frames(page: Page): Promise<{ proxy: Frame; view: Frame }> {
    const proxy = await (await page.waitForSelector("iframe")).contentFrame();
    if (proxy === null) throw new Error("no proxy frame");
    const view = await (await proxy.waitForSelector("iframe")).contentFrame();
    if (view === null) throw new Error("no view frame");
    return { proxy, view };
  }

  it("serves the official basic app: ui/initialize, initialized, tool-input, tool-result in order, and the view's own tool call answered", async () => {
    opened = await openWith("get-time", [VANILLA, "--stdio"], { consents: [true] });
    const { page, errors } = await pageAt(opened.url);
    const { proxy, view } = await frames(page);
    // The proxy sees both directions: from its view (not the parent) and from the host (the parent).
    await proxy.waitForFunction(() => globalThis.openSeen.some((entry) => entry.method === "ui/notifications/tool-result"));
    const order = await proxy.evaluate(() => globalThis.openSeen.filter((entry) => entry.method === undefined || entry.method.startsWith("ui/")).map((entry) => (entry.method ?? "response") + (entry.fromParent ? " (host)" : " (view)")));
    const at = (name: string): number => order.indexOf(name);
    expect(at("ui/initialize (view)")).toBeGreaterThanOrEqual(0);
    expect(at("response (host)")).toBeGreaterThan(at("ui/initialize (view)"));
    expect(at("ui/notifications/initialized (view)")).toBeGreaterThan(at("response (host)"));
    expect(at("ui/notifications/tool-input (host)")).toBeGreaterThan(at("ui/notifications/initialized (view)"));
    expect(at("ui/notifications/tool-result (host)")).toBeGreaterThan(at("ui/notifications/tool-input (host)"));
    // The view's button calls get-time (a tool the model may call too): asked of the person, allowed.
    const before = await view.evaluate(() => globalThis.openSeen.filter((entry) => entry.id !== undefined && entry.method === undefined).length);
    await view.getByRole("button", { name: /time/i }).first().click();
    await view.waitForFunction((count) => globalThis.openSeen.filter((entry) => entry.id !== undefined && entry.method === undefined).length > count, before);
    expect(opened.stdout()).toMatch(/\d{4}-\d\d-\d\dT/);
    expect(errors).toEqual([]);
    expect(await stop(opened)).toBe(0);
    opened = undefined;
  });

  it("refuses what a hostile view asks: a model-only tool, a javascript: link, a flood; the page stays responsive", async () => {
    opened = await openWith("chart", [OWN], {}, ['{"numbers":[1,2]}']);
    const { page } = await pageAt(opened.url);
    const { view } = await frames(page);
    const answers = await view.evaluate(async () => {
      const replies = new Map<number, { result?: unknown; error?: { code: number; message: string } }>();
      addEventListener("message", (event) => {
        const data = event.data as { id?: unknown; result?: unknown; error?: { code: number; message: string } };
        if (typeof data?.id === "number") replies.set(data.id, data);
      });
      const ask = (id: number, method: string, params: object): Promise<{ result?: unknown; error?: { code: number; message: string } }> =>
        new Promise((resolve) => {
          parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
          const wait = (): void => {
            const reply = replies.get(id);
            if (reply !== undefined) resolve(reply);
            else setTimeout(wait, 10);
          };
          wait();
        });
      await ask(1, "ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "hostile", version: "1" }, appCapabilities: {} });
      parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" }, "*");
      const modelOnly = await ask(2, "tools/call", { name: "chart", arguments: { numbers: [1] } });
      const appOnly = await ask(3, "tools/call", { name: "refresh", arguments: {} });
      const link = await ask(4, "ui/open-link", { url: "javascript:alert(1)" });
      for (let i = 0; i < 3_000; i++) parent.postMessage({ jsonrpc: "2.0", id: 100 + i, method: "ping" }, "*");
      await ask(5_000, "ping", {});
      let refused = 0;
      for (let i = 0; i < 3_000; i++) if (replies.get(100 + i)?.error !== undefined) refused++;
      return { modelOnly, appOnly, link, refused };
    });
    expect(answers.modelOnly.error?.code).toBe(-32602);
    expect(answers.appOnly.result).toMatchObject({ content: [{ type: "text", text: "refreshed" }] });
    expect(answers.link.error).toBeDefined();
    expect(opened.stderr()).not.toMatch(/javascript:/);
    expect(answers.refused).toBeGreaterThan(0);
    expect(opened.stdout()).toContain("charted 2 numbers");
    // Still responsive: the host page answers, and the session still serves the view.
    expect(await page.evaluate(() => document.querySelectorAll("iframe").length)).toBe(1);
    expect(await stop(opened)).toBe(0);
    opened = undefined;
  }, 90_000); // 3 000 messages through a real browser and the CLI: slow on a loaded 2-core machine; the bound is a hang guard
});
