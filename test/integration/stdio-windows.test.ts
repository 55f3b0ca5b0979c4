// A config's `npx` started as on Windows, end to end on any machine: the platform is faked
// before the client loads (cross-spawn and the transport read it at load), `npx.cmd` sits in a
// temporary directory on the server's `Path`, and %ComSpec% names a stand-in for cmd.exe that
// writes down the command line it was given and then serves MCP over its stdio. The client
// connects and calls a tool through it; the line is read back with cmd.exe's and the C runtime's
// rules (test/helpers/windows-cmd.ts) to the arguments of the config.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Conduit from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";
import { argvOf, cmdLineOf, cmdReads } from "../helpers/windows-cmd.js";

const SERVER = new URL("../fixtures/adapters-server.mjs", import.meta.url).href;
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /[\\/]node_modules[\\/](cross-spawn|which|isexe)[\\/]/.test(path));

const platform = Object.getOwnPropertyDescriptor(process, "platform")!;
const saved = { PATHEXT: process.env.PATHEXT, comspec: process.env.comspec };
const root = mkdtempSync(join(tmpdir(), "conduit-windows-"));
const bin = join(root, "bin");
const recorded = join(root, "cmd-line.json");
let conduit: typeof Conduit;

beforeAll(async () => {
  expect(loaded()).toEqual([]);
  mkdirSync(bin);
  writeFileSync(join(bin, "npx.cmd"), "");
  const fakeCmd = join(root, "cmd.mjs");
  writeFileSync(
    fakeCmd,
    [
      `#!${process.execPath}`,
      `import { writeFileSync } from "node:fs";`,
      `writeFileSync(${JSON.stringify(recorded)}, JSON.stringify(process.argv.slice(2)));`,
      `await import(${JSON.stringify(SERVER)});`,
      "",
    ].join("\n"),
  );
  chmodSync(fakeCmd, 0o755);
  Object.defineProperty(process, "platform", { ...platform, value: "win32" });
  // Lower case: the temporary directory's file system, unlike Windows', tells .CMD from .cmd.
  process.env.PATHEXT = ".com;.exe;.bat;.cmd";
  process.env.comspec = fakeCmd;
  // The run's setup loaded the stdio transport already (test/setup-node-runtime.ts), under the
  // real platform: a fresh copy of every module reads the faked one.
  vi.resetModules();
  conduit = await import("../../src/node.js");
});

afterAll(() => {
  Object.defineProperty(process, "platform", platform);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

describe("a stdio server on Windows, with the platform faked", () => {
  it("starts npx through cmd.exe with the config's arguments intact, and talks to it over the same pipes", async () => {
    const args = ["-y", "@scope/server@1.0.0", "a&b", 'x" & calc & "', "%PATH%", "C:\\data dir\\\\"];
    const client = track(new conduit.Client({ name: "host", version: "1", logger: capturingLogger() }));
    // Both spellings of PATH on this file system, so that nothing outside the directory is found.
    const server = await client.connect("win", { command: "npx", args, env: { Path: bin, PATH: bin } });

    const echoed = await server.callTool("echo", { text: "through cmd" });

    expect(echoed.content).toEqual([{ type: "text", text: "through cmd" }]);
    const line = JSON.parse(readFileSync(recorded, "utf8")) as string[];
    // What cmd.exe would run, and what npx.cmd's `%*` would hand to npm: the config's arguments.
    expect(argvOf(cmdReads(cmdReads(cmdLineOf(line))))).toEqual(["npx", ...args]);
    expect(loaded().some((path) => path.includes("cross-spawn"))).toBe(true);
  });
});
