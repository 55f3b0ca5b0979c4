/**
 * The command line a stdio server is started with on Windows, as Claude Desktop and the other
 * hosts start it. There `npx`, `pnpm` and a package's `node_modules\.bin\*` are `.cmd` batch
 * files, which CreateProcess cannot run (and Node refuses to without a shell since
 * CVE-2024-27980); `uvx` and `node` are `.exe` files and need nothing.
 *
 * cross-spawn resolves the command: it looks it up on the server's PATH with the extensions of
 * PATHEXT (in their order), reads a shebang, and for anything but an `.exe` or `.com` builds
 * `cmd.exe /d /s /c "<command>"` (cmd being `%ComSpec%`), with `windowsVerbatimArguments` so that
 * Node does not quote it again. Only its parser is used; Node's own `spawn` runs the result with
 * the transport's options, so the transport is the same on every platform from there on (its
 * `spawn` would also turn a cmd.exe that exits with 1 into an "error" event in place of the
 * "exit" the transport waits for).
 *
 * The arguments are quoted here, not by cross-spawn, whose quoting (7.0.6) is wrong in two ways
 * the tests show: a run of two or more backslashes before a quote or at the end of an argument
 * comes out changed (`C:\dir\\` arrives as `C:\dir\"`), and metacharacters are escaped for one
 * reading by cmd except in `node_modules\.bin`, while every batch file that passes on `%*` (npm's
 * own `npx.cmd` does) has cmd read them a second time: `x" & calc & "` would start `calc`. Here
 * each argument is quoted by the C runtime's rules (a run of backslashes doubled where a quote
 * follows it), every cmd metacharacter, the quotes included, gets a caret, and a second one for
 * a batch file, so that cmd never sees a quote of its own and the server reads each argument as
 * configured. A line break cannot pass through cmd at all and is refused.
 *
 * cross-spawn and the `which` it uses decide when they load whether they run on Windows; this
 * file loads them only on Windows, so POSIX hosts never do.
 */
import type { SpawnOptions } from "node:child_process";
import { InvalidArgumentError } from "../util/errors.js";

export interface CommandLine {
  command: string;
  args: string[];
  options: SpawnOptions;
}

/** cross-spawn's parser (`_parse`, not in its published types), and the file it resolved. */
type Parse = (command: string, args: readonly string[], options: SpawnOptions) => CommandLine & { file?: string | undefined };

/** What cmd.exe acts on outside quotes (cross-spawn's set: the space and `,;` split, the rest act). */
const CMD_META = /[()[\]%!^"`<>&|;, *?]/g;
const BATCH_FILE = /\.(?:cmd|bat)$/i;

/** `command` and `args` as Windows must be given them to run the way a person's shell would. */
export async function windowsCommandLine(command: string, args: readonly string[], options: SpawnOptions): Promise<CommandLine> {
  const { default: crossSpawn } = (await import("cross-spawn")) as unknown as { default: { _parse: Parse } };
  // Resolution alone: the arguments do not change it, and are quoted below.
  const parsed = crossSpawn._parse(command, [], options);
  if (parsed.options.windowsVerbatimArguments !== true) return { command: parsed.command, args: [...parsed.args, ...args], options: parsed.options };
  const [d, s, c, line, ...rest] = parsed.args;
  if (d !== "/d" || s !== "/s" || c !== "/c" || line === undefined || !line.endsWith('"') || rest.length > 0) {
    throw new Error(`cross-spawn built an unexpected cmd.exe line (${parsed.args.length} arguments)`);
  }
  const readings = parsed.file !== undefined && BATCH_FILE.test(parsed.file) ? 2 : 1;
  const quoted = args.map((arg, i) => forCmd(quoteArgument(checkLine(arg, i)), readings));
  const shellCommand = quoted.length === 0 ? line : `${line.slice(0, -1)} ${quoted.join(" ")}"`;
  return { command: parsed.command, args: [d, s, c, shellCommand], options: parsed.options };
}

function checkLine(arg: string, index: number): string {
  if (/[\r\n\0]/.test(arg)) throw new InvalidArgumentError(`argument ${index + 1} of the command holds a line break or a NUL, which cmd.exe cannot pass on`);
  return arg;
}

/**
 * One argument in quotes, as a program that reads its command line by the C runtime's rules
 * takes it back: 2n backslashes before a quote are n backslashes, 2n+1 are n and the quote.
 */
function quoteArgument(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === "\\") {
      backslashes += 1;
      continue;
    }
    out += char === '"' ? `${"\\".repeat(backslashes * 2 + 1)}"` : `${"\\".repeat(backslashes)}${char}`;
    backslashes = 0;
  }
  return `${out}${"\\".repeat(backslashes * 2)}"`;
}

/** `text` with a caret before each cmd metacharacter, for each time cmd reads it. */
function forCmd(text: string, readings: 1 | 2): string {
  const once = text.replace(CMD_META, "^$&");
  return readings === 1 ? once : once.replace(CMD_META, "^$&");
}
