/** The command line, read with `node:util`'s `parseArgs`; everything after `--` is the stdio server's command. */
import { parseArgs } from "node:util";
import { LOGGING_LEVELS, type LogLevel } from "../node.js";
import { CliError, EXIT } from "./exit-codes.js";

export type Command = "interactive" | "servers" | "list" | "call" | "read" | "prompt" | "help" | "version";

export interface Parsed {
  readonly command: Command;
  /** The words after the command (or the targets, in interactive mode). */
  readonly words: string[];
  /** The stdio server's command line, after `--`. */
  readonly stdio: string[] | undefined;
  readonly config: string | undefined;
  /** `--allow-env NAME`: variables a project's config may read besides those its servers list. */
  readonly allowEnv: string[];
  readonly roots: string[];
  readonly samplingCommand: string | undefined;
  readonly answers: string | undefined;
  readonly json: boolean;
  readonly timeout: number;
  readonly connectTimeout: number;
  readonly headers: string[];
  readonly transport: "sse" | "streamable-http" | undefined;
  readonly name: string | undefined;
  readonly logLevel: LogLevel | undefined;
  /** `call … --open`: serve the tool's app to the person's browser until Ctrl-C. */
  readonly open: boolean;
}

const COMMANDS = new Set<string>(["servers", "list", "call", "read", "prompt", "help"]);

export function readArgs(argv: readonly string[]): Parsed {
  const split = argv.indexOf("--");
  const own = split < 0 ? [...argv] : argv.slice(0, split);
  const stdio = split < 0 ? undefined : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string" },
        "allow-env": { type: "string", multiple: true },
        root: { type: "string", multiple: true },
        "sampling-command": { type: "string" },
        answers: { type: "string" },
        format: { type: "string" },
        timeout: { type: "string" },
        "connect-timeout": { type: "string" },
        header: { type: "string", multiple: true },
        transport: { type: "string" },
        name: { type: "string" },
        "log-level": { type: "string" },
        open: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (conduit --help)`, EXIT.usage);
  }
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") throw new CliError("--format is text or json", EXIT.usage);
  const transport = values.transport;
  if (transport !== undefined && transport !== "sse" && transport !== "streamable-http") throw new CliError("--transport is sse or streamable-http", EXIT.usage);
  const logLevel = values["log-level"];
  if (logLevel !== undefined && !(LOGGING_LEVELS as readonly string[]).includes(logLevel)) throw new CliError(`--log-level is one of ${LOGGING_LEVELS.join(", ")}`, EXIT.usage);
  const first = positionals[0];
  if (values.open === true && first !== "call") throw new CliError("--open goes with call: conduit call <server> <tool> --open", EXIT.usage);
  const command: Command = values.help === true ? "help" : values.version === true ? "version" : first !== undefined && COMMANDS.has(first) ? (first as Command) : "interactive";
  return {
    command,
    words: command === "interactive" || command === "help" || command === "version" ? (command === "interactive" ? positionals : []) : positionals.slice(1),
    stdio,
    config: values.config,
    allowEnv: allowedNames(values["allow-env"] ?? []),
    roots: values.root ?? [],
    samplingCommand: values["sampling-command"],
    answers: values.answers,
    json: format === "json",
    timeout: milliseconds("--timeout", values.timeout, 60_000),
    connectTimeout: milliseconds("--connect-timeout", values["connect-timeout"], 30_000),
    headers: values.header ?? [],
    transport,
    name: values.name,
    logLevel: logLevel as LogLevel | undefined,
    open: values.open === true,
  };
}

/** `--allow-env A --allow-env B,C`: variable names, each checked. */
function allowedNames(given: readonly string[]): string[] {
  const names = given.flatMap((text) => text.split(",")).map((name) => name.trim());
  for (const name of names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new CliError(`--allow-env takes environment variable names (A_NAME), not ${JSON.stringify(name)}`, EXIT.usage);
  return names;
}

function milliseconds(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 2 ** 31 - 1) throw new CliError(`${flag} is a number of milliseconds between 1 and ${2 ** 31 - 1}`, EXIT.usage);
  return value;
}
