/**
 * The server configs hosts already share, read into targets:
 *
 * - `mcpServers` (Claude Desktop, Cursor, Windsurf, Claude Code): `command`, `args`, `env`,
 *   `cwd` for stdio; `url` (Windsurf: `serverUrl`) and `headers` for remote servers; `type`
 *   (`stdio`, `http`, `streamable-http`, `sse`) where given; `disabled: true` entries are skipped.
 *   Claude Code's `~/.claude.json` also keeps servers per project directory
 *   (`projects[<dir>].mcpServers`, its "local" scope): with `projectDir` those come first.
 * - VS Code's `servers` (`.vscode/mcp.json`, and the user's `mcp.json`): the same fields under
 *   `type`; its `inputs` only say what a `${input:…}` asks for (see `config-vars.ts`).
 *
 * A file that cannot be read, is not JSON or names no servers refuses the whole config (a
 * `"usage"` error). A bad entry refuses only its server: it comes with `error` (kind `"usage"`,
 * naming the server and the field) in place of a target, and the others are read.
 */
import { ClientError } from "../util/errors.js";
import { lowRuntime } from "../util/runtime.js";
import type { RemoteTarget, ServerTarget } from "../options.js";
import { fill, Unfilled, type Variables } from "./config-vars.js";

/**
 * One server of a config, read: its id (the config's name for it) and its target, or why its
 * entry could not be read (an unset variable, a field of the wrong type).
 */
export type ConfiguredServer =
  | { readonly id: string; readonly target: ServerTarget; readonly error?: undefined }
  | { readonly id: string; readonly target?: undefined; readonly error: ClientError };

export interface LoadOptions {
  /** Where `${NAME}` is looked up (default: the process's environment on Node, Bun and Deno; none elsewhere). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * `"project"`: the config came with a folder (`.mcp.json`, `.vscode/mcp.json`, which a clone
   * may bring), and a server's placeholders read only the variables it lists in its own `env`
   * block, and those of `allowEnv`. `"user"` (the default): any variable.
   */
  scope?: "user" | "project" | undefined;
  /** Variables a project's config may read besides those its servers list. */
  allowEnv?: readonly string[] | undefined;
  /** Values of `${name}` placeholders that are not variables: `{ workspaceFolder, userHome }`. */
  predefined?: Readonly<Record<string, string>> | undefined;
  /** Claude Code's `~/.claude.json`: the servers of `projects[projectDir]` come first. */
  projectDir?: string | undefined;
}

/**
 * Reads a config: a path to a JSON file, or the parsed object. The servers come in the config's
 * order (Claude Code's local ones first); disabled ones are left out.
 */
export async function loadServerConfig(source: string | object, options: LoadOptions = {}): Promise<ConfiguredServer[]> {
  const config = typeof source === "string" ? await readJson(source) : source;
  if (!isRecord(config)) throw new ClientError("usage", "a server config must be a JSON object");
  const local = localServers(config, options.projectDir);
  const servers = config.mcpServers ?? config.servers;
  if (!isRecord(servers) && local === undefined) throw new ClientError("usage", 'a server config needs an "mcpServers" (or VS Code\'s "servers") object');
  const base = { env: options.env ?? lowRuntime().env?.() ?? {}, predefined: options.predefined ?? {}, inputs: inputsOf(config) };
  const allowed = options.scope === "project" ? (options.allowEnv ?? []) : undefined;
  const read: ConfiguredServer[] = [];
  const seen = new Set<string>();
  for (const group of [local, isRecord(servers) ? servers : undefined]) {
    if (group === undefined) continue;
    for (const [id, entry] of Object.entries(group)) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (isRecord(entry) && entry.disabled === true) continue;
      read.push(readEntry(id, entry, { ...base, readable: allowed === undefined ? undefined : readableBy(entry, allowed) }));
    }
  }
  return read;
}

async function readJson(path: string): Promise<unknown> {
  const readTextFile = lowRuntime().readTextFile;
  if (readTextFile === undefined) throw new ClientError("usage", "reading a server config from a file needs a runtime with files (conduit-mcp/node): give the parsed object instead");
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    throw new ClientError("usage", `the server config ${path} could not be read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // Not the parser's message: it quotes the text, which may hold a secret.
    throw new ClientError("usage", `the server config ${path} is not JSON (${jsonProblemAt(error)})`);
  }
}

/** Claude Code's local scope: `projects[dir].mcpServers`, when there is one. */
function localServers(config: Record<string, unknown>, dir: string | undefined): Record<string, unknown> | undefined {
  if (dir === undefined || !isRecord(config.projects) || !Object.hasOwn(config.projects, dir)) return undefined;
  const project = config.projects[dir];
  return isRecord(project) && isRecord(project.mcpServers) ? project.mcpServers : undefined;
}

/** VS Code's `inputs`: `[{ id, description, … }]`, for the message of a `${input:id}`. */
function inputsOf(config: Record<string, unknown>): Map<string, string> {
  const inputs = new Map<string, string>();
  const given: unknown = config.inputs;
  if (!Array.isArray(given)) return inputs;
  for (const input of given as unknown[]) {
    if (isRecord(input) && typeof input.id === "string" && typeof input.description === "string") inputs.set(input.id, input.description);
  }
  return inputs;
}

/**
 * What a project's server may read: the names its `env` block gives it, and the allowed ones.
 * Only a stdio server is given its `env`: on a remote entry the block goes nowhere, and must not
 * open the way to its URL or headers.
 */
function readableBy(entry: unknown, allowed: readonly string[]): Set<string> {
  const names = new Set(allowed);
  if (!isRecord(entry) || !isRecord(entry.env)) return names;
  const stdio = entry.type === "stdio" || (entry.type === undefined && typeof entry.command === "string");
  if (stdio) for (const name of Object.keys(entry.env)) names.add(name);
  return names;
}

function readEntry(id: string, entry: unknown, vars: Variables): ConfiguredServer {
  try {
    if (!isRecord(entry)) throw fieldError(id, "(the entry)", "must be an object");
    return { id, target: targetOf(id, entry, vars) };
  } catch (error) {
    if (error instanceof ClientError) return { id, error };
    throw error;
  }
}

function targetOf(id: string, entry: Record<string, unknown>, vars: Variables): ServerTarget {
  const field = new Fields(id, entry, vars);
  const type = field.string("type");
  if (type !== undefined && !["stdio", "http", "streamable-http", "streamableHttp", "sse"].includes(type)) {
    throw fieldError(id, "type", `is "${type}"; known are stdio, http, streamable-http and sse`);
  }
  const command = field.string("command");
  if (type === "stdio" || (type === undefined && command !== undefined)) {
    if (command === undefined) throw fieldError(id, "command", "is needed for a stdio server");
    const target: ServerTarget = { command };
    const args = field.strings("args");
    if (args !== undefined) target.args = args;
    const env = field.map("env");
    if (env !== undefined) target.env = env;
    const cwd = field.string("cwd");
    if (cwd !== undefined) target.cwd = cwd;
    return target;
  }
  const url = field.string("url") ?? field.string("serverUrl");
  if (url === undefined) throw fieldError(id, "url", "is needed (or a command for a stdio server)");
  if (!URL.canParse(url)) throw fieldError(id, "url", "is not a URL");
  const target: RemoteTarget = { url };
  const headers = field.map("headers");
  if (headers !== undefined) target.headers = lowerCased(headers);
  if (type === "sse") target.transport = "sse";
  else if (type !== undefined) target.transport = "streamable-http";
  return target;
}

/** The fields of one entry, type-checked and with their placeholders filled. */
class Fields {
  constructor(
    private readonly id: string,
    private readonly entry: Record<string, unknown>,
    private readonly vars: Variables,
  ) {}

  string(name: string): string | undefined {
    const value = this.entry[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw fieldError(this.id, name, "must be a string");
    return this.fill(name, value);
  }

  strings(name: string): string[] | undefined {
    const value = this.entry[name];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw fieldError(this.id, name, "must be an array of strings");
    return value.map((item: string, i) => this.fill(`${name}[${i}]`, item));
  }

  map(name: string): Record<string, string> | undefined {
    const value = this.entry[name];
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw fieldError(this.id, name, "must be an object of strings");
    const map: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "string") throw fieldError(this.id, `${name}.${key}`, "must be a string");
      Object.defineProperty(map, key, { value: this.fill(`${name}.${key}`, item), enumerable: true, writable: true, configurable: true });
    }
    return map;
  }

  private fill(field: string, value: string): string {
    try {
      return fill(value, this.vars);
    } catch (error) {
      if (error instanceof Unfilled) throw fieldError(this.id, field, error.problem);
      throw error;
    }
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) Object.defineProperty(lower, name.toLowerCase(), { value, enumerable: true, writable: true, configurable: true });
  return lower;
}

/** Where JSON.parse stopped, without the excerpt of the text its message carries. */
export function jsonProblemAt(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const at = /position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message);
  if (at === null) return /end of JSON input/.test(message) ? "it ends too early" : "a syntax error";
  return at[2] === undefined ? `a syntax error at position ${at[1]}` : `a syntax error at line ${at[2]}, column ${at[3]}`;
}

function fieldError(id: string, field: string, problem: string): ClientError {
  return new ClientError("usage", `server "${id}" in the config: "${field}" ${problem}`, { serverId: id });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
