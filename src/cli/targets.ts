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
}

export interface ConfigPlace {
  readonly host: string;
  readonly path: string;
}

/** The usual places, nearest first: the project's own, then the user's. */
export function configPlaces(cwd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ConfigPlace[] {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const appData = env.APPDATA ?? join(home, "AppData", "Roaming");
  const claudeDesktop =
    platform === "darwin"
      ? join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
      : platform === "win32"
        ? join(appData, "Claude", "claude_desktop_config.json")
        : join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "Claude", "claude_desktop_config.json");
  return [
    { host: "project (.mcp.json)", path: join(cwd, ".mcp.json") },
    { host: "VS Code (project)", path: join(cwd, ".vscode", "mcp.json") },
    { host: "Cursor (project)", path: join(cwd, ".cursor", "mcp.json") },
    { host: "Claude Desktop", path: claudeDesktop },
    { host: "Cursor", path: join(home, ".cursor", "mcp.json") },
    { host: "Windsurf", path: join(home, ".codeium", "windsurf", "mcp_config.json") },
    { host: "Claude Code", path: join(home, ".claude.json") },
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
  const places = explicit === undefined ? configPlaces(cwd, env) : [{ host: "--config", path: explicit }];
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
    for (const { id, target } of found) if (!servers.has(id)) servers.set(id, { id, target, source: place.path });
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
    if (at <= 0) throw new CliError(`--header must be "Name: value", not ${JSON.stringify(line)}`, EXIT.usage);
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}
