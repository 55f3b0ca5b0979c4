// The catalog's qualified names (src/host/tool-names.ts): valid for the model APIs, a pure
// function of (server id, tool name), and never one name for two pairs — over adversarial ids
// and names (the separator, "_" and "-" runs, unicode, lone surrogates, long strings), and for a
// Client's record of issued names under a hash that collides on purpose.
//
// `FUZZ_SEED=<seed>` replays a failed run (fast-check prints the seed and the shrunk case).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolNames, pairHash, qualifiedName, type PairHash } from "../../src/host/tool-names.js";
import { Fnv1a64 } from "../../src/util/fnv1a64.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

/** Text made of what makes splits ambiguous: separators, runs of them, and characters no API takes. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "b", "c", "_", "__", "-", "_-", "1") },
  { weight: 2, arbitrary: fc.constantFrom(".", " ", "/", "é", "ü", "😀", "\ud800", "\udfff", "\u0000", "ａ") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(40), "y_".repeat(30), "-".repeat(63)) },
);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
const serverId = text.filter((id) => id !== "");
const pair = fc.tuple(serverId, text);

describe("qualified names", () => {
  it("are valid for the model APIs, the same for the same pair, and never one for two pairs", () => {
    fc.assert(
      fc.property(pair, pair, ([id1, name1], [id2, name2]) => {
        const a = qualifiedName(id1, name1);
        expect(a).toMatch(VALID);
        expect(qualifiedName(id1, name1)).toBe(a);
        if (id1 !== id2 || name1 !== name2) expect(qualifiedName(id2, name2)).not.toBe(a);
      }),
      { numRuns: 2_000 },
    );
  });

  it("tell apart every split of one string into an id and a name", () => {
    // `a_b` + `c` and `a` + `b_c`: the same text, told apart.
    fc.assert(
      fc.property(text.filter((whole) => whole.length >= 2), fc.nat(), fc.nat(), (whole, i, j) => {
        const at = 1 + (i % (whole.length - 1));
        const other = 1 + (j % (whole.length - 1));
        fc.pre(at !== other);
        expect(qualifiedName(whole.slice(0, at), whole.slice(at))).not.toBe(qualifiedName(whole.slice(0, other), whole.slice(other)));
      }),
      { numRuns: 2_000 },
    );
    expect(qualifiedName("a_b", "c")).not.toBe(qualifiedName("a", "b_c"));
  });

  it("are no other pair's name when read back as an id and a name at any of their '_'", () => {
    // A hashed name is text too: a server named for its prefix, listing a tool named for the rest,
    // must not get the same name (it would, were a plain name allowed to hold "__").
    fc.assert(
      fc.property(pair, ([id, name]) => {
        const given = qualifiedName(id, name);
        for (let at = given.indexOf("_"); at > 0; at = given.indexOf("_", at + 1)) {
          const [otherId, otherName] = [given.slice(0, at), given.slice(at + 1)];
          if (otherId !== id || otherName !== name) expect(qualifiedName(otherId, otherName)).not.toBe(given);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("keep the readable form where it cannot be misread, and hash the rest", () => {
    expect(qualifiedName("fs", "read_file")).toBe("fs_read_file");
    expect(qualifiedName("my-server", "search-v2")).toBe("my-server_search-v2");
    // An id with "_", a name with "__" or "_" first, a character no API takes, a pair too long:
    // all end in "__" and the hash, and none is a plain name of another pair.
    for (const [id, name] of [["a_b", "c"], ["a", "b__c"], ["a", "_c"], ["a", "weird name!"], ["a", "x".repeat(63)], ["a", ""], ["😀", "t"]] as const) {
      expect(qualifiedName(id, name)).toMatch(/^[a-zA-Z0-9_-]{0,48}__[0-9a-z]{14}$/);
    }
    expect(qualifiedName("a_b", "c").startsWith("a_b_c__")).toBe(true);
    expect(qualifiedName("a", "weird name!").startsWith("a_weird_name___")).toBe(true);
  });

  it("hash the exact pair: the same text split elsewhere, or a lone surrogate for another, hashes apart", () => {
    expect(pairHash("a_b", "c", 0)).not.toBe(pairHash("a", "b_c", 0));
    // UTF-8 would make both U+FFFD; the hash reads UTF-16 code units.
    expect(pairHash("s", "\ud800", 0)).not.toBe(pairHash("s", "\udbff", 0));
    expect(pairHash("s", "t", 0)).not.toBe(pairHash("s", "t", 1));
  });
});

describe("a Client's issued names", () => {
  it("give each pair one name for life, and no name to two pairs, whatever the order of issue", () => {
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 40 }), (pairs) => {
        const names = new ToolNames();
        const given = new Map<string, string>();
        for (const [id, name] of [...pairs, ...pairs.slice().reverse()]) {
          const issued = names.issue(id, name);
          const key = JSON.stringify([id, name]);
          expect(given.get(key) ?? issued).toBe(issued);
          given.set(key, issued);
          expect(issued).toBe(qualifiedName(id, name));
          expect(names.owner(issued)).toEqual({ serverId: id, name });
        }
        expect(new Set(given.values()).size).toBe(given.size);
      }),
      { numRuns: 300 },
    );
  });

  it("give a pair whose hash another pair holds a salted one, the same each time, and never reuse it", () => {
    // A hash that collides whenever the salt is the same: every pair of one readable prefix meets.
    const colliding: PairHash = (_id, _name, salt) => `c${salt}`;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("s", "s_", "a.b"), fc.constantFrom("x y", "x!y", "x?y", "x_y ", "")), { minLength: 1, maxLength: 30 }), (pairs) => {
        const names = new ToolNames(colliding);
        const given = new Map<string, string>();
        for (const [id, name] of [...pairs, ...pairs]) {
          const issued = names.issue(id, name);
          expect(issued).toMatch(VALID);
          const key = JSON.stringify([id, name]);
          expect(given.get(key) ?? issued).toBe(issued);
          given.set(key, issued);
          expect(names.owner(issued)).toEqual({ serverId: id, name });
        }
        expect(new Set(given.values()).size).toBe(given.size);
      }),
      { numRuns: 300 },
    );
    const names = new ToolNames(colliding);
    expect(names.issue("s", "x y")).toBe("s_x_y__c0");
    expect(names.issue("s", "x!y")).toBe("s_x_y__c1");
    expect(names.issue("s", "x y")).toBe("s_x_y__c0");
  });

  it("read a plain name whether or not it was issued, and know a hashed one only once issued", () => {
    const names = new ToolNames();
    expect(names.owner("fs_read_file")).toEqual({ serverId: "fs", name: "read_file" });
    const hashed = qualifiedName("a_b", "c");
    expect(names.owner(hashed)).toBeUndefined();
    expect(names.issue("a_b", "c")).toBe(hashed);
    expect(names.owner(hashed)).toEqual({ serverId: "a_b", name: "c" });
    for (const never of ["", "fs", "_fs", "fs_", "fs read", "x".repeat(65), "fs_" + "y".repeat(62)]) expect(names.owner(never)).toBeUndefined();
  });
});

describe("FNV-1a 64", () => {
  it("gives the published values, and what a BigInt reference gives for any bytes", () => {
    const hex = (text: string) => {
      const hash = new Fnv1a64();
      for (const byte of new TextEncoder().encode(text)) hash.byte(byte);
      return hash.hex();
    };
    expect([hex(""), hex("a"), hex("foobar")]).toEqual(["cbf29ce484222325", "af63dc4c8601ec8c", "85944171f73967e8"]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let reference = 0xcbf29ce484222325n;
        for (const byte of bytes) reference = ((reference ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
        const hash = new Fnv1a64();
        for (const byte of bytes) hash.byte(byte);
        expect(hash.hex()).toBe(reference.toString(16).padStart(16, "0"));
        expect(hash.base36()).toHaveLength(14);
      }),
      { numRuns: 1_000 },
    );
  });
});
