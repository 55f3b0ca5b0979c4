#!/usr/bin/env node
// `npm run check:package`: checks the package as it would be published, not the working tree.
//
// 1. `npm pack` into a new temporary folder (this runs `prepare`, so dist/ is built afresh) and
//    a look at the file list: the entry points are in, sources and tests are not.
// 2. publint and are-the-types-wrong (`attw`, profile esm-only: the package has no CommonJS
//    entry) on that tarball.
// 3. What the README and the shipped docs point to is in the tarball: every relative link, and
//    every `examples/…` or `docs/…` file they name (other paths, `src/…` or `bench/…`, describe
//    the repository, and `repository` in package.json says where it is).
// 4. The tarball installed into an empty folder (its dependencies from the registry), then
//    scripts/package-consumer/consumer.mts copied there, type-checked with strict settings and
//    skipLibCheck off by this repository's TypeScript, compiled and run against the notes
//    example server (through `conduit-mcp`, `conduit-mcp/adapters` and, for the page a host
//    serves on its sandbox origin, `conduit-mcp/apps-bridge/proxy`).
// 5. The installed `conduit`: every path its --help names exists, and its first example (a
//    server that ships with it and needs only Node) runs.
//
// Prints one line per step; on a failure, the output of the step that failed, and exits 1.
// The temporary folder is removed in every case, also on SIGINT and SIGTERM.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const fromRoot = (...parts) => join(root, ...parts);
const STEP_TIMEOUT = 120_000;

// The npm that runs this script when it runs under npm, else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

// A nested npm would take this for its project folder and act on the repository instead.
const childEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
delete childEnv.npm_config_local_prefix;

const children = new Set();
let workDir;

function removeWorkDir() {
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.once(signal, () => {
    for (const child of children) child.kill("SIGTERM");
    removeWorkDir();
    process.exit(code);
  });
}

class StepError extends Error {
  constructor(message, output) {
    super(message);
    this.output = output;
  }
}

function howItEnded(error) {
  if (error.killed && error.signal !== null) return `was stopped by ${error.signal} (time limit ${STEP_TIMEOUT / 1000} s)`;
  if (typeof error.code === "number") return `exited with code ${error.code}`;
  return `failed: ${error.message}`;
}

/** Runs a program; resolves with its stdout, rejects with a StepError holding all it printed. */
function run(command, args, cwd) {
  const [file, ...fileArgs] = Array.isArray(command) ? command : [command];
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      [...fileArgs, ...args],
      { cwd, env: childEnv, timeout: STEP_TIMEOUT, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        children.delete(child);
        if (error === null) resolve(stdout);
        else reject(new StepError(`${[file, ...fileArgs, ...args].join(" ")} ${howItEnded(error)}`, `${stdout}${stderr}`));
      },
    );
    children.add(child);
  });
}

async function step(name, work) {
  const started = performance.now();
  const result = await work();
  console.log(`check:package  ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** The tarball must hold the entry points, the docs and examples it names, and nothing of the sources or the tests. */
function checkFileList(packed) {
  const files = packed.files.map((file) => file.path);
  const entries = ["dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/node.d.ts", "dist/adapters/index.js", "dist/adapters/index.d.ts", "dist/stores/redis.js", "dist/stores/redis.d.ts", "dist/tracing/opentelemetry.js", "dist/tracing/opentelemetry.d.ts", "dist/apps/index.js", "dist/apps/index.d.ts", "dist/apps/bridge/index.js", "dist/apps/bridge/index.d.ts", "dist/apps/bridge/proxy.js", "dist/apps/bridge/proxy.d.ts", "dist/cli/bin.js"];
  const missing = ["package.json", "README.md", "LICENSE", ...entries].filter((f) => !files.includes(f));
  const stray = files.filter((f) => !/^(dist\/|docs\/[^/]+\.(md|svg)$|examples\/|package\.json$|README\.md$|LICENSE$)/.test(f));
  if (missing.length > 0 || stray.length > 0) {
    throw new StepError("the tarball's file list is wrong", `missing: ${missing.join(", ") || "none"}\nnot expected: ${stray.join(", ") || "none"}`);
  }
  return files.length;
}

/**
 * What the shipped Markdown points to, missing from the tarball: relative links (`[x](docs/a.md)`,
 * anchors and URLs left out) and `examples/…`/`docs/…` files named in code spans, each resolved
 * against the page that names it.
 */
function missingReferences(files) {
  const shipped = new Set(files);
  const pages = files.filter((file) => file.endsWith(".md"));
  const missing = [];
  for (const page of pages) {
    const text = readFileSync(fromRoot(...page.split("/")), "utf8");
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1].split("#")[0]).filter((link) => link !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(link));
    const named = [...text.matchAll(/`((?:examples|docs)\/[^`\s]+\.[a-z]+)`/g)].map((match) => match[1]);
    for (const link of links) {
      const path = posix.normalize(posix.join(posix.dirname(page), link));
      if (!shipped.has(path) && ![...shipped].some((file) => file.startsWith(`${path.replace(/\/$/, "")}/`))) missing.push(`${page} links to ${link}`);
    }
    for (const path of named) if (!shipped.has(path)) missing.push(`${page} names ${path}`);
  }
  return missing;
}

/** Compiler options of a careful consumer: strict, and the package's own .d.ts files checked. */
function consumerTsconfig() {
  return {
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2022",
      lib: ["ES2023"],
      // The package's types name Node's modules; a consumer has @types/node, here the repository's.
      types: ["node"],
      typeRoots: [fromRoot("node_modules", "@types")],
      noEmitOnError: true,
    },
    files: ["consumer.mts"],
  };
}

/** A browser app's project: the bundler's resolution (the web entry), the DOM, no @types/node. */
function webConsumerTsconfig() {
  return {
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      module: "ESNext",
      moduleResolution: "Bundler",
      target: "ES2022",
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      types: [],
      noEmit: true,
    },
    files: ["web-consumer.ts"],
  };
}

async function main() {
  workDir = mkdtempSync(join(tmpdir(), "conduit-check-package-"));
  const consumerDir = join(workDir, "consumer");
  mkdirSync(consumerDir);

  const packed = await step("npm pack (with prepare: a fresh build)", async () => {
    const out = await run(npm, ["pack", "--json", "--pack-destination", workDir], root);
    const [result] = JSON.parse(out);
    return { ...result, fileCount: checkFileList(result) };
  });
  const tarball = join(workDir, packed.filename);
  console.log(`check:package  ${packed.filename}: ${packed.fileCount} files, ${(packed.size / 1024).toFixed(0)} kB packed`);
  await step("the README's and docs' links and paths are in the tarball", async () => {
    const missing = missingReferences(packed.files.map((file) => file.path));
    if (missing.length > 0) throw new StepError("the shipped pages point to files the tarball does not have", missing.join("\n"));
  });

  // The linters read only the tarball, and the install needs only the network: run them together.
  writeFileSync(join(consumerDir, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
  const outcomes = await Promise.allSettled([
    step("publint --strict", () => run(fromRoot("node_modules", ".bin", "publint"), ["run", "--strict", tarball], root)),
    step("attw --profile esm-only", () =>
      run(fromRoot("node_modules", ".bin", "attw"), [tarball, "--profile", "esm-only", "--format", "ascii", "--no-color"], root),
    ),
    step("npm install of the tarball into an empty folder", () =>
      run(npm, ["install", tarball, "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", "--loglevel=error"], consumerDir),
    ),
  ]);
  const failures = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason);
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) {
    const each = (error) => (error instanceof StepError ? `${error.message}\n${error.output.trimEnd()}` : String(error));
    throw new StepError(`${failures.length} steps failed`, failures.map(each).join("\n\n"));
  }

  copyFileSync(fromRoot("scripts", "package-consumer", "consumer.mts"), join(consumerDir, "consumer.mts"));
  writeFileSync(join(consumerDir, "tsconfig.json"), `${JSON.stringify(consumerTsconfig(), null, 2)}\n`);
  await step("tsc: the consumer, strict, skipLibCheck false", () => run(fromRoot("node_modules", ".bin", "tsc"), ["-p", consumerDir], consumerDir));
  copyFileSync(fromRoot("scripts", "package-consumer", "web-consumer.ts"), join(consumerDir, "web-consumer.ts"));
  writeFileSync(join(consumerDir, "tsconfig.web.json"), `${JSON.stringify(webConsumerTsconfig(), null, 2)}\n`);
  await step("tsc: a browser app's consumer (bundler resolution, DOM, no @types/node), strict, skipLibCheck false", () =>
    run(fromRoot("node_modules", ".bin", "tsc"), ["-p", join(consumerDir, "tsconfig.web.json")], consumerDir),
  );

  const notesServer = fromRoot("examples", "servers", "notes-server.mjs");
  const said = await step("node: the consumer against the notes server", () =>
    run(process.execPath, [join(consumerDir, "consumer.mjs"), notesServer], consumerDir),
  );
  for (const line of said.trimEnd().split("\n")) console.log(`check:package  ${line}`);

  const bin = join(consumerDir, "node_modules", "conduit-mcp", "dist", "cli", "bin.js");
  await step("conduit --help, installed: its paths exist, its first example runs", async () => {
    const help = await run(process.execPath, [bin, "--help"], consumerDir);
    const servers = [...help.matchAll(/ -- node (\S+)/g)].map((match) => match[1]);
    const missing = servers.filter((path) => !existsSync(path));
    if (servers.length === 0 || missing.length > 0) throw new StepError("conduit --help names servers the package does not have", `named: ${servers.join(", ") || "none"}\nmissing: ${missing.join(", ") || "none"}`);
    const listed = await run(process.execPath, [bin, "list", "--", process.execPath, servers[0]], consumerDir);
    if (!/research/.test(listed)) throw new StepError("the first example of conduit --help lists no tools", listed);
  });
}

const started = performance.now();
try {
  await main();
  console.log(`check:package  passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`check:package  FAILED: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof StepError && error.output.trim() !== "") console.error(error.output.trimEnd());
  else if (!(error instanceof StepError)) console.error(error);
  process.exitCode = 1;
} finally {
  removeWorkDir();
}
