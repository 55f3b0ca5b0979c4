// `conduit-mcp/redis` is an entry of its own: a host that imports the root (web or Node) loads
// none of it. Proved on the BUILT package two ways: a copy of the package whose
// dist/stores/redis.js throws when loaded, imported by a Node process through each entry (the
// root and the Node entry load; the Redis entry, the control, throws); and the root bundled
// with esbuild, in which nothing of the Redis store's code appears.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const POISON = "the Redis entry was loaded";
const run = promisify(execFile);

describe("the Redis entry, apart from the root", () => {
  let app: string;

  beforeAll(() => {
    if (!existsSync(`${ROOT}dist/stores/redis.js`)) throw new Error("dist/stores/redis.js is missing: run `npm run build` (npm test does)");
    app = mkdtempSync(join(tmpdir(), "conduit-redis-entry-"));
    const installed = join(app, "node_modules", "conduit-mcp");
    mkdirSync(installed, { recursive: true });
    cpSync(join(ROOT, "package.json"), join(installed, "package.json"));
    cpSync(join(ROOT, "dist"), join(installed, "dist"), { recursive: true });
    // The package's own dependencies, where an install would have put them.
    symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"), "dir");
    writeFileSync(join(installed, "dist", "stores", "redis.js"), `throw new Error(${JSON.stringify(POISON)});\n`);
  });

  afterAll(() => {
    if (app !== undefined) rmSync(app, { recursive: true, force: true });
  });

  const load = (entry: string, conditions: string[] = []) =>
    run(process.execPath, [...conditions.map((c) => `--conditions=${c}`), "--input-type=module", "-e", `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).length);`], { cwd: app, timeout: 30_000 });

  it("importing conduit-mcp (Node and web conditions) and conduit-mcp/node does not load it", async () => {
    for (const [entry, conditions] of [["conduit-mcp", []], ["conduit-mcp", ["browser"]], ["conduit-mcp/node", []]] as const) {
      const { stdout } = await load(entry, [...conditions]);
      expect(Number(stdout.trim()), entry).toBeGreaterThan(10);
    }
  });

  it("finds what it looks for: importing conduit-mcp/redis loads it", async () => {
    await expect(load("conduit-mcp/redis")).rejects.toThrow(POISON);
  });

  it("has none of the Redis store's code in the root's bundle", async () => {
    const bundle = async (entry: string, platform: "browser" | "node"): Promise<string> => {
      const result = await build({ stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: ROOT, loader: "js" }, bundle: true, write: false, platform, format: "esm", logLevel: "silent", external: ["node:*", "oauth4webapi", "eventsource-parser", "cross-spawn"] });
      return result.outputFiles[0]!.text;
    };
    const marker = "the Redis store";
    expect(await bundle("conduit-mcp", "browser")).not.toContain(marker);
    expect(await bundle("conduit-mcp/node", "node")).not.toContain(marker);
    expect(await bundle("conduit-mcp/redis", "browser")).toContain(marker);
  });
});
