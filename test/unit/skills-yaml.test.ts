// The YAML reader of SKILL.md front matter: what front matter is written in is read as a YAML 1.2
// parser reads it; what it does not read is refused, never guessed.
import { describe, expect, it } from "vitest";
import { YamlError, parseYaml } from "../../src/ext/skills-yaml.js";

const lines = (...text: string[]) => text.join("\n");

describe("what front matter is written in", () => {
  it.each<[string, string, unknown]>([
    ["plain scalars take their core-schema type", lines("s: text", "i: 42", "neg: -7", "f: 2.5", "e: 1e3", "t: true", "F: False", "n: null", "tilde: ~", "empty:", "oct: 0o17", "hex: 0x1F"), { s: "text", i: 42, neg: -7, f: 2.5, e: 1000, t: true, F: false, n: null, tilde: null, empty: null, oct: 15, hex: 31 }],
    ["YAML 1.1 words and dates stay strings", lines("yes: yes", "on: on", "date: 2024-01-01", "version: 1.0.0"), { yes: "yes", on: "on", date: "2024-01-01", version: "1.0.0" }],
    ["comments and blank lines are not content", lines("# a skill", "", "name: pdf   # the name", "  # indented comment", "description: x"), { name: "pdf", description: "x" }],
    ["a value may hold # and : without spaces", lines("url: http://example.com/a#b", "tag: c#"), { url: "http://example.com/a#b", tag: "c#" }],
    ["single quotes double their quote", "q: 'it''s # not a comment'", { q: "it's # not a comment" }],
    ["double quotes take escapes", String.raw`q: "tab\there \"quoted\" \u00e9 \x41 \\ \/"`, { q: 'tab\there "quoted" é A \\ /' }],
    ["quoted values fold across lines", lines('q: "one', "  two", "", "  three\"", "r: 'a", "  b'"), { q: "one two\nthree", r: "a b" }],
    ["a backslash at the end of a line joins it to the next", lines('q: "one\\', '  two"'), { q: "onetwo" }],
    ["plain values fold across lines", lines("description: Extract text", "  and tables", "", "  from PDFs", "next: 1"), { description: "Extract text and tables\nfrom PDFs", next: 1 }],
    ["nested mappings", lines("metadata:", "  author: example-org", "  version: \"1.0\"", "  deep:", "    x: 1", "license: MIT"), { metadata: { author: "example-org", version: "1.0", deep: { x: 1 } }, license: "MIT" }],
    ["sequences, indented or not", lines("a:", "  - 1", "  - two", "b:", "- x", "- y", "c: 3"), { a: [1, "two"], b: ["x", "y"], c: 3 }],
    ["sequences of mappings and of sequences", lines("tools:", "  - name: git", "    args: [status, diff]", "  - name: jq", "grid:", "  - - 1", "    - 2", "  - - 3"), { tools: [{ name: "git", args: ["status", "diff"] }, { name: "jq" }], grid: [[1, 2], [3]] }],
    ["an item on its own line, and an empty item", lines("a:", "  -", "    k: v", "  -"), { a: [{ k: "v" }, null] }],
    ["flow collections, nested and across lines", lines('f: [a, "b, c", {k: v, n: 1}, []]', "g: {", "  x: [1,", "    2],", "  'y': z,", "}"), { f: ["a", "b, c", { k: "v", n: 1 }, []], g: { x: [1, 2], y: "z" } }],
    ["an apostrophe inside a plain word of a flow collection", "f: [it's, fine]", { f: ["it's", "fine"] }],
    ["literal block scalars keep lines; chomping", lines("a: |", "  one", "    two", "", "  three", "", "b: |-", "  x", "c: |+", "  y", "", "d: 1"), { a: "one\n  two\n\nthree\n", b: "x", c: "y\n\n", d: 1 }],
    ["folded block scalars fold lines", lines("a: >", "  one", "  two", "", "  three", "    indented", "  four", "b: >-", "  x", "  y"), { a: "one two\nthree\n  indented\nfour\n", b: "x y" }],
    ["a block scalar with an explicit indentation", lines("a: |2", "    two more", "  base"), { a: "  two more\nbase\n" }],
    ["quoted keys, and keys with spaces", lines('"quoted key": 1', "'single': 2", "two words: 3", "allowed-tools: Bash(git:*) Read"), { "quoted key": 1, single: 2, "two words": 3, "allowed-tools": "Bash(git:*) Read" }],
    ["CRLF line ends", "name: a\r\ndescription: b\r\n", { name: "a", description: "b" }],
    ["keys a prototype has are plain fields", lines("__proto__: x", "constructor: y"), JSON.parse('{"__proto__":"x","constructor":"y"}')],
    ["nothing at all", "", null],
  ])("%s", (_what, source, expected) => {
    expect(parseYaml(source)).toEqual(expected);
  });

  it("writes a __proto__ key as an own field", () => {
    const value = parseYaml("__proto__: x") as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe("what is refused", () => {
  it.each<[string, string, RegExp]>([
    ["an anchor", "a: &x 1", /anchors, aliases and tags/],
    ["an alias", lines("a: 1", "b: *a"), /anchors, aliases and tags/],
    ["a tag", "a: !!str 1", /anchors, aliases and tags/],
    ["a key given twice", lines("name: a", "name: b"), /"name" appears twice/],
    ["a key given twice in a flow mapping", "f: {a: 1, a: 2}", /"a" appears twice/],
    ["a tab that indents", lines("a:", "\tb: 1"), /a tab indents/],
    ["a line indented under a value", lines("a: 1", "  b: 2"), /may not contain ": "|indented more/],
    ["a mapping inside a plain value", "a: b: c", /may not contain ": "/],
    ["a complex key", lines("? a", ": b"), /expected a key|cannot start a value/],
    ["a second document", lines("a: 1", "...", "b: 2"), /second document/],
    ["a directive", lines("%YAML 1.2", "a: 1"), /second document or a directive/],
    ["a flow collection left open", "a: [1, 2", /not closed/],
    ["a quoted value left open", 'a: "open', /not closed/],
    ["something after a quoted value", "a: 'x' y", /unexpected "y"/],
    ["an unknown escape", String.raw`a: "\q"`, /unknown escape/],
    ["a sequence item among keys", lines("a: 1", "- b"), /expected a key/],
    ["a bad block scalar header", lines("a: |x", "  b"), /block scalar header/],
  ])("%s", (_what, source, message) => {
    expect(() => parseYaml(source)).toThrow(YamlError);
    expect(() => parseYaml(source)).toThrow(message);
  });

  it("collections nested deeper than the bound, in blocks and in flow", () => {
    const block = Array.from({ length: 70 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1";
    expect(() => parseYaml(block)).toThrow(/nest deeper than 64/);
    expect(() => parseYaml(`a: ${"[".repeat(70)}${"]".repeat(70)}`)).toThrow(/nest deeper than 64/);
    const shallow = Array.from({ length: 60 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1";
    expect(() => parseYaml(shallow)).not.toThrow();
  });
});
