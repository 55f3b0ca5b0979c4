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

/**
 * `JSON.stringify(message)`, faster for a request as the peer makes it (`jsonrpc`, a whole-number
 * `id`, `method`, `params`, in that order) and for a message whose `params._meta` was registered.
 *
 * A request's fixed keys are written from a template: V8's stringifier spends about 200
 * instructions on each string it writes, key or value, so the four keys, `"2.0"` and the method
 * cost more than the params of a small call; only the params go through `JSON.stringify`.
 */
export function messageText(message: object): string {
  const fields = message as Record<string, unknown>;
  const params = fields.params;
  // A toJSON decides what is written in its place: only JSON.stringify knows what it answers.
  if (!isObject(params) || typeof params.toJSON === "function" || typeof fields.toJSON === "function") return JSON.stringify(message);
  if (isPeerRequest(fields)) {
    return `{"jsonrpc":"2.0","id":${fields.id as number},"method":${methodText(fields.method as string)},"params":${paramsText(params)}}`;
  }
  const meta = params._meta;
  const text = isObject(meta) ? texts.get(meta) : undefined;
  if (text === undefined || !lastKeys(fields, "params", params, "_meta")) return JSON.stringify(message);
  // Its text is put where the `_meta` was, the last key of the last key.
  const head = withoutMeta(message, params, meta);
  // `…"params":{…}}`: the params object closes one character before the message does.
  const empty = head.endsWith('"params":{}}');
  return `${head.slice(0, -2)}${empty ? "" : ","}"_meta":${text}}}`;
}

const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"];

/**
 * The keys are exactly the peer's, in its order (a `for…in` also lists inherited enumerable keys,
 * which `JSON.stringify` leaves out: such a message takes the plain path), with values whose text
 * the template writes as `JSON.stringify` would.
 */
function isPeerRequest(fields: Record<string, unknown>): boolean {
  if (fields.jsonrpc !== "2.0" || typeof fields.method !== "string" || !Number.isSafeInteger(fields.id)) return false;
  let count = 0;
  for (const key in fields) if (key !== REQUEST_KEYS[count++]) return false;
  return count === REQUEST_KEYS.length;
}

/** The params' text, the registered `_meta` spliced in when it is their last key. */
function paramsText(params: Record<string, unknown>): string {
  const meta = params._meta;
  const text = isObject(meta) ? texts.get(meta) : undefined;
  if (text === undefined || !lastKey(params, "_meta") || Object.isFrozen(params)) return plainText(params);
  const repeated = laterLegText(params, text);
  if (repeated !== undefined) return repeated;
  const head = withoutMeta(params, params, meta);
  if (Object.hasOwn(params, OWN_TEXT)) (params as Record<symbol, unknown>)[OWN_TEXT] = head;
  return head === "{}" ? `{"_meta":${text}}` : `${head.slice(0, -1)},"_meta":${text}}`;
}

/**
 * Where a request's params (the envelope's own copy) keep the text of their keys but `_meta`,
 * once written: a later MRTR leg of the same call repeats it rather than serialising the call's
 * arguments again. A symbol: no JSON, `for…in` or `Object.keys` sees it.
 */
const OWN_TEXT = Symbol("conduit.ownText");
/** Where a later leg's params say whose text they repeat; `of` is the params it was made for (a spread copy carries the record, not the claim). */
const REPEATS = Symbol("conduit.repeats");

interface Repeats {
  readonly of: object;
  readonly text: string;
}

/**
 * A new object for params whose text is to be kept when written (a call's first leg): the slot is
 * its first property, so that every such object has one shape from the start, and params without
 * it (every other request) keep nothing.
 */
export function textSlot(): Record<string, unknown> {
  return { [OWN_TEXT]: undefined };
}

/**
 * Marks `later`, the params of a later MRTR leg, as `first`'s keys (the params of the call's
 * first leg, as that leg wrote them) followed by `inputResponses`, `requestState` and `_meta`,
 * in that order: its text is then the first leg's text with the answers after it. Nothing is
 * marked when the first leg's text was not kept (it was written another way).
 */
export function repeatFirstLeg(later: Record<string, unknown>, first: object): void {
  const text = (first as Record<symbol, unknown>)[OWN_TEXT];
  if (typeof text === "string") (later as Record<symbol, unknown>)[REPEATS] = { of: later, text } satisfies Repeats;
}

/** The text of a later leg's params marked by `repeatFirstLeg`, or undefined to write them afresh. */
function laterLegText(params: Record<string, unknown>, metaText: string): string | undefined {
  const repeats = (params as Record<symbol, unknown>)[REPEATS] as Repeats | undefined;
  if (repeats === undefined || repeats.of !== params) return undefined;
  const responses = valueText(params.inputResponses);
  const state = valueText(params.requestState);
  if (responses === null || state === null) return undefined;
  // The first leg's text without its closing brace, each key after it followed by a comma.
  let text = repeats.text === "{}" ? "{" : `${repeats.text.slice(0, -1)},`;
  if (responses !== undefined) text += `"inputResponses":${responses},`;
  if (state !== undefined) text += `"requestState":${state},`;
  return `${text}"_meta":${metaText}}`;
}

/**
 * A value's text as a key of an object would have it: undefined when the key is left out, null
 * when only `JSON.stringify` of the whole can say (a toJSON is told its key; alone it would not be).
 */
function valueText(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  if (((typeof value === "object" && value !== null) || typeof value === "bigint") && typeof (value as { toJSON?: unknown }).toJSON === "function") return null;
  // Undefined for a function or a symbol, whose key JSON leaves out.
  return JSON.stringify(value);
}

/**
 * `JSON.stringify(value)` with `params._meta` left out (undefined is), then put back: the
 * params are the envelope's own copy (Envelope.wrap), and the registered text goes in its place.
 */
function withoutMeta(value: object, params: Record<string, unknown>, meta: unknown): string {
  params._meta = undefined;
  try {
    return value === params ? plainText(params) : JSON.stringify(value);
  } finally {
    params._meta = meta;
  }
}

/**
 * `JSON.stringify(params)`, with a call's usual params (`name` and `arguments`, and a `_meta`
 * left out) written from a template: the tool's name is text kept as a method's is, and only
 * the arguments go through the stringifier. The keys are read as JSON reads them (own,
 * enumerable, in order: `Object.keys`), and each value once: params of that shape whose values
 * the template cannot write (a name not a string; arguments left out, or with a `toJSON`, which
 * a whole stringify tells its key) are written by `JSON.stringify` from the values read, not
 * read again (a getter may answer differently the second time). Any other shape is left to
 * `JSON.stringify` whole.
 */
function plainText(params: Record<string, unknown>): string {
  if (isCallShaped(params, true)) {
    const name = params.name;
    const args = params.arguments;
    const argsText = typeof name === "string" ? valueText(args) : null;
    if (typeof argsText === "string") return `{"name":${nameText(name as string)},"arguments":${argsText}}`;
    return JSON.stringify({ name, arguments: args });
  }
  return JSON.stringify(params);
}

/**
 * Whether `params`' own enumerable keys (those a spread copies and JSON writes, in their order)
 * are `name` and `arguments`: a call's usual params. With `undefinedMeta`, also when a `_meta`
 * follows them that is undefined (JSON leaves it out; a copy would keep its place, ahead of any
 * key added after it, so a copy asks without).
 */
export function isCallShaped(params: Record<string, unknown> | undefined, undefinedMeta = false): params is Record<string, unknown> {
  if (params === undefined) return false;
  const keys = Object.keys(params);
  const count = keys.length;
  return (count === 2 || (undefinedMeta && count === 3 && keys[2] === "_meta" && params._meta === undefined)) && keys[0] === "name" && keys[1] === "arguments";
}

/**
 * The JSON text of the methods requests name (a few per connection) and of the tools calls name
 * (a host calls the same ones again and again), kept: writing one is a string's cost. Bounded in
 * count and in length, since a server names its tools as it likes and these maps live as long as
 * the process: the first 256 of each, of at most 128 characters.
 */
const methodTexts = new Map<string, string>();
const nameTexts = new Map<string, string>();
const MAX_KEPT_TEXTS = 256;
const MAX_KEPT_LENGTH = 128;

function methodText(method: string): string {
  return keptText(methodTexts, method);
}

function nameText(name: string): string {
  return keptText(nameTexts, name);
}

function keptText(kept: Map<string, string>, value: string): string {
  let text = kept.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (kept.size < MAX_KEPT_TEXTS && value.length <= MAX_KEPT_LENGTH) kept.set(value, text);
  }
  return text;
}

/** @internal For the test of the bounds: how many texts are kept, and their characters. */
export function keptTexts(): { count: number; characters: number } {
  let count = 0;
  let characters = 0;
  for (const kept of [methodTexts, nameTexts]) {
    for (const [value, text] of kept) {
      count += 1;
      characters += value.length + text.length;
    }
  }
  return { count, characters };
}

/** Whether `key` is the last key of `outer` and `innerKey` the last key of `inner` (its value). */
function lastKeys(outer: Record<string, unknown>, key: string, inner: Record<string, unknown>, innerKey: string): boolean {
  return lastKey(outer, key) && lastKey(inner, innerKey) && !Object.isFrozen(inner);
}

/** Whether `key` is `object`'s own last key. */
function lastKey(object: Record<string, unknown>, key: string): boolean {
  let last: string | undefined;
  for (const k in object) last = k;
  return last === key && Object.hasOwn(object, key);
}

/** Freezes `value` and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
