// The command line a stdio server gets on Windows, computed here on any machine with the
// platform faked: cross-spawn (and the `which` it uses) decide at load whether they run on
// Windows, so the platform is set before anything loads them, and the test first checks that
// nothing did. Resolution reads the server's own PATH (`Path`, as Windows spells it) with the
// extensions of PATHEXT over a temporary directory of shims; what the line makes of each
// argument is read back with cmd.exe's and the C runtime's rules (test/helpers/windows-cmd.ts).
// PATHEXT is in lower case because the temporary directory is on a file system that, unlike
// Windows', tells `npx.CMD` from `npx.cmd`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandLine } from "../../src/node/windows-command.js";
import { argvOf, cmdLineOf, cmdReads } from "../helpers/windows-cmd.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /[\\/]node_modules[\\/](cross-spawn|which|isexe)[\\/]/.test(path));

const platform = Object.getOwnPropertyDescriptor(process, "platform")!;
const saved = { PATHEXT: process.env.PATHEXT, comspec: process.env.comspec, COMSPEC: process.env.COMSPEC };
const root = mkdtempSync(join(tmpdir(), "conduit-windows-"));
const bin = join(root, "bin");
const shims = join(root, "project", "node_modules", ".bin");
let windowsCommandLine: (command: string, args: readonly string[], options: object) => Promise<CommandLine>;

beforeAll(async () => {
  expect(loaded()).toEqual([]);
  Object.defineProperty(process, "platform", { ...platform, value: "win32" });
  process.env.PATHEXT = ".com;.exe;.bat;.cmd";
  delete process.env.comspec;
  delete process.env.COMSPEC;
  mkdirSync(bin, { recursive: true });
  mkdirSync(shims, { recursive: true });
  for (const file of ["npx.cmd", "uvx.exe", "both.exe", "both.cmd"]) writeFileSync(join(bin, file), "");
  writeFileSync(join(shims, "server.cmd"), '@"%~dp0\\node.exe" "%~dp0\\..\\server\\bin.js" %*\r\n');
  ({ windowsCommandLine } = await import("../../src/node/windows-command.js"));
});

afterAll(() => {
  Object.defineProperty(process, "platform", platform);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

/** What a server started from `line` reads as its arguments, after cmd.exe read it `passes` times. */
function argumentsRead(line: CommandLine, passes: 1 | 2): string[] {
  let text = cmdLineOf(line.args);
  for (let pass = 0; pass < passes; pass++) text = cmdReads(text);
  return argvOf(text);
}

const TRICKY = ["-y", "@modelcontextprotocol/server-filesystem", "C:\\My Files\\", "C:\\dir\\\\", 'say "hi"', 'x\\\\"y', "a&b|c", "50%", "^x", "%PATH%", "", "(x)!<y>"];

describe("a command on Windows, with the platform faked", () => {
  it("runs a .cmd shim such as npx through cmd.exe, every argument quoted and escaped for both of cmd's readings", async () => {
    const options = { env: { Path: bin }, cwd: undefined, stdio: ["pipe", "pipe", "pipe"], detached: false, windowsHide: true };
    const line = await windowsCommandLine("npx", ["-y", "a&b", "C:\\dir\\\\", 'x" & calc & "', "%PATH%"], options);

    expect(line.command).toBe("cmd.exe");
    // Each caret is for one reading: cmd's of this line, then npx.cmd's of its `%*`.
    expect(line.args).toEqual([
      "/d",
      "/s",
      "/c",
      '"npx ^^^"-y^^^" ^^^"a^^^&b^^^" ^^^"C:\\dir\\\\\\\\^^^" ^^^"x\\^^^"^^^ ^^^&^^^ calc^^^ ^^^&^^^ \\^^^"^^^" ^^^"^^^%PATH^^^%^^^""',
    ]);
    // Node must not quote the line again; the transport's own options are kept as they were.
    expect(line.options).toEqual({ ...options, windowsVerbatimArguments: true });
    expect(options).not.toHaveProperty("windowsVerbatimArguments");
    expect(argumentsRead(line, 2)).toEqual(["npx", "-y", "a&b", "C:\\dir\\\\", 'x" & calc & "', "%PATH%"]);
    expect(argumentsRead(await windowsCommandLine("npx", TRICKY, options), 2)).toEqual(["npx", ...TRICKY]);
  });

  it("escapes twice for a shim in node_modules\\.bin too", async () => {
    const line = await windowsCommandLine("server", ["a&b", "%PATH%"], { env: { PATH: shims } });
    expect(line.args[3]).toBe('"server ^^^"a^^^&b^^^" ^^^"^^^%PATH^^^%^^^""');
    expect(argumentsRead(line, 2)).toEqual(["server", "a&b", "%PATH%"]);
  });

  it("escapes once a command it could not find, which cmd.exe looks for (and names if it cannot)", async () => {
    const line = await windowsCommandLine("missing", ["a&b", "C:\\dir\\\\"], { env: { Path: bin } });
    expect(line.args[3]).toBe('"missing ^"a^&b^" ^"C:\\dir\\\\\\\\^""');
    expect(argumentsRead(line, 1)).toEqual(["missing", "a&b", "C:\\dir\\\\"]);
  });

  it("starts an .exe such as uvx itself, with the arguments as they are", async () => {
    const options = { env: { Path: bin } };
    expect(await windowsCommandLine("uvx", ["mcp-server-git", "a&b", "x\ny"], options)).toEqual({ command: "uvx", args: ["mcp-server-git", "a&b", "x\ny"], options });
  });

  it("takes the extensions in PATHEXT's order, and searches the server's PATH, not the host's", async () => {
    const env = { Path: bin };
    expect((await windowsCommandLine("both", [], { env })).command).toBe("both");
    process.env.PATHEXT = ".cmd;.exe";
    try {
      expect(await windowsCommandLine("both", [], { env })).toMatchObject({ command: "cmd.exe", args: ["/d", "/s", "/c", '"both"'] });
    } finally {
      process.env.PATHEXT = ".com;.exe;.bat;.cmd";
    }
    // uvx.exe is not on this PATH: cmd.exe is left to find it, or to say it cannot.
    expect((await windowsCommandLine("uvx", [], { env: { Path: shims } })).command).toBe("cmd.exe");
  });

  it("refuses an argument that cmd.exe cannot pass on, without quoting it", async () => {
    for (const arg of ["a\nb", "a\r\nb", "a\0b"]) {
      const refused = windowsCommandLine("npx", ["-y", arg], { env: { Path: bin } });
      await expect(refused).rejects.toThrow(TypeError);
      await expect(refused).rejects.toMatchObject({ code: "ERR_CONDUIT_INVALID_ARGUMENT", message: "argument 2 of the command holds a line break or a NUL, which cmd.exe cannot pass on" });
    }
  });

  it("gives a server any argument exactly as configured", async () => {
    const char = fc.constantFrom(..."aZ09 \t\\\"&|<>()[]^%!;,=*?'`@/:.-_é中");
    const args = fc.array(fc.string({ unit: char, maxLength: 12 }), { maxLength: 6 });
    const samples = fc.sample(args, { numRuns: 200, ...(seed === undefined ? {} : { seed }) });
    for (const sample of samples) {
      expect(argumentsRead(await windowsCommandLine("npx", sample, { env: { Path: bin } }), 2)).toEqual(["npx", ...sample]);
      expect(argumentsRead(await windowsCommandLine("server", sample, { env: { Path: shims } }), 2)).toEqual(["server", ...sample]);
      expect(argumentsRead(await windowsCommandLine("missing", sample, { env: { Path: bin } }), 1)).toEqual(["missing", ...sample]);
    }
  });
});
