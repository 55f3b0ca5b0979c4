// The package's root is web-standard (issue 21): what a bundler takes into a browser page from
// `conduit-mcp` (and `conduit-mcp/adapters`, `conduit-mcp/redis`, `conduit-mcp/apps-bridge` and its `/proxy`) imports
// no Node module and names none of Node's globals. Read off the BUILT package, bundled as a browser app's bundler would (esbuild,
// platform "browser"): every import of a Node module is reported by a resolver plugin, and each
// free use of a Node global is renamed to a marker by `define`, which touches references and
// never strings or comments, so the markers in the output are exactly those uses.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { build as viteBuild } from "vite";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NODE_GLOBALS = ["process", "Buffer", "require", "global", "__dirname", "__filename", "setImmediate"];
const marker = (name: string): string => `__conduit_node_global_${name}__`;

interface Bundled {
  text: string;
  nodeImports: string[];
}

/** Bundles `entry` (a package specifier) for a browser; what it imported of Node, and the code. */
async function bundleForBrowser(entry: string): Promise<Bundled> {
  const nodeImports: string[] = [];
  const builtins = new Set(builtinModules);
  const reportNode: Plugin = {
    name: "report-node",
    setup(on) {
      on.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, "").split("/")[0]!;
        if (args.path.startsWith("node:") || builtins.has(bare)) {
          nodeImports.push(`${args.path} (from ${args.importer.slice(ROOT.length)})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: ROOT, loader: "js" },
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    logLevel: "silent",
    plugins: [reportNode],
    define: Object.fromEntries(NODE_GLOBALS.map((name) => [name, marker(name)])),
  });
  return { text: result.outputFiles[0]!.text, nodeImports };
}

/** Builds a one-line browser app importing `entry` with Vite's defaults; its code and warnings. */
async function viteApp(entry: string): Promise<{ code: string; warnings: string[] }> {
  // An app of its own, with the package installed as a link, as `npm install` would leave it.
  const app = mkdtempSync(join(tmpdir(), "conduit-vite-app-"));
  try {
    mkdirSync(join(app, "node_modules"));
    symlinkSync(ROOT, join(app, "node_modules", "conduit-mcp"), "dir");
    writeFileSync(join(app, "index.html"), '<!doctype html><script type="module" src="./main.js"></script>');
    writeFileSync(join(app, "main.js"), `import { Client } from ${JSON.stringify(entry)};\nwindow.client = new Client({ name: "page", version: "1.0.0" });\n`);
    const warnings: string[] = [];
    const quiet = () => {};
    await viteBuild({
      root: app,
      configFile: false,
      logLevel: "warn",
      build: { outDir: join(app, "out"), minify: false },
      customLogger: { info: quiet, warn: (message) => warnings.push(message), warnOnce: (message) => warnings.push(message), error: quiet, clearScreen: quiet, hasErrorLogged: () => false, hasWarned: false },
    });
    const assets = join(app, "out", "assets");
    const code = readdirSync(assets).filter((file) => file.endsWith(".js")).map((file) => readFileSync(join(assets, file), "utf8")).join("\n");
    return { code, warnings };
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

function nodeGlobalsIn(text: string): string[] {
  return NODE_GLOBALS.filter((name) => text.includes(marker(name)));
}

describe("the web entry, bundled for a browser", () => {
  beforeAll(() => {
    if (!existsSync(`${ROOT}dist/index.js`)) throw new Error("dist/index.js is missing: run `npm run build` (npm test does)");
  });

  it("imports no Node module and names no Node global, from conduit-mcp, conduit-mcp/adapters, conduit-mcp/apps, conduit-mcp/redis and conduit-mcp/apps-bridge(/proxy)", async () => {
    for (const entry of ["conduit-mcp", "conduit-mcp/adapters", "conduit-mcp/apps", "conduit-mcp/redis", "conduit-mcp/apps-bridge", "conduit-mcp/apps-bridge/proxy"]) {
      const bundled = await bundleForBrowser(entry);
      expect(bundled.nodeImports, entry).toEqual([]);
      expect(nodeGlobalsIn(bundled.text), entry).toEqual([]);
      // It is the whole library, not an empty module that passes for want of content.
      if (entry === "conduit-mcp") expect(bundled.text).toMatch(/export \{[^}]*\bClient\b/);
      if (entry === "conduit-mcp/apps-bridge") expect(bundled.text).toMatch(/export \{[^}]*\bmountApp\b/);
      if (entry === "conduit-mcp/apps") expect(bundled.text).toMatch(/export \{[^}]*\bAppSession\b/);
    }
  });

  it("loads nothing of rendering an app from the root entry, on the web or on Node: that is conduit-mcp/apps's", async () => {
    // The root keeps what the catalog reads of a tool (its visibility); an app's resource, its
    // policy and the session of a view come only with the subpath (issue 23: no import cost).
    const apps = await bundleForBrowser("conduit-mcp/apps");
    const sessionMarkers = ["var AppSession = class", "function readAppResource(", "function appCsp(", "ui/initialize"];
    for (const marker of sessionMarkers) expect(apps.text, marker).toContain(marker);
    for (const entry of ["conduit-mcp", "conduit-mcp/node"]) {
      const root = await bundleForBrowser(entry);
      expect(root.text, entry).toContain("function appsToolMeta");
      for (const marker of sessionMarkers) expect(root.text, `${entry}: ${marker}`).not.toContain(marker);
    }
  });

  it("is what Vite takes for a browser app, with no configuration: no Node module stubbed out", async () => {
    const { code, warnings } = await viteApp("conduit-mcp");
    // Vite replaces a Node module in a browser build with a stub, and says so in a warning.
    expect(code).not.toContain("__vite-browser-external");
    expect(warnings.filter((message) => /externalized for browser compatibility/.test(message))).toEqual([]);
    // The client came along: the method table's names are in the output.
    expect(code).toContain("notifications/initialized");
  });

  it("finds what it looks for: the Node entry bundled the same way imports Node and names process", async () => {
    const bundled = await bundleForBrowser("conduit-mcp/node");
    expect(bundled.nodeImports.some((line) => line.startsWith("node:child_process"))).toBe(true);
    expect(nodeGlobalsIn(bundled.text)).toContain("process");
    // Vite stubs Node's modules out, and the build fails on a name the stub lacks.
    await expect(viteApp("conduit-mcp/node")).rejects.toThrow(/__vite-browser-external:node:/);
  });

  it("refuses a stdio server with a usage error naming the Node entry, where the runtime has no processes", () => {
    // The web entry alone, in a process of its own: nothing of the Node entry loaded.
    const script = `
      import { Client, ClientError } from ${JSON.stringify(`${ROOT}dist/index.js`)};
      const client = new Client({ name: "web", version: "1.0.0" });
      try {
        await client.connect("local", { command: "node", args: ["-e", ""] });
        console.log("connected");
      } catch (error) {
        console.log(JSON.stringify({ kind: error instanceof ClientError ? error.kind : "other", message: error.message }));
      }
      await client.close();`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    const reported = JSON.parse(output) as { kind: string; message: string };
    expect(reported.kind).toBe("usage");
    expect(reported.message).toContain("conduit-mcp/node");
  });
});
