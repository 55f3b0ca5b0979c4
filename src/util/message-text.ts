/**
 * A message's JSON text, with what every request of a connection repeats written once.
 *
 * In 2026-07-28 every request carries the same `_meta` envelope (version, identity,
 * capabilities): serialising it per request was a fifth of a small request's cost. An object
 * registered here (`encodeOnce`) is frozen and serialised once; a message whose params' last key
 * holds it gets that text spliced in, byte for byte what `JSON.stringify` would have written. A
 * caller's own `_meta` keys beside it (`joinedOnce`) are written once per request, before the
 * envelope's text; that object is frozen at its top level (its values are the caller's).
 */
import { isObject } from "./json.js";
import { copyOwn } from "./sanitize.js";

const texts = new WeakMap<object, string>();

/** Freezes `value` for good (deeply: nothing in it may change after its text is taken) and keeps its JSON text. */
export function encodeOnce<T extends object>(value: T): Readonly<T> {
  const frozen = deepFreeze(JSON.parse(JSON.stringify(value)) as T);
  texts.set(frozen, JSON.stringify(frozen));
  return frozen;
}

/**
 * `{ ...own, ...shared }`, frozen, with its text made of `own`'s and the registered `shared`'s,
 * for a request whose caller (a host's `meta`, a trace context) adds keys to the envelope: the
 * envelope is still written once. Undefined when `shared` is not registered or `own` has one of
 * its keys (then the spread decides where that key goes, and plain `JSON.stringify` is used).
 * `own`'s values are read once, into the copy whose text is taken: what is sent is the call's
 * `_meta` as it was when the call began.
 */
export function joinedOnce(own: Readonly<Record<string, unknown>>, shared: object): Readonly<Record<string, unknown>> | undefined {
  const sharedText = texts.get(shared);
  if (sharedText === undefined) return undefined;
  for (const key of Object.keys(shared)) if (Object.hasOwn(own, key)) return undefined;
  const joined = copyOwn(own, {});
  // A toJSON would be called on the joined object, and may answer anything: stringify decides.
  if (typeof joined.toJSON === "function") return undefined;
  let ownText: unknown;
  try {
    ownText = JSON.stringify(joined);
  } catch {
    // Not JSON (a BigInt, a cycle): the transport's serialising says so, as for any params.
    return undefined;
  }
  if (typeof ownText !== "string" || !ownText.startsWith("{")) return undefined;
  copyOwn(shared, joined);
  texts.set(Object.freeze(joined), ownText === "{}" ? sharedText : `${ownText.slice(0, -1)},${sharedText.slice(1)}`);
  return joined;
}

/** `JSON.stringify(message)`, faster for a request or notification whose `params._meta` was registered. */
export function messageText(message: object): string {
  const params = (message as { params?: unknown }).params;
  if (!isObject(params)) return JSON.stringify(message);
  const meta = params._meta;
  const text = isObject(meta) ? texts.get(meta) : undefined;
  if (text === undefined || !lastKeys(message, "params", params, "_meta")) return JSON.stringify(message);
  // The params are the envelope's own copy (Envelope.wrap): their `_meta` is left out of the
  // stringify (undefined is) and its text put where it was, the last key of the last key.
  params._meta = undefined;
  let head: string;
  try {
    head = JSON.stringify(message);
  } finally {
    params._meta = meta;
  }
  // `…"params":{…}}`: the params object closes one character before the message does.
  const empty = head.endsWith('"params":{}}');
  return `${head.slice(0, -2)}${empty ? "" : ","}"_meta":${text}}}`;
}

/** Whether `key` is the last key of `outer` and `innerKey` the last key of `inner` (its value). */
function lastKeys(outer: object, key: string, inner: Record<string, unknown>, innerKey: string): boolean {
  let last: string | undefined;
  for (const k in outer) last = k;
  if (last !== key) return false;
  for (const k in inner) last = k;
  return last === innerKey && Object.hasOwn(inner, innerKey) && !Object.isFrozen(inner);
}

/** Freezes `value` and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
