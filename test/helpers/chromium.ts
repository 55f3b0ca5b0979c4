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
import { build } from "esbuild";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
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
 * Conduit's web entry as one ES module for the browser: the build's dist/index.js (and the
 * chunks it imports, and its dependencies) bundled by esbuild for `platform: "browser"`, once
 * per test file. A dist/ older than src/ is refused rather than tested: run `npm run build`.
 */
export function webEntryBundle(): Promise<string> {
  bundled ??= (async () => {
    const entry = join(ROOT, "dist/index.js");
    if (!existsSync(entry)) throw new Error("dist/index.js is missing: run `npm run build` before the browser tests");
    const source = newest(join(ROOT, "src"));
    if (statSync(entry).mtimeMs < source.mtimeMs) throw new Error(`dist/index.js is older than ${source.path.slice(ROOT.length)}: run \`npm run build\` before the browser tests`);
    const result = await build({ entryPoints: [entry], bundle: true, platform: "browser", format: "esm", target: "es2022", write: false, logLevel: "silent" });
    return result.outputFiles[0]!.text;
  })();
  return bundled;
}

/** The most recently changed file under `dir`. */
export function newest(dir: string): { path: string; mtimeMs: number } {
  let found = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory() ? newest(path) : { path, mtimeMs: statSync(path).mtimeMs };
    if (candidate.mtimeMs > found.mtimeMs) found = candidate;
  }
  return found;
}
