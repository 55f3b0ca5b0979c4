// Safe text (src/util/sanitize.ts) and the log entry sanitiser built on it (src/input/logs.ts):
// what a server wrote must not rewrite a terminal, hide its direction or flood a log.
import { describe, expect, it } from "vitest";
import { MAX_DEPTH, MAX_TEXT, safeText, safeValue } from "../../src/util/sanitize.js";
import { sanitizeLog } from "../../src/input/notifications.js";
import { LOGGING_LEVELS } from "../../src/protocol/types/index.js";

const ch = (code: number): string => String.fromCharCode(code);
const hex = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;

/** `depth` objects nested under "a", the innermost holding `leaf`. */
function nest(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("safeText", () => {
  it("returns plain text unchanged, non-ASCII letters and emoji included", () => {
    expect(safeText("hello, world")).toBe("hello, world");
    expect(safeText("Grüße — 你好 😀")).toBe("Grüße — 你好 😀");
    expect(safeText("")).toBe("");
  });

  it("removes ANSI CSI sequences (colours, cursor moves, screen clears)", () => {
    expect(safeText("\u001b[31mred\u001b[0m")).toBe("red");
    expect(safeText("a\u001b[2Jb\u001b[1;1Hc")).toBe("abc");
    expect(safeText("\u001b[38;5;196mx")).toBe("x");
  });

  it("removes OSC sequences ended by BEL or by ESC \\ (window titles, hyperlinks)", () => {
    expect(safeText("\u001b]0;pwned\u0007text")).toBe("text");
    expect(safeText("\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\")).toBe("link");
  });

  it("removes a lone ESC and the two-character escape it starts", () => {
    expect(safeText("a\u001bMb")).toBe("ab");
    expect(safeText("a\u001b")).toBe("a");
  });

  it("removes every C0 control, DEL and every C1 control except the line-like ones", () => {
    const whitespace = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x85]);
    for (let code = 0; code <= 0x9f; code++) {
      if (code >= 0x20 && code < 0x7f) continue;
      if (code === 0x1b) continue; // ESC starts a sequence: covered above
      const expected = whitespace.has(code) ? "a b" : "ab";
      expect(safeText(`a${ch(code)}b`), hex(code)).toBe(expected);
    }
  });

  it("turns tab, CR, LF, VT, FF and NEL into spaces", () => {
    expect(safeText("a\tb\r\nc\vd\fe\u0085f")).toBe("a b  c d e f");
  });

  it("removes the bidirectional controls", () => {
    const bidi = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const code of bidi) expect(safeText(`a${ch(code)}b`), hex(code)).toBe("ab");
    // The classic "Trojan Source" filename trick.
    expect(safeText("invoice\u202Egpj.exe")).toBe("invoicegpj.exe");
  });

  it("removes zero-width and invisible format characters", () => {
    for (const code of [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]) expect(safeText(`a${ch(code)}b`), hex(code)).toBe("ab");
  });

  it("removes the other invisible format characters and the tag characters (U+E0000–U+E007F)", () => {
    for (const code of [0x180e, 0x2061, 0x2062, 0x2063, 0x2064, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfff9, 0xfffa, 0xfffb]) {
      expect(safeText(`a${ch(code)}b`), hex(code)).toBe("ab");
    }
    for (let code = 0xe0000; code <= 0xe007f; code++) expect(safeText(`a${String.fromCodePoint(code)}b`), code.toString(16)).toBe("ab");
    // Astral neighbours stay whole: an emoji, and the astral code points past the selectors.
    expect(safeText("a😀\u{e01f0}b")).toBe("a😀\u{e01f0}b");
  });

  it("removes the variation selectors supplement, the Hangul fillers, the soft hyphen and U+034F, and keeps emoji selectors", () => {
    for (let code = 0xe0100; code <= 0xe01ef; code++) expect(safeText(`a${String.fromCodePoint(code)}b`), code.toString(16)).toBe("ab");
    for (const code of [0x00ad, 0x034f, 0x115f, 0x1160, 0x3164, 0xffa0]) expect(safeText(`a${ch(code)}b`), hex(code)).toBe("ab");
    // U+FE0F makes the heart red: emoji need it.
    expect(safeText("\u2764\ufe0f")).toBe("\u2764\ufe0f");
  });

  it("leaves no line or paragraph separator (U+2028, U+2029): they become spaces", () => {
    expect(safeText("a\u2028b\u2029c")).toBe("a b c");
  });

  it("keeps the printable neighbours of the removed ranges", () => {
    for (const code of [0x00a0, 0x061b, 0x200a, 0x2010, 0x2027, 0x202f, 0x205f, 0xff01]) {
      expect(safeText(`a${ch(code)}b`), hex(code)).toBe(`a${ch(code)}b`);
    }
  });

  it("keeps strings of exactly MAX_TEXT (4096) characters and cuts longer ones to 4096 with an ellipsis", () => {
    expect(MAX_TEXT).toBe(4096);
    const exact = "x".repeat(4096);
    expect(safeText(exact)).toBe(exact);
    const over = safeText("x".repeat(4097));
    expect(over).toHaveLength(4096);
    expect(over).toBe(`${"x".repeat(4095)}…`);
    expect(safeText("y".repeat(100_000))).toHaveLength(4096);
  });

  it("clamps to the given maximum", () => {
    expect(safeText("abcdef", 4)).toBe("abc…");
    expect(safeText("abcd", 4)).toBe("abcd");
  });

  it("clamps after cleaning, so removed characters do not count", () => {
    const text = `${"x".repeat(4096)}${"\u200b".repeat(50)}`;
    expect(safeText(text)).toBe("x".repeat(4096));
  });

  // Regression: the clamp counts UTF-16 code units, and a cut inside a surrogate pair once left a
  // lone high surrogate before the ellipsis.
  it("never splits a surrogate pair when it clamps", () => {
    const clamped = safeText(`${"a".repeat(4094)}😀b`);
    expect(clamped.length).toBeLessThanOrEqual(4096);
    expect(clamped.endsWith("…")).toBe(true);
    expect(LONE_SURROGATE.test(clamped)).toBe(false);
  });
});

describe("safeValue", () => {
  it("cleans strings and keeps numbers, booleans and null", () => {
    expect(safeValue("a\u001b[31mb")).toBe("ab");
    expect(safeValue(42)).toBe(42);
    expect(safeValue(-1.5)).toBe(-1.5);
    expect(safeValue(true)).toBe(true);
    expect(safeValue(false)).toBe(false);
    expect(safeValue(null)).toBe(null);
  });

  it("turns what is not JSON into null", () => {
    expect(safeValue(undefined)).toBe(null);
    expect(safeValue(() => 1)).toBe(null);
    expect(safeValue(10n)).toBe(null);
    expect(safeValue(Symbol("s"))).toBe(null);
  });

  it("cleans every string in arrays and objects, object keys included, without touching the input", () => {
    const input = {
      "na\u202eme": "bob\u0007",
      "list\u200b": ["a\nb", 1, { "k\u001b[1m": "v\u2066" }],
    };
    const copy = structuredClone(input);
    expect(safeValue(input)).toEqual({ name: "bob", list: ["a b", 1, { k: "v" }] });
    expect(input).toEqual(copy);
  });

  it("clamps strings and keys inside values to 4096 characters", () => {
    const long = "z".repeat(5000);
    const out = safeValue({ [long]: [long] }) as Record<string, string[]>;
    const [key] = Object.keys(out);
    expect(key).toBe(`${"z".repeat(4095)}…`);
    expect(out[key!]).toEqual([`${"z".repeat(4095)}…`]);
  });

  it("keeps 16 levels of nesting and cuts what lies below", () => {
    expect(MAX_DEPTH).toBe(16);
    expect(safeValue(nest(16, "leaf"))).toEqual(nest(16, "leaf"));
    expect(safeValue(nest(16, { b: 1 }))).toEqual(nest(16, "[…]"));
    expect(safeValue(nest(17, "leaf"))).toEqual(nest(16, "[…]"));
    expect(safeValue(nest(40, "leaf"))).toEqual(nest(16, "[…]"));
  });

  it("counts arrays as levels too", () => {
    let value: unknown = "leaf";
    for (let i = 0; i < 17; i++) value = [value];
    let expected: unknown = "[…]";
    for (let i = 0; i < 16; i++) expected = [expected];
    expect(safeValue(value)).toEqual(expected);
  });

  // Regression: assigning a "__proto__" key to a plain `{}` calls the prototype setter, so a
  // server's `{"__proto__": {...}}` (an own member after JSON.parse) once became the copy's
  // prototype: the member was lost and its fields showed through.
  it("keeps a __proto__ member of server data as an own member, not as the prototype", () => {
    const data: unknown = JSON.parse('{"__proto__":{"polluted":1},"a":2}');
    const out = safeValue(data) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect("polluted" in out).toBe(false);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":1},"a":2}');
  });

  it("terminates on a cyclic object", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const out = safeValue(cyclic) as Record<string, unknown>;
    expect(out.name).toBe("loop");
    expect(JSON.stringify(out)).toContain('"[…]"');
  });
});

describe("sanitizeLog", () => {
  it("keeps only level, logger and data", () => {
    const entry = sanitizeLog({ level: "error", logger: "db", data: { query: "select 1" }, _meta: { x: 1 }, extra: "dropped" });
    expect(entry).toEqual({ level: "error", logger: "db", data: { query: "select 1" } });
    expect(Object.keys(entry).sort()).toEqual(["data", "level", "logger"]);
  });

  it("keeps each RFC 5424 level", () => {
    expect(LOGGING_LEVELS).toEqual(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);
    for (const level of LOGGING_LEVELS) expect(sanitizeLog({ level, data: "x" }).level).toBe(level);
  });

  it('reads a level outside the set as "info"', () => {
    for (const level of ["verbose", "ERROR", "warn", "fatal", "", 3, null, undefined, { level: "error" }]) {
      expect(sanitizeLog({ level, data: "x" }).level, JSON.stringify(level) ?? "undefined").toBe("info");
    }
  });

  it("sanitises every string in data, clamps it to 4096 and cuts deep nesting", () => {
    const entry = sanitizeLog({
      level: "info",
      data: { "msg\u202e": "\u001b[2Jwiped\r\nscreen", long: "q".repeat(5000), deep: nest(20, 1) },
    });
    expect(entry.data).toEqual({ msg: "wiped  screen", long: `${"q".repeat(4095)}…`, deep: nest(15, "[…]") });
  });

  it("sanitises the logger name and clamps it to 256 characters", () => {
    expect(sanitizeLog({ level: "info", logger: "db\u001b[31m\u200b", data: 1 }).logger).toBe("db");
    expect(sanitizeLog({ level: "info", logger: "l".repeat(300), data: 1 }).logger).toBe(`${"l".repeat(255)}…`);
  });

  it("drops a logger that is not a string", () => {
    const entry = sanitizeLog({ level: "info", logger: 7, data: 1 });
    expect(entry).toEqual({ level: "info", data: 1 });
    expect("logger" in entry).toBe(false);
  });

  it("gives data null when the server sent none", () => {
    expect(sanitizeLog({ level: "debug" })).toEqual({ level: "debug", data: null });
  });
});
