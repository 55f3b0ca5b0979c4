// util/bytes.ts stands in for Buffer in the web entry: each function must give what Buffer
// gives on Node (the behaviour the code had before), over any string or bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Length, concatBytes, fromBase64, toBase64, toBase64Url, utf8, utf8Length, utf8Text, webUtf8Stream } from "../../src/util/bytes.js";

const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
// Any UTF-16 string, lone surrogates included.
const anyString = fc.string({ unit: "binary", maxLength: 200 }).chain((text) => fc.constantFrom(text, text + "\ud800", "\udc00" + text));
const anyBytes = fc.uint8Array({ maxLength: 300 });

describe("util/bytes, against Buffer", () => {
  it("encodes and measures UTF-8 as Buffer does, lone surrogates as U+FFFD", () => {
    fc.assert(
      fc.property(anyString, (text) => {
        expect(Buffer.from(utf8(text)).equals(Buffer.from(text, "utf8"))).toBe(true);
        expect(utf8Length(text)).toBe(Buffer.byteLength(text, "utf8"));
      }),
      { numRuns: 2000, ...seed },
    );
  });

  it("decodes any bytes as Buffer does, whole, in chunks, and streamed with characters split across chunks", () => {
    fc.assert(
      fc.property(anyBytes, fc.array(fc.nat(300), { maxLength: 4 }), (bytes, cuts) => {
        const expected = Buffer.from(bytes).toString("utf8");
        expect(utf8Text(bytes)).toBe(expected);
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
        expect(utf8Text(chunks)).toBe(expected);
        expect(Buffer.from(concatBytes(chunks)).equals(Buffer.from(bytes))).toBe(true);
        // A stream of valid UTF-8 comes out whole whatever the cuts (malformed input may differ
        // in where U+FFFD falls, which Buffer's streaming decoder places its own way).
        const valid = Buffer.from(expected, "utf8");
        const stream = webUtf8Stream();
        const streamed = [0, ...points].map((start, i) => stream.write(valid.subarray(Math.min(start, valid.length), Math.min([...points, valid.length][i]!, valid.length)))).join("");
        expect(streamed + stream.write(new Uint8Array(0))).toBe(expected);
      }),
      { numRuns: 2000, ...seed },
    );
  });

  it("writes Base64 and base64url as Buffer does", () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
        expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
        expect(toBase64Url(bytes.slice().buffer)).toBe(Buffer.from(bytes).toString("base64url"));
      }),
      { numRuns: 2000, ...seed },
    );
    // Past the slice String.fromCharCode is given at once.
    const large = new Uint8Array(200_000).map((_, i) => i * 7);
    expect(toBase64(large)).toBe(Buffer.from(large).toString("base64"));
  });

  it("reads clean Base64 in either alphabet, with or without padding, as Buffer does, and measures it", () => {
    fc.assert(
      fc.property(anyBytes, fc.boolean(), fc.boolean(), (bytes, url, unpadded) => {
        let text = Buffer.from(bytes).toString(url ? "base64url" : "base64");
        if (unpadded) text = text.replace(/=+$/, "");
        expect(Buffer.from(fromBase64(text)).equals(Buffer.from(text, "base64"))).toBe(true);
        expect(base64Length(text)).toBe(bytes.length);
      }),
      { numRuns: 2000, ...seed },
    );
  });

  it("skips what is not Base64 in a sloppy blob, as Buffer does, and drops a trailing lone character", () => {
    expect(Buffer.from(fromBase64("aGVs\nbG8g d29y bGQ=")).toString()).toBe("hello world");
    expect(Buffer.from(fromBase64("aGVsbG8*#!"))).toEqual(Buffer.from("aGVsbG8*#!", "base64"));
    expect(fromBase64("aGVsbG8gd")).toEqual(new Uint8Array(Buffer.from("aGVsbG8gd", "base64")));
  });
});
