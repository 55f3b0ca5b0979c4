// A real browser for tests: Debian's chromium-headless-shell driven by playwright-core, pages
// served from a loopback origin of their own, and Conduit's web entry served to them as one ES
// module bundled by esbuild for the browser. A test file starts one browser in `beforeAll`
// (a launch costs some 0.5 s, a page some 0.1-0.4 s on two loaded cores) and opens a page per
// test, each in a fresh context (no cookies, storage or cache shared between tests).
//
//   const browser = await startBrowser();             // beforeAll
//   const { page, origin } = await browser.openPage();
//   const tools = await page.evaluate(async (url) => {
//     const client = new Conduit.Client({ name: "page", version: "1" });
//     const server = await client.connect("s", { url });
//     return server.listTools();
//   }, serverUrl);
//   await browser.close();                             // afterAll
import { build, type Plugin } from "esbuild";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { accessSync, constants } from "node:fs";
import { builtinModules } from "node:module";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from "playwright-core";
import { systemToolPath } from "./system-tools.js";

declare global {
  /** Conduit's web entry, in a page opened by `openPage` (after `conduitReady`). */
  var Conduit: typeof import("../../src/index.js");
  /** Settles when the page has loaded Conduit (rejects with the import's error). */
  var conduitReady: Promise<void>;
}

/** The flags Chromium needs as root on this machine's closed network (see the standards). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What a page's document is made of; `script` runs as a module once Conduit is loaded. */
export interface PageOptions {
  /** The body's markup. */
  html?: string;
  /** A module script that runs after `Conduit` is set (top-level await allowed). */
  script?: string;
  /** The path the page is served at on the page origin (default `/page/N`). */
  path?: string;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** The page's origin, `http://127.0.0.1:PORT`. */
  origin: string;
  /** The page's URL. */
  url: string;
  /** Uncaught errors and console errors of the page, as text, in order. */
  errors: string[];
  close(): Promise<void>;
}

export interface StaticFile {
  body: string;
  type?: string;
  /** Extra response headers (a COOP header, a CSP). */
  headers?: Record<string, string>;
}

export interface BrowserHarness {
  browser: Browser;
  /** The loopback origin pages are served from. */
  origin: string;
  /** How long the launch took, in ms (for the report; never asserted). */
  launchMs: number;
  /** Opens a page on the page origin with Conduit loaded; closed with the harness if not before. */
  openPage(options?: PageOptions): Promise<OpenedPage>;
  /** Serves `file` at `path` on the page origin (a callback page, a second window's document). */
  serve(path: string, file: StaticFile): void;
  close(): Promise<void>;
}

/** Starts Chromium and the page origin's server. One per test file. */
export async function startBrowser(): Promise<BrowserHarness> {
  const bundle = await webEntryBundle();
  const files = new Map<string, StaticFile>([["/conduit.js", { body: bundle, type: "text/javascript" }]]);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = files.get(path);
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": `${file.type ?? "text/html"}; charset=utf-8`, "cache-control": "no-store", ...file.headers }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const started = performance.now();
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
  } catch (error) {
    server.closeAllConnections();
    server.close();
    throw error;
  }
  const launchMs = performance.now() - started;
  const pages = new Set<OpenedPage>();
  let count = 0;
  return {
    browser,
    origin,
    launchMs,
    serve: (path, file) => void files.set(path, file),
    async openPage(options = {}) {
      const path = options.path ?? `/page/${++count}`;
      files.set(path, { body: pageDocument(options) });
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error: Error) => errors.push(`${error.name}: ${error.message}`));
      page.on("console", (message: ConsoleMessage) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const opened: OpenedPage = {
        page,
        context,
        origin,
        url: origin + path,
        errors,
        close: async () => {
          pages.delete(opened);
          await context.close();
        },
      };
      pages.add(opened);
      await page.goto(opened.url);
      await page.evaluate(() => globalThis.conduitReady);
      return opened;
    },
    async close() {
      for (const opened of [...pages]) await opened.close();
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** playwright-core wants a path: the first `chromium-headless-shell` on the PATH. */
export function chromiumPath(): string {
  const name = systemToolPath("chromium-headless-shell");
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  throw new Error(`${name} is not on the PATH`);
}

/**
 * The document: a classic script starts Conduit's import (so that `conduitReady` exists before
 * any module runs and carries the import's failure), then the test's module script.
 */
function pageDocument(options: PageOptions): string {
  const script = options.script === undefined ? "" : `<script type="module">await globalThis.conduitReady;\n${options.script}\n</script>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>conduit test page</title>
<script>globalThis.conduitReady = import("/conduit.js").then((m) => { globalThis.Conduit = m; });</script>
</head><body>${options.html ?? ""}${script}</body></html>`;
}

let bundled: Promise<string> | undefined;

/**
 * Conduit's web entry as one ES module for the browser (built once per test file).
 *
 * Until the web entry lands, src/index.ts still reaches Node modules (stdio, stores, config
 * files): they are stubbed, each export a function that throws when called, and `process` is a
 * stand-in, so that what a page uses of the core can run while the rest cannot load Node.
 */
export function webEntryBundle(): Promise<string> {
  bundled ??= build({
    entryPoints: [join(ROOT, "src/index.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
    plugins: [stubNode],
    banner: { js: PRE_SEAM_PROCESS },
  }).then((result) => result.outputFiles[0]!.text);
  return bundled;
}

const PRE_SEAM_PROCESS = `var process = { platform: "browser", env: {}, versions: {}, argv: [], pid: 0, nextTick: (f, ...a) => queueMicrotask(() => f(...a)), emitWarning() {}, on() {}, once() {}, off() {}, cwd: () => "/" };`;

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const stubNode: Plugin = {
  name: "stub-node",
  setup(builder) {
    builder.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => (NODE_BUILTINS.has(args.path) ? { path: args.path, namespace: "node-stub" } : undefined));
    builder.onLoad({ filter: /.*/, namespace: "node-stub" }, (args) => ({
      loader: "js",
      contents: `const fail = () => { throw new Error(${JSON.stringify(`${args.path} is not available in the browser`)}); };
module.exports = new Proxy(function () {}, { get: (_, key) => key === "__esModule" ? false : (key === "default" ? module.exports : function () { fail(); }), apply: fail, construct: fail });`,
    }));
  },
};
