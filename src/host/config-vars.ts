/**
 * The placeholders of a server config, filled in: `${env:NAME}` (VS Code), `${NAME}` and
 * `${NAME:-default}` (Claude Code) from the environment, and the predefined variables the host
 * gives (`${workspaceFolder}`, `${userHome}`). VS Code's `${input:id}` is asked of the person by
 * VS Code itself: no other host can fill it, and the server that names one is refused, saying so.
 *
 * A project's config (one that comes with a folder, which a clone may bring) reads only the
 * variables its server lists in its own `env` block (`"env": { "GITHUB_TOKEN":
 * "${GITHUB_TOKEN}" }`: the name the server is given is the name read, in plain sight) and those
 * the host allows; a URL or header of such a config reads nothing else, so that a folder cannot
 * send `${AWS_SECRET_ACCESS_KEY}` to a server of its choosing.
 */
import { excerpt } from "../util/text.js";

export interface Variables {
  /** Where `${NAME}` is looked up. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Names a project's server may read; undefined: any (the user's own config). */
  readonly readable: ReadonlySet<string> | undefined;
  /** `${workspaceFolder}`, `${userHome}`, … as the host defines them. */
  readonly predefined: Readonly<Record<string, string>>;
  /** The descriptions of VS Code's `inputs`, by id, to say what a `${input:…}` asks for. */
  readonly inputs: ReadonlyMap<string, string>;
}

/** A placeholder that cannot be filled: what the field's error says after the field's name. */
export class Unfilled extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The value with its placeholders filled; throws `Unfilled` for the first that cannot be. */
export function fill(value: string, vars: Variables): string {
  return value.replace(PLACEHOLDER, (_match, inner: string) => fillOne(inner, vars));
}

function fillOne(inner: string, vars: Variables): string {
  if (inner.startsWith("input:")) {
    const id = inner.slice(6);
    const description = vars.inputs.get(id);
    throw new Unfilled(`names \${input:${excerpt(id, 60)}}${description === undefined ? "" : ` (${excerpt(description, 100)})`}, an input only VS Code can ask for; name an environment variable instead (\${env:NAME})`);
  }
  const body = inner.startsWith("env:") ? inner.slice(4) : inner;
  const dash = body.indexOf(":-");
  const name = dash < 0 ? body : body.slice(0, dash);
  const fallback = dash < 0 ? undefined : body.slice(dash + 2);
  if (!NAME.test(name)) throw new Unfilled(`names \${${excerpt(inner, 60)}}, which is not a placeholder this reader fills (\${env:NAME}, \${NAME}, \${NAME:-default})`);
  if (!inner.startsWith("env:") && Object.hasOwn(vars.predefined, name)) return vars.predefined[name]!;
  if (vars.readable !== undefined && !vars.readable.has(name)) {
    throw new Unfilled(`names the environment variable ${name}, which a project's config may read only when the server lists it in its "env" or the host allows it`);
  }
  const found = Object.hasOwn(vars.env, name) ? vars.env[name] : undefined;
  if (found !== undefined) return found;
  if (fallback !== undefined) return fallback;
  throw new Unfilled(`names the environment variable ${name}, which is not set`);
}
