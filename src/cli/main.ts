/**
 * `conduit`: the terminal host. Reads the command line, opens the session, runs the one-shot
 * command or the interactive mode, and ends with an exit code of the table in `exit-codes.ts`.
 * Built on the library's public API alone.
 */
import { readArgs, type Parsed } from "./args.js";
import { answersFrom, nobody, type Asker } from "./asker.js";
import { CliError, EXIT, exitCodeOf, type ExitCode } from "./exit-codes.js";
import { helpText } from "./help.js";
import { runOneShot, type OneShot } from "./oneshot.js";
import { Output, shownLine } from "./output.js";
import { Repl } from "./repl.js";
import { openSession } from "./session.js";
import { loadConfigured, type NamedTarget } from "./config-places.js";
import { listServers } from "./servers-command.js";
import { distinctTargets, resolveTarget, stdioTarget } from "./targets.js";
import { TtyAsker } from "./tty-asker.js";
import { ClientError } from "../node.js";

const VERSION = "0.1.0";

export async function main(argv: readonly string[]): Promise<ExitCode> {
  const env = process.env;
  let parsed: Parsed;
  let out = new Output({ stdout: process.stdout, stderr: process.stderr, env }, argv.includes("--format=json") || argv.join(" ").includes("--format json"));
  try {
    parsed = readArgs(argv);
    out = new Output({ stdout: process.stdout, stderr: process.stderr, env }, parsed.json);
    if (parsed.command === "help") {
      process.stdout.write(helpText());
      return EXIT.ok;
    }
    if (parsed.command === "version") {
      process.stdout.write(`conduit ${VERSION}\n`);
      return EXIT.ok;
    }
    if (parsed.command === "servers") return listServers(await loadConfigured(parsed.config, reading(parsed)), out, env);
    return await run(parsed, out);
  } catch (error) {
    return fail(out, error);
  }
}

function reading(parsed: Parsed): { cwd: string; env: NodeJS.ProcessEnv; allowEnv: readonly string[] } {
  return { cwd: process.cwd(), env: process.env, allowEnv: parsed.allowEnv };
}

function fail(out: Output, error: unknown): ExitCode {
  const code = exitCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (out.json) {
    const detail: Record<string, unknown> = { message, exitCode: code };
    if (error instanceof ClientError) {
      detail.kind = error.kind;
      if (error.serverId !== undefined) detail.serverId = error.serverId;
      if (error.code !== undefined) detail.code = error.code;
    }
    out.jsonLine({ error: detail });
  } else {
    out.error(`conduit: ${shownLine(message, 2_000)}`);
  }
  return code;
}

async function run(parsed: Parsed, out: Output): Promise<ExitCode> {
  const person = process.stdin.isTTY === true && process.stderr.isTTY === true;
  const oneShot = parsed.command !== "interactive";
  if (!oneShot && !person) throw new CliError("the interactive mode needs a terminal; in a script use the one-shot commands (conduit --help)", EXIT.usage);
  const configured = await loadConfigured(parsed.config, reading(parsed));
  const flags = { headers: parsed.headers, name: parsed.name, transport: parsed.transport };
  let words = parsed.words;
  const targets: NamedTarget[] = [];
  if (parsed.stdio !== undefined) targets.push(stdioTarget(parsed.stdio, parsed.name));
  if (oneShot) {
    if (targets.length === 0) {
      const spec = words[0];
      if (spec === undefined) throw new CliError(`conduit ${parsed.command} needs a server: a name, a URL, or -- <command> (conduit --help)`, EXIT.usage);
      targets.push(resolveTarget(spec, configured, flags));
      words = words.slice(1);
    }
  } else {
    for (const spec of words) targets.push(resolveTarget(spec, configured, flags));
    // Named nothing: the user's own configured servers; a project's only when named.
    if (targets.length === 0) targets.push(...[...configured.servers.values()].filter((named) => named.project !== true));
    if (targets.length === 0) throw new CliError("no server to connect to: give a name (conduit servers lists them), a URL or -- <command> (conduit --help)", EXIT.usage);
  }
  // A one-shot command has one server, and its config may not have let it be read.
  const [first] = targets;
  if (oneShot && first?.error !== undefined) throw first.error;
  const asker: Asker = parsed.answers !== undefined ? await answersFrom(parsed.answers) : person ? new TtyAsker(out) : nobody;
  let repl: Repl | undefined;
  const session = await openSession(distinctTargets(targets), {
    out,
    asker,
    roots: parsed.roots.length > 0 ? parsed.roots : [process.cwd()],
    samplingCommand: parsed.samplingCommand,
    connectTimeout: parsed.connectTimeout,
    requestTimeout: parsed.timeout,
    person,
    env: process.env,
    notices: !oneShot,
    oneShot,
    onListChanged: (serverId) => repl?.listChanged(serverId),
  });
  try {
    // Logs are shown (on stderr); a 2026-07-28 server sends them only when asked for a level.
    const level = parsed.logLevel ?? "info";
    for (const server of session.ready) {
      if (server.serverCapabilities?.logging === undefined) continue;
      await server.setLogLevel(level).catch((error: unknown) => out.warn(`${server.id}: ${(error as Error).message}`));
    }
    if (oneShot) {
      const failed = session.failed[0];
      if (failed !== undefined) throw failed.error;
      const controller = new AbortController();
      const stop = (): void => controller.abort(new CliError("stopped with Ctrl-C", EXIT.interrupted));
      process.once("SIGINT", stop);
      try {
        const code = await runOneShot(parsed.command as OneShot, session.ready[0]!, words, out, controller.signal, { open: parsed.open, asker });
        // The server coped without the answer, but the command did not do what was asked.
        if (session.handler.unanswered !== undefined) return fail(out, new CliError(session.handler.unanswered, EXIT.inputNeeded));
        return code;
      } catch (error) {
        if (controller.signal.aborted) return fail(out, controller.signal.reason);
        if (session.handler.unanswered !== undefined) return fail(out, new CliError(session.handler.unanswered, EXIT.inputNeeded));
        throw error;
      } finally {
        process.off("SIGINT", stop);
      }
    }
    if (session.ready.length === 0) {
      for (const { id, error } of session.failed) out.error(`${id}: ${shownLine(error.message, 500)}`);
      return exitCodeOf(session.failed[0]?.error);
    }
    repl = new Repl(session, out, asker);
    return await repl.run();
  } finally {
    await session.close();
  }
}
