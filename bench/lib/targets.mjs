// The server programs the scenarios run, as connect targets every client adapter understands.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const serverPath = (file) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url));
const fixturePath = (file) => fileURLToPath(new URL(`../../test/fixtures/${file}`, import.meta.url));

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 2_000;

/** The hand-written stdio server: the same program for every client. era: "legacy" | "modern". */
export function rawStdioServer(era = "legacy") {
  return { command: process.execPath, args: [serverPath("raw-stdio-server.mjs"), "--era", era] };
}

/**
 * The catalog server in awk (`servers/catalog-server.awk`) with `tools` tools: a process of
 * about a megabyte, so that a hundred servers measure the host and not the servers. mawk reads
 * a pipe in blocks unless told to read it line by line.
 */
export function awkCatalogServer(tools) {
  const version = spawnSync("awk", ["-W", "version"], { encoding: "utf8" });
  if (version.error !== undefined) throw new Error(`the catalog server needs awk: ${version.error.message}`);
  const interactive = /mawk/.test(`${version.stdout}${version.stderr}`) ? ["-W", "interactive"] : [];
  return { command: "awk", args: [...interactive, "-v", `tools=${tools}`, "-f", serverPath("catalog-server.awk")] };
}

/**
 * The awk server (servers/tiny-stdio-server.awk): a legacy stdio server of well under a megabyte
 * a process, for the rows that connect a thousand servers at once. Needs `mawk` on the PATH.
 */
export function tinyStdioServer() {
  return { command: "mawk", args: ["-W", "interactive", "-f", serverPath("tiny-stdio-server.awk")] };
}

/** The test server built on the official server library (legacy era only), over stdio. */
export function officialStdioServer() {
  return { command: process.execPath, args: [fixturePath("official-server.mjs"), "stdio", "--era", "legacy"] };
}

/**
 * Starts the hand-written Streamable HTTP server in its own process (its CPU is not the
 * client's). Resolves with { target: { url }, close() }.
 */
export async function rawHttpServer(era = "legacy") {
  const child = spawn(process.execPath, [serverPath("raw-http-server.mjs"), "--era", era], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = once(child, "exit");
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await firstUrl(child);
    return { target: { url }, close };
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    throw error;
  }
}

function firstUrl(child) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const settle = (fn, value) => {
      clearTimeout(timer);
      child.off("exit", onExit).off("error", onError);
      lines.close();
      fn(value);
    };
    const onExit = (code) => settle(reject, new Error(`raw-http-server exited (${code}) before printing its URL`));
    const onError = (error) => settle(reject, error);
    const timer = setTimeout(() => settle(reject, new Error("raw-http-server did not print its URL in time")), START_TIMEOUT_MS);
    child.once("exit", onExit).once("error", onError);
    lines.once("line", (line) => {
      try {
        settle(resolve, JSON.parse(line).url);
      } catch (error) {
        settle(reject, error);
      }
    });
  });
}
