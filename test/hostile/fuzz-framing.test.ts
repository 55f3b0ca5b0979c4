// Fuzzing the stdio line framer (src/transport/line-framer.ts): whatever bytes a server writes,
// split wherever the pipe splits them, the framer yields the lines it would yield for the same
// bytes fed whole, refuses a line past maxMessageBytes, and throws nothing but that refusal.
//
// fast-check's `fc.assert` throws on failure with the seed, the replay path and the shrunk
// counterexample in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRow } from "./safety.js";
import { LineFramer, LineTooLongError } from "../../src/node/line-framer.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

/** Cases per property; the fuzz files' counts add up to over 10 000 per run (see the report). */
const RUNS = 1_500;

// Bytes biased towards what breaks framers: LF, CR, NUL, bytes of broken UTF-8, multi-byte
// characters, and plain text between them.
const hostileByte = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0x0a, 0x0d, 0x00, 0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff, 0xfe) },
  { weight: 7, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
);
const bytes = fc.array(hostileByte, { maxLength: 400 }).map((list) => Buffer.from(list));
/** Where the stream is cut into chunks: offsets into the bytes, sorted by the property. */
const cuts = fc.array(fc.nat(), { maxLength: 40 });
/** Bounds around the lengths generated, so that lines cross them often. */
const bound = fc.integer({ min: 1, max: 120 });

/** The reference: the stream split on LF, whole; each segment's length is what the bound sees. */
function segmentsOf(stream: Buffer): { complete: Buffer[]; tail: Buffer } {
  const complete: Buffer[] = [];
  let start = 0;
  for (let i = stream.indexOf(0x0a); i !== -1; i = stream.indexOf(0x0a, start)) {
    complete.push(stream.subarray(start, i));
    start = i + 1;
  }
  return { complete, tail: stream.subarray(start) };
}

/** What the framer promises for one line fed whole: one CR before the LF dropped, empty lines skipped. */
function lineOf(segment: Buffer): string | undefined {
  const end = segment.length > 0 && segment[segment.length - 1] === 0x0d ? segment.length - 1 : segment.length;
  return end === 0 ? undefined : segment.toString("utf8", 0, end);
}

function chunksOf(stream: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((offset) => offset % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, stream.length]) {
    chunks.push(stream.subarray(start, point));
    start = point;
  }
  return chunks;
}

describe("fuzz: line framer", () => {
  it("yields, for any chunking, exactly the lines of the whole stream, up to the first line past the bound, which it refuses", (context) => {
    fc.assert(
      fc.property(bytes, cuts, bound, (stream, offsets, max) => {
        const { complete, tail } = segmentsOf(stream);
        const firstTooLong = [...complete, tail].findIndex((segment) => segment.length > max);
        const expected = complete
          .slice(0, firstTooLong === -1 ? complete.length : firstTooLong)
          .map(lineOf)
          .filter((line) => line !== undefined);

        const lines: string[] = [];
        const framer = new LineFramer(max, (line) => lines.push(line));
        let refused: unknown;
        let mostPending = 0;
        try {
          for (const chunk of chunksOf(stream, offsets)) {
            framer.push(chunk);
            mostPending = Math.max(mostPending, framer.pending);
          }
        } catch (error) {
          refused = error;
        }
        expect(lines).toEqual(expected);
        // What waits for its newline never grows past the bound.
        expect(mostPending).toBeLessThanOrEqual(max);
        if (firstTooLong === -1) {
          expect(refused).toBeUndefined();
          expect(framer.pending).toBe(tail.length);
        } else {
          expect(refused).toBeInstanceOf(LineTooLongError);
          expect((refused as LineTooLongError).limit).toBe(max);
        }
      }),
      { numRuns: RUNS },
    );
    fuzzRow(context, RUNS, "line framer", "yields, for any chunking, exactly the lines of the whole stream, up to the first line past the bound, which it refuses");
  });

  it("yields the same lines fed byte by byte as fed whole, broken UTF-8 and NUL included", (context) => {
    fc.assert(
      fc.property(bytes, (stream) => {
        const whole: string[] = [];
        new LineFramer(1 << 20, (line) => whole.push(line)).push(stream);
        const single: string[] = [];
        const framer = new LineFramer(1 << 20, (line) => single.push(line));
        for (let i = 0; i < stream.length; i++) framer.push(stream.subarray(i, i + 1));
        expect(single).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
    fuzzRow(context, RUNS, "line framer", "yields the same lines fed byte by byte as fed whole, broken UTF-8 and NUL included");
  });

  it("refuses a huge line at the bound, before buffering past it, however it is cut", (context) => {
    const runs = 500;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 5000 }), cuts, (max, extra, offsets) => {
        const stream = Buffer.alloc(max + extra, 0x61);
        const framer = new LineFramer(max, () => expect.unreachable("no line ends"));
        let refused: unknown;
        try {
          for (const chunk of chunksOf(stream, offsets)) framer.push(chunk);
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeInstanceOf(LineTooLongError);
        expect(framer.pending).toBeLessThanOrEqual(max);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "line framer", "refuses a huge line at the bound, before buffering past it, however it is cut");
  });
});
