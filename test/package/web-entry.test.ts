// The package's root is web-standard (issue 21): what a bundler takes into a browser page from
// `conduit-mcp` (and `conduit-mcp/adapters`) imports no Node module and names none of Node's
// globals. Read off the BUILT package, bundled as a browser app's bundler would (esbuild,
// platform "browser"): every import of a Node module is reported by a resolver plugin, and each
// free use of a Node global is renamed to a marker by `define`, which touches references and
// never strings or comments, so the markers in the output are exactly those uses.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
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

function nodeGlobalsIn(text: string): string[] {
  return NODE_GLOBALS.filter((name) => text.includes(marker(name)));
}

describe("the web entry, bundled for a browser", () => {
  beforeAll(() => {
    if (!existsSync(`${ROOT}dist/index.js`)) throw new Error("dist/index.js is missing: run `npm run build` (npm test does)");
  });

  it("imports no Node module and names no Node global, from conduit-mcp and conduit-mcp/adapters", async () => {
    for (const entry of ["conduit-mcp", "conduit-mcp/adapters"]) {
      const bundled = await bundleForBrowser(entry);
      expect(bundled.nodeImports, entry).toEqual([]);
      expect(nodeGlobalsIn(bundled.text), entry).toEqual([]);
      // It is the whole library, not an empty module that passes for want of content.
      if (entry === "conduit-mcp") expect(bundled.text).toMatch(/export \{[^}]*\bClient\b/);
    }
  });

  it("finds what it looks for: the Node entry bundled the same way imports Node and names process", async () => {
    const bundled = await bundleForBrowser("conduit-mcp/node");
    expect(bundled.nodeImports.some((line) => line.startsWith("node:child_process"))).toBe(true);
    expect(nodeGlobalsIn(bundled.text)).toContain("process");
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
