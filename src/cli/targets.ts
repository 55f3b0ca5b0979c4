/**
 * What `conduit` connects to: a stdio command after `--`, a URL, or a server by name from a
 * config (`config-places.ts`), each under an id. An id is what commands and `server:tool` name a
 * server by, so it is kept to letters, digits, `_` and `-`: a URL's is made of its host, port and
 * path (never its query, where tokens go), so that two servers on one host are two ids.
 */
import { redactUrl, type ServerTarget } from "../node.js";
import type { Configured, NamedTarget } from "./config-places.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface TargetFlags {
  /** `--header "Name: value"`, for URL targets. */
  headers: readonly string[];
  /** `--name`: the id of the stdio server. */
  name: string | undefined;
  /** `--transport sse|streamable-http` for URL targets. */
  transport: "sse" | "streamable-http" | undefined;
}

/** The longest id made from a command or a URL. */
const MAX_ID = 64;

/** A command-line target: a URL, or the name of a configured server. */
export function resolveTarget(spec: string, configured: Configured, flags: TargetFlags): NamedTarget {
  if (/^https?:\/\//i.test(spec)) {
    if (!URL.canParse(spec)) throw new CliError(`not a URL: ${redactUrl(spec)}`, EXIT.usage);
    const url = new URL(spec);
    const target: ServerTarget = { url: url.href };
    if (flags.headers.length > 0) target.headers = headersOf(flags.headers);
    if (flags.transport !== undefined) target.transport = flags.transport;
    return { id: idOfUrl(url), target, source: "command line" };
  }
  const found = configured.servers.get(spec);
  if (found === undefined) {
    const known = [...configured.servers.keys()];
    throw new CliError(`no server named "${spec}"${known.length === 0 ? " (no config names any: give a URL, `-- <command>`, or --config FILE)" : `; configured: ${known.join(", ")}`}`, EXIT.usage);
  }
  return found;
}

/**
 * `127_0_0_1_3001_mcp` of `http://127.0.0.1:3001/mcp`: host, port and path, of the URL as
 * redacted (a token in the path is not part of an id, which is shown everywhere).
 */
export function idOfUrl(url: URL): string {
  const shown = new URL(redactUrl(url));
  const parts = [shown.hostname, shown.port, ...shown.pathname.split("/")];
  return idOf(parts.join("_")) || "remote";
}

/** The stdio server after `--`. */
export function stdioTarget(command: readonly string[], name: string | undefined): NamedTarget {
  const [program, ...args] = command;
  if (program === undefined || program === "") throw new CliError("`--` must be followed by the server's command", EXIT.usage);
  const script = args.find((arg) => !arg.startsWith("-"));
  const id = name ?? nameOf(script ?? program);
  return { id: id || "stdio", target: { command: program, args }, source: "command line" };
}

/**
 * One id per server: a target named twice (the same id for the same target) is connected once;
 * a different target whose id is taken gets the first free `id-2`, `id-3`, ….
 */
export function distinctTargets(targets: readonly NamedTarget[]): NamedTarget[] {
  const byId = new Map<string, NamedTarget>();
  for (const named of targets) {
    const taken = byId.get(named.id);
    if (taken !== undefined && sameTarget(taken, named)) continue;
    let id = named.id;
    for (let n = 2; byId.has(id); n++) id = `${named.id}-${n}`;
    byId.set(id, { ...named, id });
  }
  return [...byId.values()];
}

function sameTarget(a: NamedTarget, b: NamedTarget): boolean {
  return a.error === undefined && b.error === undefined && JSON.stringify(a.target) === JSON.stringify(b.target);
}

/** `notes-server` of `examples/notes-server.mjs`; `server-everything` of `…/server-everything/dist/index.js`. */
function nameOf(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  let name = (parts.pop() ?? "").replace(/\.[cm]?[jt]s$/, "");
  // An entry point says little: the package it belongs to says more.
  while (/^(index|main|cli|server|bin|dist|build|lib|src|out)$/.test(name) && parts.length > 0) name = parts.pop()!;
  return idOf(name);
}

/** Letters, digits, `_` and `-` only, each run of anything else one `_`, at most `MAX_ID` characters. */
function idOf(text: string): string {
  const id = text.replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/_{2,}/g, "_");
  let start = 0;
  while (start < id.length && (id[start] === "_" || id[start] === "-")) start++;
  let end = Math.min(id.length, start + MAX_ID);
  while (end > start && (id[end - 1] === "_" || id[end - 1] === "-")) end--;
  return id.slice(start, end);
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    // The value is not repeated: a header is where tokens go.
    if (at <= 0) throw new CliError('each --header must be "Name: value" (one has no name before a colon)', EXIT.usage);
    Object.defineProperty(headers, line.slice(0, at).trim().toLowerCase(), { value: line.slice(at + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
  return headers;
}
