/**
 * Where `conduit` finds servers by name: `--config FILE`, else the places where the hosts people
 * already use keep theirs (listed by `conduit servers`). The user's own come first, then the
 * project's, so that a folder (a clone) cannot put its own command under the name of one of the
 * user's servers; the first place that names a server wins. A project's config reads only the
 * variables its servers list in their `env` and those given with `--allow-env`.
 */
import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { loadServerConfig, type ClientError, type ServerTarget } from "../node.js";
import { CliError, EXIT } from "./exit-codes.js";

/** A server by name: its target, or why its config's entry could not be used. */
export type NamedTarget = {
  readonly id: string;
  /** Where it came from: a config file, "command line". */
  readonly source: string;
  /** From a project's config: connected only when named. */
  readonly project?: boolean | undefined;
} & ({ readonly target: ServerTarget; readonly error?: undefined } | { readonly target?: undefined; readonly error: ClientError });

export interface ConfigPlace {
  readonly host: string;
  readonly path: string;
  /** A project's file comes with the folder (a clone may bring one): never connected unasked. */
  readonly scope: "user" | "project";
  /** Claude Code's file: the servers it keeps for this directory come first. */
  readonly projectDir?: string | undefined;
}

const set = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);

export function homeOf(env: NodeJS.ProcessEnv): string {
  return set(env.HOME) ?? set(env.USERPROFILE) ?? homedir();
}

/** The usual places, in the order they are read. */
export function configPlaces(cwd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ConfigPlace[] {
  const home = homeOf(env);
  const appData = set(env.APPDATA) ?? join(home, "AppData", "Roaming");
  const xdgConfig = set(env.XDG_CONFIG_HOME) ?? join(home, ".config");
  const appSupport = join(home, "Library", "Application Support");
  const userData = (app: string): string => (platform === "darwin" ? join(appSupport, app) : platform === "win32" ? join(appData, app) : join(xdgConfig, app));
  return [
    { host: "Claude Desktop", path: join(userData("Claude"), "claude_desktop_config.json"), scope: "user" },
    { host: "Cursor", path: join(home, ".cursor", "mcp.json"), scope: "user" },
    { host: "Windsurf", path: join(home, ".codeium", "windsurf", "mcp_config.json"), scope: "user" },
    { host: "Claude Code", path: join(home, ".claude.json"), scope: "user", projectDir: cwd },
    { host: "VS Code", path: join(userData("Code"), "User", "mcp.json"), scope: "user" },
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

export interface ConfigReading {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--allow-env`: variables a project's config may read besides those its servers list. */
  allowEnv: readonly string[];
}

/** The servers of `--config FILE` (a file that cannot be read is a usage error), or of every usual place that exists. */
export async function loadConfigured(explicit: string | undefined, reading: ConfigReading): Promise<Configured> {
  const servers = new Map<string, NamedTarget>();
  const problems: Array<{ path: string; message: string }> = [];
  const read: ConfigPlace[] = [];
  const places: ConfigPlace[] = explicit === undefined ? configPlaces(reading.cwd, reading.env) : [{ host: "--config", path: explicit, scope: "user" }];
  const predefined = { workspaceFolder: reading.cwd, userHome: homeOf(reading.env) };
  for (const place of places) {
    if (explicit === undefined && !(await exists(place.path))) continue;
    let found;
    try {
      found = await loadServerConfig(place.path, { env: reading.env, scope: place.scope, allowEnv: reading.allowEnv, predefined, projectDir: place.projectDir });
    } catch (error) {
      if (explicit !== undefined) throw new CliError((error as Error).message, EXIT.usage);
      // Claude Code's file holds much else; one without servers is not a problem.
      if (place.host !== "Claude Code") problems.push({ path: place.path, message: (error as Error).message });
      continue;
    }
    read.push(place);
    for (const server of found) {
      if (servers.has(server.id)) continue;
      const named: NamedTarget = server.error === undefined ? { id: server.id, target: server.target, source: place.path, project: place.scope === "project" } : { id: server.id, error: server.error, source: place.path, project: place.scope === "project" };
      servers.set(server.id, named);
    }
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
