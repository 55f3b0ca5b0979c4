/**
 * `conduit servers`: the servers the configs name, where each comes from, its command line or
 * URL with its secrets redacted (the values of its `env`, and of the host's variables whose
 * names say secret, wherever they appear), and for a server whose entry cannot be used, why.
 */
import { redactCommandLine, redactUrl, type ServerTarget } from "../node.js";
import type { Configured } from "./config-places.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { shownLine, type Output } from "./output.js";

const SECRET_VARIABLE = /token|key|secret|pass|auth|cred/i;

export function listServers(configured: Configured, out: Output, env: NodeJS.ProcessEnv): ExitCode {
  const servers = [...configured.servers.values()];
  const hostSecrets = Object.entries(env)
    .filter(([name, value]) => value !== undefined && SECRET_VARIABLE.test(name))
    .map(([, value]) => value!);
  const shownTarget = (target: ServerTarget): string => {
    if ("command" in target) return redactCommandLine(target.command, target.args ?? [], [...Object.values(target.env ?? {}), ...hostSecrets]);
    // A config file names commands and URLs; a host's own transport is only ever given in code.
    if (!("url" in target)) return "(a host's transport)";
    return redactCommandLine(redactUrl(target.url), [], hostSecrets);
  };
  if (out.json) {
    out.document(
      servers.map((named) =>
        named.target === undefined
          ? { name: named.id, source: named.source, error: named.error.message }
          : { name: named.id, source: named.source, type: "command" in named.target ? "stdio" : (named.target.transport ?? "http"), target: shownTarget(named.target) },
      ),
    );
  } else {
    if (configured.read.length === 0) out.line(out.out.dim("no config found (conduit --help lists where conduit looks)"));
    for (const place of configured.read) out.line(out.out.dim(`${place.host}: ${place.path}`));
    for (const named of servers) {
      const what = named.target === undefined ? out.out.red(`cannot be used: ${shownLine(named.error.message, 300)}`) : shownLine(shownTarget(named.target), 160);
      out.line(`  ${out.out.bold(shownLine(named.id, 40).padEnd(20))} ${what}  ${out.out.dim(named.source)}`);
    }
  }
  for (const problem of configured.problems) out.warn(`${problem.path}: ${shownLine(problem.message, 300)}`);
  return EXIT.ok;
}
