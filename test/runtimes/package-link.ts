// A host's folder for the built package: node_modules/conduit-mcp links to this repository
// (its package.json, exports and dist/), so that a runtime or a bundler resolves
// `conduit-mcp` and `conduit-mcp/node` by the package's name and its own rules, as in a
// project that installed it. The scripts a test runs are copied in beside it.
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface HostFolder {
  dir: string;
  /** The copy of each script given, by its file name. */
  file(name: string): string;
  remove(): Promise<void>;
}

export async function hostFolder(scripts: readonly string[]): Promise<HostFolder> {
  const dir = await mkdtemp(join(tmpdir(), "conduit-host-"));
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "conduit-host", private: true, type: "module" }));
  await mkdir(join(dir, "node_modules"));
  await symlink(PACKAGE_ROOT, join(dir, "node_modules", "conduit-mcp"), "junction");
  for (const script of scripts) await copyFile(script, join(dir, basename(script)));
  return { dir, file: (name) => join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}
