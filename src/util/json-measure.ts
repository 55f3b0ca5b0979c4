/**
 * Is a value that did not arrive as text (a view's `postMessage`, a host's own transport handing
 * over objects) a JSON value within bounds, and how many bytes is its JSON? Such a value may hold
 * what JSON has no form for (a Map, a Date, a typed array, a cycle), and serialising it to
 * measure it would cost what the bound is there to spare. So the value is walked once, counting
 * the UTF-8 bytes `JSON.stringify` would write, and the walk stops as soon as a bound is crossed:
 * the cost of a refusal is the bound, never the size of what was sent.
 */

export type JsonMeasure =
  | { ok: true; bytes: number }
  | { ok: false; reason: "too-large" | "too-deep" | "not-json" };

class Exceeded {
  constructor(readonly reason: "too-large" | "too-deep" | "not-json") {}
}

/** Measures `value` against `maxBytes` (its JSON in UTF-8) and `maxDepth` (arrays and objects nested). */
export function measureJson(value: unknown, maxBytes: number, maxDepth: number): JsonMeasure {
  const walk = new Walk(maxBytes, maxDepth);
  try {
    walk.value(value, 0, false);
  } catch (error) {
    // A getter or a proxy that throws is not JSON either.
    return { ok: false, reason: error instanceof Exceeded ? error.reason : "not-json" };
  }
  return { ok: true, bytes: walk.bytes };
}

class Walk {
  bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxDepth: number,
  ) {}

  private add(count: number): void {
    this.bytes += count;
    if (this.bytes > this.maxBytes) throw new Exceeded("too-large");
  }

  /** `inArray`: `undefined` is written `null` there (and dropped from an object, by the caller). */
  value(value: unknown, depth: number, inArray: boolean): void {
    switch (typeof value) {
      case "string":
        return this.string(value);
      case "number":
        return this.add(Number.isFinite(value) ? String(value).length : 4);
      case "boolean":
        return this.add(value ? 4 : 5);
      case "undefined":
        if (inArray) return this.add(4);
        throw new Exceeded("not-json");
      case "object":
        if (value === null) return this.add(4);
        if (depth >= this.maxDepth) throw new Exceeded("too-deep");
        if (Array.isArray(value)) return this.array(value, depth);
        return this.object(value, depth);
      default:
        // Functions, symbols and bigints have no JSON (a bigint makes JSON.stringify throw).
        throw new Exceeded("not-json");
    }
  }

  private array(items: unknown[], depth: number): void {
    // Every item takes at least one byte: a huge array is refused before its walk.
    if (items.length > this.maxBytes - this.bytes) throw new Exceeded("too-large");
    this.add(2);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.add(1);
      this.value(items[i], depth + 1, true);
    }
  }

  private object(value: object, depth: number): void {
    const prototype = Object.getPrototypeOf(value) as unknown;
    // Only plain objects: a Date, a Map or a class instance is not a JSON-RPC message.
    if (prototype !== Object.prototype && prototype !== null) throw new Exceeded("not-json");
    this.add(2);
    let first = true;
    const record = value as Record<string, unknown>;
    // for…in stops where the bound is crossed; Object.keys would list a million keys first.
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      // JSON drops members whose value is undefined.
      if (item === undefined) continue;
      if (!first) this.add(1);
      first = false;
      this.string(key);
      this.add(1);
      this.value(item, depth + 1, false);
    }
  }

  private string(text: string): void {
    // Each code unit is at least one byte: a string longer than what is left is refused unread.
    if (text.length + 2 > this.maxBytes - this.bytes) throw new Exceeded("too-large");
    let bytes = 2;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20) bytes += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
      else if (code === 0x22 || code === 0x5c) bytes += 2;
      else if (code < 0x80) bytes += 1;
      else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 4;
        i += 1;
      } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6; // a lone surrogate is written \uXXXX
      else bytes += 3;
    }
    this.add(bytes);
  }
}
