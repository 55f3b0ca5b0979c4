// Installed size with runtime dependencies: Conduit packed as it would be published (`npm pack`)
// and the official client at the version the repository benchmarks against, each installed
// alone into an empty temporary directory with `npm install --omit=dev` (from the registry, no
// lifecycle scripts), then the bytes of every regular file under node_modules summed (npm's own
// node_modules/.package-lock.json and .bin links excluded). The temporary directories are
// removed; nothing is cached in the repository. One measurement each: the result is a count.
import { spawn } from "node:child_process";
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MB } from "../lib/memory.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NPM_TIMEOUT_MS = 180_000;

async function sdkSpec() {
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  return `@modelcontextprotocol/client@${manifest.devDependencies["@modelcontextprotocol/client"]}`;
}

function npm(args, cwd) {
  // Under `npm run`, npm_execpath is the running npm: use the same one.
  const cli = process.env.npm_execpath;
  const [command, argv] = cli !== undefined && cli.endsWith(".js") ? [process.execPath, [cli, ...args]] : ["npm", args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), NPM_TIMEOUT_MS);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`npm ${args.join(" ")} exited with ${code}\n${stderr.trim()}`));
    });
  });
}

async function treeBytes(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink() || entry.name === ".package-lock.json" || entry.name === ".bin") continue;
    if (entry.isDirectory()) {
      const sub = await treeBytes(path);
      bytes += sub.bytes;
      files += sub.files;
    } else if (entry.isFile()) {
      bytes += (await lstat(path)).size;
      files += 1;
    }
  }
  return { bytes, files };
}

async function installedBytes(client) {
  const dir = await mkdtemp(join(tmpdir(), `conduit-bench-install-${client}-`));
  try {
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "install-size", version: "1.0.0", private: true }));
    let spec;
    if (client === "conduit") {
      const [packed] = JSON.parse(await npm(["pack", "--json", "--pack-destination", dir], ROOT));
      spec = join(dir, packed.filename);
    } else {
      spec = await sdkSpec();
    }
    await npm(["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", spec], dir);
    return await treeBytes(join(dir, "node_modules"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export default {
  id: "install-size",
  name: "installed size",
  fresh: true,
  clients: ["conduit", "sdk"],
  repetitions: 1,
  warmup: false,
  rows: [
    {
      key: "mib",
      name: "installed size with runtime dependencies",
      unit: "MiB",
      better: "lower",
      target: { vs: "sdk", max: 0.2, text: "≤ 0.2× the official client" },
    },
  ],

  async measure(client) {
    const { bytes } = await installedBytes(client);
    return { mib: bytes / MB };
  },
};
