import { describe, expect, it } from "vitest";
import { LineFramer, LineTooLongError } from "../../src/node/line-framer.js";

const collect = (max = 1 << 20) => {
  const lines: string[] = [];
  return { lines, framer: new LineFramer(max, (l) => lines.push(l)) };
};

describe("LineFramer", () => {
  const input = Buffer.from('{"a":"é✓"}\n\r\n{"b":2}\r\n\n{"c":[1,2,3]}\n', "utf8");

  it("yields the same lines whatever the split points, multi-byte characters included", () => {
    const expected = ['{"a":"é✓"}', '{"b":2}', '{"c":[1,2,3]}'];
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j += 3) {
        const { lines, framer } = collect();
        framer.push(input.subarray(0, i));
        framer.push(input.subarray(i, j));
        framer.push(input.subarray(j));
        expect(lines).toEqual(expected);
      }
    }
  });

  it("yields a line byte by byte", () => {
    const { lines, framer } = collect();
    for (const byte of input) framer.push(Buffer.from([byte]));
    expect(lines).toHaveLength(3);
    expect(framer.pending).toBe(0);
  });

  it("holds an unterminated tail until its newline", () => {
    const { lines, framer } = collect();
    framer.push(Buffer.from('{"x":'));
    expect(lines).toEqual([]);
    expect(framer.pending).toBe(5);
    framer.push(Buffer.from("1}\n"));
    expect(lines).toEqual(['{"x":1}']);
  });

  it("refuses a line longer than the limit, whether it arrives whole or in pieces", () => {
    const whole = collect(10);
    expect(() => whole.framer.push(Buffer.from("01234567890\n"))).toThrow(LineTooLongError);
    const pieces = collect(10);
    pieces.framer.push(Buffer.from("012345"));
    expect(() => pieces.framer.push(Buffer.from("67890"))).toThrow(LineTooLongError);
    const exact = collect(10);
    exact.framer.push(Buffer.from("0123456789\n"));
    expect(exact.lines).toEqual(["0123456789"]);
  });
});
