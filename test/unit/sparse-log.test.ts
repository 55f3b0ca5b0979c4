import { describe, expect, it } from "vitest";
import { Occurrences, worthLogging } from "../../src/util/sparse-log.js";

describe("worthLogging", () => {
  it("takes each of the first ten, then the 100th, 1 000th, … and nothing between", () => {
    const logged = Array.from({ length: 100_000 }, (_, i) => i + 1).filter((n) => worthLogging(n));
    expect(logged).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000, 10_000, 100_000]);
    expect(worthLogging(0)).toBe(false);
    expect(worthLogging(10 ** 15)).toBe(true);
    expect(worthLogging(10 ** 15 + 1)).toBe(false);
  });

  it("takes each of the first few when told how many, then the powers of ten above them", () => {
    const upTo = (n: number, first: number) => Array.from({ length: n }, (_, i) => i + 1).filter((k) => worthLogging(k, first));
    expect(upTo(10_000, 1)).toEqual([1, 10, 100, 1000, 10_000]);
    expect(upTo(10_000, 20)).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), 100, 1000, 10_000]);
  });

  it("counts with Occurrences", () => {
    const seen = new Occurrences();
    const logged = Array.from({ length: 1000 }, () => seen.next()).filter(Boolean);
    expect(logged).toHaveLength(12);
    expect(seen.count).toBe(1000);
  });
});
