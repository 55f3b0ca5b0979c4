// The checks of a skill entry (SEP-2640 and the Agent Skills rules), of skill URIs, and of the
// split and comparison of a SKILL.md's front matter: pure functions, with plain objects.
import { describe, expect, it } from "vitest";
import { checkEntry } from "../../src/ext/skills-entry.js";
import { frontmatterDifferences, readFrontmatter, splitSkillDocument } from "../../src/ext/skills-frontmatter.js";
import { canonicalUri, resolveReference, skillLocation } from "../../src/ext/skills-uri.js";

const LIMITS = { maxFiles: 512, maxBytes: 16 * 1024 * 1024 };
const DIGEST = `sha256:${"a".repeat(64)}`;
const file = (uri: string, size = 10) => ({ uri, digest: DIGEST, size });
const entry = (overrides: Record<string, unknown> = {}) => ({
  uri: "skill://acme/billing/refunds/SKILL.md",
  frontmatter: { name: "refunds", description: "Process refunds", license: "MIT" },
  resources: [file("skill://acme/billing/refunds/SKILL.md"), file("skill://acme/billing/refunds/examples/email.md")],
  _meta: { "io.modelcontextprotocol.skills/x": 1 },
  ...overrides,
});
const problem = (raw: unknown, limits = LIMITS) => {
  const verdict = checkEntry(raw, limits);
  return verdict.ok ? undefined : `${verdict.reason}: ${verdict.message}`;
};

describe("a skill entry", () => {
  it("is taken whole, with every field the server sent", () => {
    const raw = entry();
    const verdict = checkEntry(raw, LIMITS);
    expect(verdict).toEqual({ ok: true, entry: raw, location: { root: "skill://acme/billing/refunds", name: "refunds" } });
    expect(problem(entry({ resources: "dynamic" }))).toBeUndefined();
    expect(problem(entry({ uri: "github://owner/repo/skills/refunds/SKILL.md", resources: [file("github://owner/repo/skills/refunds/SKILL.md")] }))).toBeUndefined();
    // The bounds of the name and the description, reached but not crossed.
    const longest = "a".repeat(64);
    expect(problem(entry({ uri: `skill://${longest}/SKILL.md`, frontmatter: { name: longest, description: "é".repeat(1024) }, resources: [file(`skill://${longest}/SKILL.md`)] }))).toBeUndefined();
  });

  it.each<[string, unknown, RegExp]>([
    ["not an object", "x", /entry: the entry is not an object/],
    ["no uri", entry({ uri: 3 }), /no "uri" string/],
    ["a uri that is not a SKILL.md", entry({ uri: "skill://refunds/README.md" }), /not a URI ending in "\/SKILL.md"/],
    ["a SKILL.md at the scheme's root", entry({ uri: "skill:///SKILL.md" }), /not a URI ending/],
    ["a uri with a query", entry({ uri: "skill://refunds/SKILL.md?v=1" }), /not a URI ending/],
    ["no frontmatter", entry({ frontmatter: undefined }), /no "frontmatter" object/],
    ["no description", entry({ frontmatter: { name: "refunds" } }), /needs "name" and "description" strings/],
    ["an empty description", entry({ frontmatter: { name: "refunds", description: "" } }), /"description" is not 1-1024 characters/],
    ["a description of 1025 characters", entry({ frontmatter: { name: "refunds", description: "é".repeat(1025) } }), /"description" is not 1-1024/],
    ["a name in capitals", entry({ frontmatter: { name: "Refunds", description: "d" } }), /"name" "Refunds" is not 1-64 lowercase/],
    ["a name with a leading hyphen", entry({ frontmatter: { name: "-refunds", description: "d" } }), /is not 1-64 lowercase/],
    ["a name with two hyphens in a row", entry({ frontmatter: { name: "re--funds", description: "d" } }), /is not 1-64 lowercase/],
    ["a name of 65 characters", entry({ uri: `skill://${"a".repeat(65)}/SKILL.md`, frontmatter: { name: "a".repeat(65), description: "d" } }), /is not 1-64 lowercase/],
    ["a name that is not the directory", entry({ frontmatter: { name: "billing", description: "d" } }), /"name" "billing" is not the skill's directory "refunds"/],
    ["no resources", entry({ resources: undefined }), /neither an array of files nor "dynamic"/],
    ["resources of another kind", entry({ resources: "static" }), /neither an array/],
    ["a file that is not an object", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md"), 7] }), /"resources"\[1\] is not an object/],
    ["a file outside the skill", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md"), file("skill://acme/billing/other.md")] }), /is not in the skill's directory/],
    ["a file that climbs out", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md"), file("skill://acme/billing/refunds/../x.md")] }), /is not in the skill's directory/],
    ["a file listed twice", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md"), file("skill://acme/billing/refunds/a%7E.md"), file("skill://acme/billing/refunds/a~.md")] }), /is listed twice/],
    ["SKILL.md not listed", entry({ resources: [file("skill://acme/billing/refunds/examples/email.md")] }), /does not list the skill's own SKILL.md/],
    ["a digest in capitals", entry({ resources: [{ ...file("skill://acme/billing/refunds/SKILL.md"), digest: `sha256:${"A".repeat(64)}` }] }), /"digest" .* is not "sha256:" and 64 lowercase hex digits/],
    ["a digest of another hash", entry({ resources: [{ ...file("skill://acme/billing/refunds/SKILL.md"), digest: `sha512:${"a".repeat(64)}` }] }), /"digest"/],
    ["no size", entry({ resources: [{ uri: "skill://acme/billing/refunds/SKILL.md", digest: DIGEST }] }), /"size" .* is not a whole number of bytes/],
    ["a negative size", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md", -1)] }), /"size" -1 is not a whole number/],
    ["a fractional size", entry({ resources: [file("skill://acme/billing/refunds/SKILL.md", 1.5)] }), /"size" 1.5/],
  ])("is refused with %s", (_what, raw, message) => {
    expect(problem(raw)).toMatch(message);
  });

  it("is declined over the host's bounds, counted from the entry alone", () => {
    expect(problem(entry(), { maxFiles: 2, maxBytes: 20 })).toBeUndefined();
    expect(problem(entry(), { maxFiles: 1, maxBytes: 20 })).toBe("limit: the skill has 2 files, more than the 1 this host accepts");
    expect(problem(entry(), { maxFiles: 2, maxBytes: 19 })).toBe("limit: the skill's files add up to 20 bytes, more than the 19 this host accepts");
    // The count comes first: a skill of very many files is not walked.
    const many = entry({ resources: Array.from({ length: 600 }, () => 7) });
    expect(problem(many)).toBe("limit: the skill has 600 files, more than the 512 this host accepts");
  });
});

describe("skill URIs", () => {
  it("name a skill by its last directory; other forms are not SKILL.md URIs", () => {
    expect(skillLocation("skill://git-workflow/SKILL.md")).toEqual({ root: "skill://git-workflow", name: "git-workflow" });
    expect(skillLocation("skill://acme/billing/refunds/SKILL.md")).toEqual({ root: "skill://acme/billing/refunds", name: "refunds" });
    for (const uri of ["skill://SKILL.md", "skill://a//SKILL.md", "skill://a/../SKILL.md", "skill://a/skill.md", "file:/a/SKILL.md", "skill://a/SKILL.md#x"]) {
      expect(skillLocation(uri), uri).toBeUndefined();
    }
  });

  it("compare in one canonical form and resolve references from the skill's root", () => {
    expect(canonicalUri("skill://a/x%7e/./y/../z%2f")).toBe("skill://a/x~/z%2F");
    expect(canonicalUri("not a uri")).toBeUndefined();
    expect(resolveReference("references/FORMS.md#part", "skill://pdf")).toBe("skill://pdf/references/FORMS.md");
    expect(resolveReference("../../x", "skill://acme/billing/refunds")).toBe("skill://acme/x");
    expect(resolveReference("skill://other/SKILL.md", "skill://pdf")).toBe("skill://other/SKILL.md");
  });
});

describe("a SKILL.md's front matter", () => {
  it("is the YAML between its first two --- lines, after a byte order mark", () => {
    expect(splitSkillDocument("\ufeff---\r\nname: a\r\n---\r\nbody\r\n")).toEqual({ yaml: "name: a\r\n", body: "body\r\n" });
    expect(splitSkillDocument("---\n---\n")).toEqual({ yaml: "", body: "" });
    expect(splitSkillDocument("---\nname: a\n---")).toEqual({ yaml: "name: a\n", body: "" });
    expect(splitSkillDocument("# title\n---\nname: a\n---\n")).toMatch(/does not begin with a "---" line/);
    expect(splitSkillDocument("---\nname: a\n----\n")).toMatch(/no closing "---" line/);
  });

  it("must read as a mapping", () => {
    expect(readFrontmatter("- a")).toMatch(/not a mapping of fields/);
    expect(readFrontmatter("")).toMatch(/not a mapping of fields/);
    expect(readFrontmatter("a: &x 1")).toMatch(/could not be read: .*anchors/);
    expect(readFrontmatter("a: 1", () => { throw new Error("host parser says no"); })).toMatch(/host parser says no/);
  });

  it("is compared field by field, absent and null alike, nothing else alike", () => {
    const entry = { name: "a", description: "d", metadata: { version: "1" }, license: null };
    expect(frontmatterDifferences({ name: "a", description: "d", metadata: { version: "1" } }, entry)).toEqual([]);
    expect(frontmatterDifferences({ metadata: { version: "1", extra: null }, description: "d", name: "a" }, entry)).toEqual([]);
    expect(frontmatterDifferences({ name: "a", description: "d", metadata: { version: 1 }, allowed: "Bash" }, entry)).toEqual([
      '"metadata": the file has {"version":1}, the entry {"version":"1"}',
      '"allowed": the file has "Bash", the entry nothing',
    ]);
    expect(frontmatterDifferences({ name: "a", description: "d", list: [1, 2] }, { name: "a", description: "d", list: [1, 2, 3] })).toHaveLength(1);
    expect(frontmatterDifferences({ name: "a", description: "d", when: new Date(0) }, { name: "a", description: "d", when: {} })).toHaveLength(1);
  });

  it("is not compared past the depth bound", () => {
    const deep = (n: number): unknown => (n === 0 ? 1 : { d: deep(n - 1) });
    expect(frontmatterDifferences({ x: deep(60) }, { x: deep(60) })).toEqual([]);
    expect(frontmatterDifferences({ x: deep(70) }, { x: deep(70) })).toHaveLength(1);
  });
});
