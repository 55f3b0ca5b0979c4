// The two origins of the bridge's browser tests, on loopback: the host page's (one port) and the
// sandbox proxy's (another), each also reachable as `localhost`, which makes two more origins for
// what must be refused (an undeclared fetch target, a rogue frame). The host page runs the built
// `conduit-mcp/apps-bridge` (dist/, bundled for the browser); the proxy page is what that build's
// `sandboxProxyPage` writes; the view is the official App class, bundled into the view's HTML.
import { build, type Plugin } from "esbuild";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { newest } from "../chromium.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DIST_BRIDGE = join(ROOT, "dist/apps/bridge/index.js");

type Bridge = typeof import("../../../src/apps/bridge/index.js");

export interface ServedFile {
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

export interface AppsOrigins {
  /** The host page's origin, `http://127.0.0.1:A`. */
  host: string;
  /** The sandbox proxy's origin, `http://127.0.0.1:B`. */
  sandbox: string;
  /** The host's port by the name `localhost`: another origin (the view's declared fetch target). */
  hostAlias: string;
  /** The sandbox's port by the name `localhost`: another origin still (undeclared). */
  sandboxAlias: string;
  /** The built bridge, as Node loads it (for `sandboxProxyPage`). */
  bridge: Bridge;
  /** The view's HTML: the App class and the probes of view.ts. */
  viewHtml: string;
  /** Serves `file` at `path` on one of the two ports (under both of its names). */
  serve(on: "host" | "sandbox", path: string, file: ServedFile): void;
  close(): Promise<void>;
}

/** Refuses a dist/ older than the bridge's sources: the test would test yesterday's build. */
function checkBuilt(): void {
  if (!existsSync(DIST_BRIDGE)) throw new Error("dist/apps/bridge/index.js is missing: run `npm run build` before the browser tests");
  const dist = statSync(DIST_BRIDGE).mtimeMs;
  for (const dir of ["src/apps/bridge", "src/util"]) {
    const source = newest(join(ROOT, dir));
    if (source.mtimeMs > dist) throw new Error(`dist/apps/bridge is older than ${source.path.slice(ROOT.length)}: run \`npm run build\``);
  }
}

/** The host page's script, with the sources' bridge swapped for the build's. */
async function hostScript(): Promise<string> {
  const useBuilt: Plugin = {
    name: "use-built-bridge",
    setup(on) {
      on.onResolve({ filter: /src\/apps-bridge\/index\.js$/ }, () => ({ path: DIST_BRIDGE }));
    },
  };
  const result = await build({ entryPoints: [join(ROOT, "test/helpers/apps/host-page.ts")], bundle: true, platform: "browser", format: "esm", target: "es2022", write: false, logLevel: "silent", plugins: [useBuilt] });
  return result.outputFiles[0]!.text;
}

/** The view's document: view.ts and the App class as one inline module script. */
async function viewDocument(): Promise<string> {
  const result = await build({ entryPoints: [join(ROOT, "test/helpers/apps/view.ts")], bundle: true, platform: "browser", format: "esm", target: "es2022", write: false, logLevel: "silent" });
  const script = result.outputFiles[0]!.text.replace(/<\/script/gi, "<\\/script");
  return `<!doctype html><html><head><meta charset="utf-8"><title>bridge test view</title></head><body><p id="view">the view</p><script type="module">${script}</script></body></html>`;
}

async function listen(files: Map<string, ServedFile>): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? "/", "http://x").pathname);
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": `${file.type ?? "text/html"}; charset=utf-8`, "cache-control": "no-store", ...file.headers }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Starts both ports, with the host page at `/host.html` and the proxy at `/sandbox.html`. */
export async function startAppsOrigins(): Promise<AppsOrigins> {
  checkBuilt();
  const bridge = (await import(pathToFileURL(DIST_BRIDGE).href)) as Bridge;
  const [script, viewHtml] = await Promise.all([hostScript(), viewDocument()]);
  const hostFiles = new Map<string, ServedFile>();
  const sandboxFiles = new Map<string, ServedFile>();
  const [hostServer, sandboxServer] = await Promise.all([listen(hostFiles), listen(sandboxFiles)]);
  const host = `http://127.0.0.1:${hostServer.port}`;
  const sandbox = `http://127.0.0.1:${sandboxServer.port}`;
  hostFiles.set("/host.html", { body: `<!doctype html><html><head><meta charset="utf-8"><title>bridge test host</title></head><body><p id="secret">the host's own page</p><script type="module" src="/host.js"></script></body></html>` });
  hostFiles.set("/host.js", { body: script, type: "text/javascript" });
  // What the host must set on the proxy's response: the one directive a page cannot set itself.
  sandboxFiles.set("/sandbox.html", { body: bridge.sandboxProxyPage({ hostOrigin: host }), headers: { "content-security-policy": `frame-ancestors ${host}` } });
  for (const files of [hostFiles, sandboxFiles]) files.set("/data", { body: "data", type: "text/plain", headers: { "access-control-allow-origin": "*" } });
  return {
    host,
    sandbox,
    hostAlias: `http://localhost:${hostServer.port}`,
    sandboxAlias: `http://localhost:${sandboxServer.port}`,
    bridge,
    viewHtml,
    serve: (on, path, file) => void (on === "host" ? hostFiles : sandboxFiles).set(path, file),
    async close() {
      for (const { server } of [hostServer, sandboxServer]) server.closeAllConnections();
      await Promise.all([hostServer, sandboxServer].map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
