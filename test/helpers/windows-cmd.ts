// How Windows reads the command line cross-spawn builds for cmd.exe, written from the rules of
// cmd.exe and of the Microsoft C runtime (not from cross-spawn's code), so that a test can say
// which arguments a server started that way would get.

/** What `cmd.exe /d /s /c "<line>"` runs: with /s, cmd takes off the first and the last quote. */
export function cmdLineOf(args: readonly string[]): string {
  const [d, s, c, quoted, ...rest] = args;
  if (d !== "/d" || s !== "/s" || c !== "/c" || quoted === undefined || rest.length > 0) throw new Error(`not a cmd.exe /d /s /c line: ${JSON.stringify(args)}`);
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) throw new Error(`the line is not in quotes: ${quoted}`);
  return quoted.slice(1, -1);
}

/** What cmd.exe acts on outside quotes (`!` only under delayed expansion, parentheses in blocks). */
const SPECIAL = new Set(['"', "&", "|", "<", ">", "(", ")", "%", "!"]);

/**
 * One reading of `line` by cmd.exe: `^x` stands for `x`. A special character not escaped is an
 * error, since cmd would act on it (a quote would start a region where carets are plain text,
 * `%NAME%` would expand). A `.cmd` shim reads its arguments once more (`%*`).
 */
export function cmdReads(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "^") {
      if (i + 1 >= line.length) throw new Error(`a caret ends the line: ${line}`);
      out += line[++i];
    } else if (SPECIAL.has(char)) {
      throw new Error(`cmd.exe would act on ${char} at ${i} of ${line}`);
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * The arguments a program reads from its command line by the C runtime's rules (those of
 * CommandLineToArgvW): blanks split outside quotes; 2n backslashes before a quote are n
 * backslashes and the quote opens or closes; 2n+1 are n and a literal quote; other backslashes
 * are themselves.
 */
export function argvOf(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (i >= line.length) break;
    let arg = "";
    let quoted = false;
    while (i < line.length && (quoted || (line[i] !== " " && line[i] !== "\t"))) {
      if (line[i] === "\\") {
        let count = 0;
        while (line[i] === "\\") {
          count += 1;
          i += 1;
        }
        if (line[i] === '"') {
          arg += "\\".repeat(Math.floor(count / 2));
          if (count % 2 === 1) arg += '"';
          else quoted = !quoted;
          i += 1;
        } else {
          arg += "\\".repeat(count);
        }
      } else if (line[i] === '"') {
        quoted = !quoted;
        i += 1;
      } else {
        arg += line[i];
        i += 1;
      }
    }
    args.push(arg);
  }
  return args;
}
