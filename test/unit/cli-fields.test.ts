// What a person types into a form field of `conduit`, turned into the value sent: the text that
// was checked is the text sent (trimmed, except a secret, which is taken as typed), and lengths
// are counted as the library counts them when it checks the answer (code points).
import { describe, expect, it } from "vitest";
import { valueOf, type AskedField } from "../../src/cli/fields.js";

function field(overrides: Partial<AskedField>): AskedField {
  return {
    name: "f", label: "F", description: undefined, kind: "text", choices: [], default: undefined, required: true, sensitive: false,
    minimum: undefined, maximum: undefined, minLength: undefined, maxLength: undefined, format: undefined,
    ...overrides,
  };
}

describe("a form field's answer", () => {
  it("is the trimmed text that was checked, not the text as typed", () => {
    expect(valueOf(field({ maxLength: 3 }), "  abc  ")).toEqual({ value: "abc" });
    expect(valueOf(field({ minLength: 3 }), " ab ")).toEqual({ problem: "at least 3 characters" });
    expect(valueOf(field({ format: "email" }), " ada@example.com ")).toEqual({ value: "ada@example.com" });
    expect(valueOf(field({}), "   ")).toEqual({ problem: "an answer is required" });
    expect(valueOf(field({ required: false }), "   ")).toEqual({ value: undefined });
  });

  it("of a secret is taken as typed, spaces and all, and checked so", () => {
    expect(valueOf(field({ sensitive: true }), " pass word ")).toEqual({ value: " pass word " });
    expect(valueOf(field({ sensitive: true, maxLength: 10 }), " pass word ")).toEqual({ problem: "at most 10 characters" });
  });

  it("is measured in characters as the library measures them", () => {
    expect(valueOf(field({ maxLength: 2 }), "😀😀")).toEqual({ value: "😀😀" });
    expect(valueOf(field({ minLength: 3 }), "😀😀")).toEqual({ problem: "at least 3 characters" });
  });

  it("is refused here when the library would refuse it (an email needs a dot in its domain, a date its form)", () => {
    expect(valueOf(field({ format: "email" }), "ada@localhost")).toEqual({ problem: "not an email address" });
    expect(valueOf(field({ format: "date" }), "1 May 2025")).toEqual({ problem: "a date: YYYY-MM-DD" });
    expect(valueOf(field({ format: "date" }), "2025-05-01")).toEqual({ value: "2025-05-01" });
  });
});
