// The skills extension against the official server library's own (`@modelcontextprotocol/server`
// ext/skills), over stdio, in both eras: its entries, digests and sizes, and its rendering of
// front matter to JSON, as Conduit's verification reads them. The front matter is written in the
// styles authors use (folded and literal text, lists, quoted strings, nested metadata), so that
// what the server's YAML parser made of it and what Conduit's reads must agree.
import { describe, expect, it } from "vitest";
import { Client, skillsOf, type SkillEntry } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const ROOT = new URL("../..", import.meta.url).pathname;

const SKILL_MD = `---
name: pdf-processing
description: >-
  Extract text and tables from PDF files,
  fill forms, merge documents.
license: "Apache-2.0"
compatibility: 'Needs poppler; it''s on most systems'
allowed-tools: Bash(pdftotext:*) Read
metadata:
  author: example-org
  version: "2.1"   # a string, not a number
  notes: |
    First line.
    Second line.
---

# PDF processing

See [the forms](references/FORMS.md).
`;

// The server: the official library's skills extension over memory files, one McpServer per
// connection (serveStdio decides the era from the first message).
const SERVER = `
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { SkillsExtension, memorySkillFiles } from "@modelcontextprotocol/server/ext/skills";
const files = memorySkillFiles(${JSON.stringify({
  "pdf-processing/SKILL.md": SKILL_MD,
  "pdf-processing/references/FORMS.md": "Form fields, one per line.\n",
  "git-workflow/SKILL.md": "---\nname: git-workflow\ndescription: Branches and commits, this team's way\n---\nUse feature branches.\n",
})});
const catalog = await SkillsExtension.load(files, { strict: true });
serveStdio(() => {
  const server = new McpServer({ name: "official-skills", version: "1.0.0" }, { capabilities: { resources: {} } });
  catalog.attach(server);
  return server;
}, { legacy: "serve" });
process.stdin.on("end", () => setTimeout(() => process.exit(0), 50).unref());
`;

describe.each(["2025-11-25", "2026-07-28"] as const)("the official server's skills at %s", (version) => {
  it("are listed, loaded and read with every check passing", async () => {
    const client = track(new Client({ name: "skills-host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("official", { command: process.execPath, args: ["--input-type=module", "-e", SERVER], cwd: ROOT }, { protocolVersion: version });
    expect(server.era).toBe(version === "2026-07-28" ? "modern" : "legacy");
    const skills = skillsOf(server);
    expect(skills.supported).toBe(true);

    const listing = await skills.list();
    expect(listing.refused).toEqual([]);
    expect(listing.skills.map((skill) => skill.uri).sort()).toEqual(["skill://git-workflow/SKILL.md", "skill://pdf-processing/SKILL.md"]);
    const pdf = listing.skills.find((skill) => skill.frontmatter.name === "pdf-processing") as SkillEntry;
    expect(pdf.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract text and tables from PDF files, fill forms, merge documents.",
      license: "Apache-2.0",
      compatibility: "Needs poppler; it's on most systems",
      "allowed-tools": "Bash(pdftotext:*) Read",
      metadata: { author: "example-org", version: "2.1", notes: "First line.\nSecond line.\n" },
    });

    const skill = await skills.load(pdf);
    expect(skill.file.verified).toBe(true);
    expect(skill.body).toBe("\n# PDF processing\n\nSee [the forms](references/FORMS.md).\n");
    expect(await skill.readFile("references/FORMS.md")).toMatchObject({ text: "Form fields, one per line.\n", verified: true });

    // From the URI alone, through skills/get.
    expect((await skills.load("skill://git-workflow/SKILL.md")).body).toBe("Use feature branches.\n");
  });
});
