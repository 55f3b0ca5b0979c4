/**
 * The `extensions` client option, checked: the extensions the host declares to every server, by
 * id, each with its settings object (2026-07-28 basic/index "Extensions"; the MCP Apps extension
 * `io.modelcontextprotocol/ui` is one). What is declared is sent in `initialize` (legacy) and in
 * every request's `_meta` (2026-07-28), so it must be JSON and small: it is checked here, once,
 * and kept as a frozen copy that nothing the host changes later can reach.
 *
 * An id follows the spec's rules for `_meta` keys with a mandatory prefix: `vendor/name`, the
 * vendor dot-separated labels (a reversed domain such as `com.example`) that start with a letter
 * and end with a letter or digit, the name alphanumeric at both ends with `-`, `_` or `.` inside.
 */
import { InvalidArgumentError } from "./util/errors.js";
import { TASKS_EXTENSION } from "./protocol/versions.js";
import type { JsonObject } from "./protocol/types/index.js";
import { deepFreeze } from "./util/message-text.js";

export type DeclaredExtensions = Readonly<Record<string, JsonObject>>;

/** At most this many extensions; an id at most this long. */
export const MAX_EXTENSIONS = 64;
export const MAX_EXTENSION_ID_LENGTH = 256;
/** The JSON text of every settings object together, in characters: it rides on every modern request. */
export const MAX_EXTENSIONS_JSON = 16 * 1024;
/** How deeply a settings object may nest, and how many values it may hold in all. */
const MAX_DEPTH = 32;
const MAX_VALUES = 4096;

const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);

export const NO_EXTENSIONS: DeclaredExtensions = Object.freeze({});

const what = "Client option `extensions`";

/** The option checked and copied; `NO_EXTENSIONS` when absent or empty. */
export function checkExtensions(value: unknown): DeclaredExtensions {
  if (value === undefined) return NO_EXTENSIONS;
  if (!isPlainObject(value)) throw new InvalidArgumentError(`${what} must be an object from extension id to settings object`);
  const ids = Object.keys(value);
  if (ids.length > MAX_EXTENSIONS) throw new InvalidArgumentError(`${what} names ${ids.length} extensions, over the bound of ${MAX_EXTENSIONS}`);
  if (ids.length === 0) return NO_EXTENSIONS;
  const budget = { values: MAX_VALUES };
  for (const id of ids) {
    checkId(id);
    const settings = value[id];
    if (!isPlainObject(settings)) throw new InvalidArgumentError(`${what}: the settings of "${id}" must be an object ({} for none)`);
    checkJson(settings, `"${id}"`, 1, budget);
  }
  const text = JSON.stringify(value);
  if (text.length > MAX_EXTENSIONS_JSON) throw new InvalidArgumentError(`${what} is ${text.length} characters of JSON, over the bound of ${MAX_EXTENSIONS_JSON}`);
  return deepFreeze(JSON.parse(text) as Record<string, JsonObject>);
}

function checkId(id: string): void {
  const shown = JSON.stringify(id.length > 80 ? `${id.slice(0, 79)}…` : id);
  if (id.length > MAX_EXTENSION_ID_LENGTH) throw new InvalidArgumentError(`${what}: the id ${shown} is longer than ${MAX_EXTENSION_ID_LENGTH} characters`);
  if (!EXTENSION_ID.test(id)) throw new InvalidArgumentError(`${what}: ${shown} is not an extension id of the form vendor/name (such as "com.example/my-extension")`);
  // The client speaks the tasks extension itself, where the version has it: its declaration is the client's.
  if (id === TASKS_EXTENSION) throw new InvalidArgumentError(`${what}: "${TASKS_EXTENSION}" is declared by the client itself where the protocol version has it`);
}

/** Plain JSON only: what `JSON.stringify` would drop or change (undefined, a function, NaN, a Date) is refused. */
function checkJson(value: unknown, path: string, depth: number, budget: { values: number }): void {
  if (--budget.values < 0) throw new InvalidArgumentError(`${what} holds more than ${MAX_VALUES} values`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new InvalidArgumentError(`${what}: ${path} is ${String(value)}, which JSON cannot hold`);
    return;
  }
  if (typeof value !== "object") throw new InvalidArgumentError(`${what}: ${path} is a ${typeof value}, which JSON cannot hold`);
  if (depth > MAX_DEPTH) throw new InvalidArgumentError(`${what}: ${path} nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkJson(item, `${path}[${index}]`, depth + 1, budget));
    return;
  }
  if (!isPlainObject(value)) throw new InvalidArgumentError(`${what}: ${path} is not a plain object, array or JSON value`);
  for (const key of Object.keys(value)) checkJson(value[key], `${path}.${key}`, depth + 1, budget);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
