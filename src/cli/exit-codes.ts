/**
 * How `conduit` ends, so that a script can tell failures apart. The table is printed by
 * `--help` and in the README; `exitCodeOf` maps the library's error kinds onto it.
 */
import { ClientError } from "../node.js";

export const EXIT = {
  ok: 0,
  toolError: 1,
  usage: 2,
  unreachable: 3,
  auth: 4,
  protocol: 5,
  timeout: 6,
  refused: 7,
  inputNeeded: 8,
  output: 74,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Code, name and meaning, in the order `--help` shows them. */
export const EXIT_TABLE: ReadonlyArray<readonly [ExitCode, string, string]> = [
  [EXIT.ok, "ok", "done"],
  [EXIT.toolError, "tool error", "the tool ran and reported an error (isError), or its task failed"],
  [EXIT.usage, "usage", "bad arguments, an unknown server or tool"],
  [EXIT.unreachable, "unreachable", "the server could not be started or reached, or it went away"],
  [EXIT.auth, "auth", "the server needs an authorization that could not be had"],
  [EXIT.protocol, "protocol", "the server sent something that breaks the protocol"],
  [EXIT.timeout, "timeout", "the server did not answer in time"],
  [EXIT.refused, "refused", "the server refused the request (a JSON-RPC error: an unknown resource or prompt, say) or does not offer it"],
  [EXIT.inputNeeded, "input needed", "the server asked for input and nobody could answer (no terminal and no --answers)"],
  [EXIT.output, "output", "the result could not be written (a reader that closes the pipe early, as head does, is no failure)"],
  [EXIT.interrupted, "interrupted", "stopped with Ctrl-C"],
];

/** A failure of the command itself, with the code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliError) return error.code;
  if (error instanceof TypeError) return EXIT.usage;
  if (!(error instanceof ClientError)) return EXIT.protocol;
  switch (error.kind) {
    case "usage":
      return EXIT.usage;
    case "transport":
    case "closed":
    case "store":
      return EXIT.unreachable;
    case "auth":
      return EXIT.auth;
    case "protocol":
      return EXIT.protocol;
    case "timeout":
      return EXIT.timeout;
    case "rpc":
    case "unsupported":
      return EXIT.refused;
    case "cancelled":
      return EXIT.interrupted;
    case "task_failed":
      return EXIT.toolError;
    case "input_handler":
    case "input_refused":
    case "url_elicitation_required":
      return EXIT.inputNeeded;
    default:
      return EXIT.protocol;
  }
}

export function exitTableText(): string {
  return EXIT_TABLE.map(([code, name, meaning]) => `  ${String(code).padStart(3)}  ${name.padEnd(13)} ${meaning}`).join("\n");
}
