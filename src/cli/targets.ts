/**
 * What `conduit` connects to: a stdio command after `--`, a URL, or servers by name from a
 * config: `--config FILE`, else the places where the hosts people already use keep theirs
 * (listed by `conduit servers`). The first place that names a server wins.
 */
import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { loadServerConfig, type ServerTarget } from "../index.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface NamedTarget {
  readonly id: string;
  readonly target: ServerTarget;
  /** Where it came from: a config file, "command line". */
  readonly source: string;
  /** From a project's config: connected only when named. */
  readonly project?: boolean | undefined;
}

export interface ConfigPlace {
  readonly host: string;
  readonly path: string;
  /** A project's file comes with the folder (a clone may bring one): never connected unasked. */
  readonly scope: "user" | "project";
}

/**
 * The usual places: the user's own first, then the project's, so that a folder (a clone) cannot
 * put its own command under the name of one of the user's servers.
 */
export function configPlaces(cwd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ConfigPlace[] {
  const set = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);
  const home = set(env.HOME) ?? set(env.USERPROFILE) ?? homedir();
  const appData = set(env.APPDATA) ?? join(home, "AppData", "Roaming");
  const claudeDesktop =
    platform === "darwin"
      ? join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
      : platform === "win32"
        ? join(appData, "Claude", "claude_desktop_config.json")
        : join(set(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "Claude", "claude_desktop_config.json");
  return [
    { host: "Claude Desktop", path: claudeDesktop, scope: "user" },
    { host: "Cursor", path: join(home, ".cursor", "mcp.json"), scope: "user" },
    { host: "Windsurf", path: join(home, ".codeium", "windsurf", "mcp_config.json"), scope: "user" },
    { host: "Claude Code", path: join(home, ".claude.json"), scope: "user" },
    { host: "project (.mcp.json)", path: join(cwd, ".mcp.json"), scope: "project" },
    { host: "VS Code (project)", path: join(cwd, ".vscode", "mcp.json"), scope: "project" },
    { host: "Cursor (project)", path: join(cwd, ".cursor", "mcp.json"), scope: "project" },
  ];
}

export interface Configured {
  readonly servers: Map<string, NamedTarget>;
  /** Files that exist but could not be read, each with why (shown by `conduit servers`). */
  readonly problems: Array<{ path: string; message: string }>;
  /** The files read, in order. */
  readonly read: ConfigPlace[];
}

/** The servers of `--config FILE` (a bad file is a usage error), or of every usual place that exists. */
export async function loadConfigured(explicit: string | undefined, cwd: string, env: NodeJS.ProcessEnv): Promise<Configured> {
  const servers = new Map<string, NamedTarget>();
  const problems: Array<{ path: string; message: string }> = [];
  const read: ConfigPlace[] = [];
  const places: ConfigPlace[] = explicit === undefined ? configPlaces(cwd, env) : [{ host: "--config", path: explicit, scope: "user" }];
  for (const place of places) {
    if (explicit === undefined && !(await exists(place.path))) continue;
    let found;
    try {
      found = await loadServerConfig(place.path, { env });
    } catch (error) {
      if (explicit !== undefined) throw new CliError((error as Error).message, EXIT.usage);
      // Claude Code's file holds much else; one without servers is not a problem.
      if (place.host !== "Claude Code") problems.push({ path: place.path, message: (error as Error).message });
      continue;
    }
    read.push(place);
    for (const { id, target } of found) if (!servers.has(id)) servers.set(id, { id, target, source: place.path, project: place.scope === "project" });
  }
  return { servers, problems, read };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

export interface TargetFlags {
  /** `--header "Name: value"`, for URL targets. */
  headers: readonly string[];
  /** `--name`: the id of the stdio server. */
  name: string | undefined;
  /** `--transport sse|streamable-http` for URL targets. */
  transport: "sse" | "streamable-http" | undefined;
}

/** A command-line target: a URL, or the name of a configured server. */
export function resolveTarget(spec: string, configured: Configured, flags: TargetFlags): NamedTarget {
  if (/^https?:\/\//i.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      throw new CliError(`not a URL: ${spec}`, EXIT.usage);
    }
    const target: ServerTarget = { url: url.href };
    if (flags.headers.length > 0) target.headers = headersOf(flags.headers);
    if (flags.transport !== undefined) target.transport = flags.transport;
    return { id: url.hostname.replace(/[^a-zA-Z0-9_-]/g, "_") || "remote", target, source: "command line" };
  }
  const found = configured.servers.get(spec);
  if (found === undefined) {
    const known = [...configured.servers.keys()];
    throw new CliError(`no server named "${spec}"${known.length === 0 ? " (no config names any: give a URL, `-- <command>`, or --config FILE)" : `; configured: ${known.join(", ")}`}`, EXIT.usage);
  }
  return found;
}

/** The stdio server after `--`. */
export function stdioTarget(command: readonly string[], name: string | undefined): NamedTarget {
  const [program, ...args] = command;
  if (program === undefined || program === "") throw new CliError("`--` must be followed by the server's command", EXIT.usage);
  const script = args.find((arg) => !arg.startsWith("-"));
  const id = name ?? nameOf(script ?? program);
  return { id: id || "stdio", target: { command: program, args }, source: "command line" };
}

/** `notes-server` of `examples/notes-server.mjs`; `server-everything` of `…/server-everything/dist/index.js`. */
function nameOf(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  let name = (parts.pop() ?? "").replace(/\.[cm]?[jt]s$/, "");
  // An entry point says little: the package it belongs to says more.
  while (/^(index|main|cli|server|bin|dist|build|lib|src|out)$/.test(name) && parts.length > 0) name = parts.pop()!;
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    // The value is not repeated: a header is where tokens go.
    if (at <= 0) throw new CliError('each --header must be "Name: value" (one has no name before a colon)', EXIT.usage);
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}
