/**
 * The server configs hosts already share, read into targets:
 *
 * - `mcpServers` (Claude Desktop, Cursor, Windsurf, Claude Code): `command`, `args`, `env`,
 *   `cwd` for stdio; `url` (Windsurf: `serverUrl`) and `headers` for remote servers; `type`
 *   (`stdio`, `http`, `streamable-http`, `sse`) where given; `disabled: true` entries are skipped.
 * - VS Code's `servers` (`.vscode/mcp.json`): the same fields under `type`.
 *
 * Strings may name environment variables: `${env:NAME}` (VS Code) or `${NAME}`. One that is not
 * set, a placeholder this reader cannot fill (`${input:…}`), or a field of the wrong type
 * refuses the whole config with a `"usage"` error naming the server and the field.
 */
import { ClientError } from "../util/errors.js";
import type { RemoteTarget, ServerTarget } from "../options.js";

/** One server of a config, read: its id (the config's name for it) and its target. */
export interface ConfiguredServer {
  readonly id: string;
  readonly target: ServerTarget;
}

export interface LoadOptions {
  /** Where `${NAME}` is looked up (default: `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads a config: a path to a JSON file, or the parsed object. The servers come in the config's
 * order; disabled ones are left out.
 */
export async function loadServerConfig(source: string | object, options: LoadOptions = {}): Promise<ConfiguredServer[]> {
  let config: unknown = source;
  if (typeof source === "string") {
    const { readFile } = await import("node:fs/promises");
    let text: string;
    try {
      text = await readFile(source, "utf8");
    } catch (error) {
      throw new ClientError("usage", `the server config ${source} could not be read: ${(error as Error).message}`, { cause: error });
    }
    try {
      config = JSON.parse(text);
    } catch (error) {
      // Not the parser's message: it quotes the text, which may hold a secret.
      throw new ClientError("usage", `the server config ${source} is not JSON (${jsonProblemAt(error)})`);
    }
  }
  if (!isRecord(config)) throw new ClientError("usage", "a server config must be a JSON object");
  const servers = config.mcpServers ?? config.servers;
  if (!isRecord(servers)) throw new ClientError("usage", 'a server config needs an "mcpServers" (or VS Code\'s "servers") object');
  const env = options.env ?? process.env;
  const read: ConfiguredServer[] = [];
  for (const [id, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) throw fieldError(id, "(the entry)", "must be an object");
    if (entry.disabled === true) continue;
    read.push({ id, target: targetOf(id, entry, env) });
  }
  return read;
}

function targetOf(id: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): ServerTarget {
  const type = optionalString(id, entry, "type", env);
  const url = optionalString(id, entry, "url", env) ?? optionalString(id, entry, "serverUrl", env);
  const command = optionalString(id, entry, "command", env);
  if (type !== undefined && !["stdio", "http", "streamable-http", "streamableHttp", "sse"].includes(type)) {
    throw fieldError(id, "type", `is "${type}"; known are stdio, http, streamable-http and sse`);
  }
  if (type === "stdio" || (type === undefined && command !== undefined)) {
    if (command === undefined) throw fieldError(id, "command", "is needed for a stdio server");
    const target: ServerTarget = { command };
    const args = optionalStrings(id, entry, "args", env);
    if (args !== undefined) target.args = args;
    const vars = optionalMap(id, entry, "env", env);
    if (vars !== undefined) target.env = vars;
    const cwd = optionalString(id, entry, "cwd", env);
    if (cwd !== undefined) target.cwd = cwd;
    return target;
  }
  if (url === undefined) throw fieldError(id, "url", "is needed (or a command for a stdio server)");
  try {
    new URL(url);
  } catch {
    throw fieldError(id, "url", "is not a URL");
  }
  const target: RemoteTarget = { url };
  const headers = optionalMap(id, entry, "headers", env);
  if (headers !== undefined) target.headers = lowerCased(headers);
  if (type === "sse") target.transport = "sse";
  else if (type !== undefined) target.transport = "streamable-http";
  return target;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** `${env:NAME}` and `${NAME}` filled from `env`; anything else refused. */
function expand(id: string, field: string, value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(PLACEHOLDER, (_match, inner: string) => {
    const name = inner.startsWith("env:") ? inner.slice(4) : inner;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw fieldError(id, field, `names \${${inner}}, which this reader cannot fill (only \${env:NAME} and \${NAME})`);
    const found = env[name];
    if (found === undefined) throw fieldError(id, field, `names the environment variable ${name}, which is not set`);
    return found;
  });
}

function optionalString(id: string, entry: Record<string, unknown>, field: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw fieldError(id, field, "must be a string");
  return expand(id, field, value, env);
}

function optionalStrings(id: string, entry: Record<string, unknown>, field: string, env: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw fieldError(id, field, "must be an array of strings");
  return value.map((item: string, i) => expand(id, `${field}[${i}]`, item, env));
}

function optionalMap(id: string, entry: Record<string, unknown>, field: string, env: Readonly<Record<string, string | undefined>>): Record<string, string> | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw fieldError(id, field, "must be an object of strings");
  const map: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") throw fieldError(id, `${field}.${key}`, "must be a string");
    Object.defineProperty(map, key, { value: expand(id, `${field}.${key}`, item, env), enumerable: true, writable: true, configurable: true });
  }
  return map;
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
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
  return new ClientError("usage", `server "${id}" in the config: "${field}" ${problem}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
