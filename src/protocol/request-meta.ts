/**
 * A caller's own `_meta` keys on one request (basic/index, "_meta"): checked before anything is
 * sent, because what a host adds travels on every leg of the call and may reach a server's logs.
 *
 * - an object of JSON values, at most 64 keys and 16 KiB of JSON: `_meta` rides in every MRTR
 *   retry and every parked PendingInput, so its size is paid many times;
 * - key names as the spec writes them (an optional `prefix/`, a name that begins and ends with a
 *   letter or digit);
 * - never a key the protocol reserves: a prefix with a `modelcontextprotocol` or `mcp` label is
 *   the spec's, and `progressToken` is the client's own. Such a key is refused, not dropped: a
 *   host that meant to set one should hear it cannot.
 */
import { isObject } from "../util/json.js";
import { copyOwn, withField } from "../util/sanitize.js";
import { measureJson } from "../util/json-measure.js";
import { InvalidArgumentError } from "../util/errors.js";
import { quote } from "../util/text.js";
import { utf8Length } from "../util/bytes.js";

export const MAX_META_KEYS = 64;
export const MAX_META_BYTES = 16 * 1024;

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;
const RESERVED_LABELS: ReadonlySet<string> = new Set(["modelcontextprotocol", "mcp"]);

export type RequestMeta = Readonly<Record<string, unknown>>;

/**
 * What each checked `meta` was when it was checked, as plain JSON: what is sent. A getter or a
 * Proxy read twice (once by the check, once by the copy) could otherwise send what was never
 * checked. Keyed by the caller's object, so a host that reuses one `meta` is checked each call.
 */
const snapshots = new WeakMap<object, RequestMeta>();

export function checkRequestMeta(meta: unknown): asserts meta is RequestMeta {
  try {
    checkReadable(meta);
    // The bounded walk above came first (a sparse array of 10^9 is refused, never written out);
    // what is sent is the text written once after it, checked again as plain JSON.
    const text = JSON.stringify(meta);
    if (typeof text !== "string" || (text.length > MAX_META_BYTES / 3 && utf8Length(text) > MAX_META_BYTES)) throw new InvalidArgumentError(`meta is more than ${MAX_META_BYTES} bytes of JSON`);
    const snapshot: unknown = JSON.parse(text);
    checkReadable(snapshot);
    snapshots.set(meta as object, snapshot as RequestMeta);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    // A Proxy or a getter that throws: the caller's object cannot be read, which is its fault.
    throw new InvalidArgumentError(`meta could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function checkReadable(meta: unknown): void {
  if (!isObject(meta) || Array.isArray(meta)) throw new InvalidArgumentError("meta must be an object of _meta keys");
  const keys = Object.keys(meta);
  if (keys.length > MAX_META_KEYS) throw new InvalidArgumentError(`meta has ${keys.length} keys; at most ${MAX_META_KEYS}`);
  for (const key of keys) checkKey(key);
  const measured = measureJson(meta, MAX_META_BYTES, 32);
  if (!measured.ok) {
    const why = measured.reason === "too-large" ? `more than ${MAX_META_BYTES} bytes of JSON` : measured.reason === "too-deep" ? "nested too deep" : "not JSON";
    throw new InvalidArgumentError(`meta is ${why}`);
  }
}

function checkKey(key: string): void {
  if (key === "progressToken") throw new InvalidArgumentError("meta may not set progressToken: the client sets it when a call asks for progress");
  const slash = key.lastIndexOf("/");
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (!NAME.test(name)) throw new InvalidArgumentError(`not a _meta key name: ${quote(key)}`);
  if (slash === -1) return;
  const labels = key.slice(0, slash).split(".");
  if (!labels.every((label) => LABEL.test(label))) throw new InvalidArgumentError(`not a _meta key prefix: ${quote(key)}`);
  if (labels.some((label) => RESERVED_LABELS.has(label.toLowerCase()))) {
    throw new InvalidArgumentError(`meta may not set ${quote(key)}: prefixes with a "modelcontextprotocol" or "mcp" label are reserved for the protocol`);
  }
}

/** `params` with `meta`'s keys added to its `_meta`; the keys the client adds later win over them. */
export function withRequestMeta(params: Record<string, unknown> | undefined, meta: RequestMeta | undefined): Record<string, unknown> | undefined {
  if (meta === undefined) return params;
  const own = snapshots.get(meta) ?? meta;
  const given = params?._meta;
  // Copied by hand, not spread (see `withField`): a host that sends `meta` sends it on every call.
  const merged = copyOwn(own, {});
  return withField(params, "_meta", isObject(given) ? copyOwn(given, merged) : merged);
}
