// The module graph Deno's own resolver builds for a file (`deno info --json`): the `node:`
// modules it reaches, statically or by a dynamic import of a literal name, and the packages
// from node_modules it reaches (Deno does not walk into those; their code is theirs).
import { spawnSync } from "node:child_process";
import { systemToolPath } from "../helpers/system-tools.js";

interface DenoModule {
  kind: string;
  specifier: string;
}

export interface DenoGraph {
  nodeModules: string[];
  packages: string[];
}

export function denoGraph(file: string, cwd: string): DenoGraph {
  const run = spawnSync(systemToolPath("deno"), ["info", "--json", file], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`deno info failed: ${run.stderr}`);
  const modules = (JSON.parse(run.stdout) as { modules: DenoModule[] }).modules;
  const nodeModules = modules.filter((m) => m.kind === "node" || m.specifier.startsWith("node:")).map((m) => m.specifier);
  const packages = new Set<string>();
  for (const m of modules) {
    if (m.kind !== "external" || m.specifier.endsWith(".d.ts")) continue;
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m.specifier)?.[1];
    if (name !== undefined) packages.add(name);
  }
  return { nodeModules: nodeModules.sort(), packages: [...packages].sort() };
}
