// The skills extension (SEP-2640) against the raw scripted stdio server, in both eras: listing,
// loading with verification of size, digest and front matter, reads only when asked for, and
// the bounds on listings and skills. What the server received is read from the wire.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Client, ClientError, SkillError, skillsOf, type ServerHandle, type SkillEntry, type SkillsOptions } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { startRawStdio, type JsonObject, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const EXTENSION = "io.modelcontextprotocol/skills";
const CAPABILITIES = { resources: {}, extensions: { [EXTENSION]: {} } };

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1"
---

# PDF processing

See references/FORMS.md.
`;
const FORMS = "Form fields, one per line.\n";
const FRONTMATTER = { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", metadata: { version: "2.1" } };
const ROOT = "skill://pdf-processing";

const digest = (text: string | Buffer) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const fileEntry = (uri: string, text: string) => ({ uri, digest: digest(text), size: Buffer.byteLength(text) });

/** A listing entry for a skill at `root` whose files are `files` (path → text). */
function entryFor(root: string, frontmatter: JsonObject, files: Record<string, string>): JsonObject {
  return { uri: `${root}/SKILL.md`, frontmatter, resources: Object.entries(files).map(([path, text]) => fileEntry(`${root}/${path}`, text)) };
}

const PDF = entryFor(ROOT, FRONTMATTER, { "SKILL.md": SKILL_MD, "references/FORMS.md": FORMS });

type Era = "legacy" | "modern";

interface Script {
  /** The pages of skills/list, in order (the cursor of page i is "p<i>"). */
  pages?: unknown[][];
  /** What resources/read serves, by URI: text, or a result of its own. */
  files?: Record<string, string | JsonObject>;
  /** What skills/get answers, by URI. */
  got?: Record<string, unknown>;
  capabilities?: JsonObject;
  /** The cursor after the last page (modern: "" continues). */
  lastCursor?: string;
  /** The host's id of the server (default "skills"). */
  id?: string;
  /** Connect lazily: the era is not known until the first use. */
  lazy?: boolean;
}

interface Setup {
  raw: RawStdioServer;
  server: ServerHandle;
  logger: CapturingLogger;
  /** The URIs the server was asked to read, in order, once a round trip has passed. */
  reads: () => Promise<string[]>;
  /** The methods the server received, once a round trip has passed. */
  methods: () => Promise<string[]>;
}

async function setup(era: Era, script: Script = {}): Promise<Setup> {
  const raw = track(await startRawStdio());
  const capabilities = script.capabilities ?? CAPABILITIES;
  const complete = (result: JsonObject): JsonObject => (era === "modern" ? { resultType: "complete", ttlMs: 0, cacheScope: "private", ...result } : result);
  if (era === "legacy") raw.autoInitialize({ protocolVersion: "2025-11-25", capabilities });
  else raw.handle("server/discover", () => complete({ supportedVersions: ["2026-07-28"], capabilities, _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-skills", version: "1" } } }));
  const pages = script.pages ?? [[PDF]];
  raw.handle("skills/list", (m) => {
    const cursor = m.params?.["cursor"];
    const at = typeof cursor === "string" && cursor.startsWith("p") ? Number(cursor.slice(1)) : 0;
    const next = at + 1 < pages.length ? `p${at + 1}` : script.lastCursor;
    return complete({ skills: pages[at] ?? [], ...(next === undefined ? {} : { nextCursor: next }) });
  });
  raw.handle("skills/get", (m) => {
    const uri = m.params?.["uri"] as string;
    const got = script.got ?? { [PDF.uri as string]: PDF };
    return Object.hasOwn(got, uri) ? complete({ skill: got[uri] }) : { error: { code: -32602, message: `no skill ${uri}` } };
  });
  const files = script.files ?? { [`${ROOT}/SKILL.md`]: SKILL_MD, [`${ROOT}/references/FORMS.md`]: FORMS };
  raw.handle("resources/read", (m) => {
    const uri = m.params?.["uri"] as string;
    const file = files[uri];
    if (file === undefined) return { error: { code: -32002, message: `no resource ${uri}` } };
    return complete(typeof file === "string" ? { contents: [{ uri, mimeType: "text/markdown", text: file }] } : file);
  });
  raw.handle("resources/list", () => complete({ resources: [] }));
  const logger = capturingLogger();
  const client = track(new Client({ name: "skills-host", version: "1", logger }));
  const server = await client.connect(script.id ?? "skills", raw.target, { protocolVersion: era === "legacy" ? "2025-11-25" : "2026-07-28", lazy: script.lazy === true });
  // One pipe keeps the order: what the client wrote before the round trip has arrived after it.
  const settled = async () => {
    if (capabilities.resources !== undefined) await server.listResources();
    return raw.messages as RpcMessage[];
  };
  return {
    raw,
    server,
    logger,
    reads: async () => (await settled()).filter((m) => m.method === "resources/read").map((m) => m.params?.["uri"] as string),
    methods: async () => (await settled()).map((m) => m.method as string).filter((m) => m !== undefined),
  };
}

async function failure(promise: Promise<unknown>): Promise<SkillError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SkillError)) throw new Error(`expected a SkillError, got ${String(error)}`);
  return error;
}

const skillsWith = (server: ServerHandle, options?: SkillsOptions) => skillsOf(server, options);

describe.each<Era>(["legacy", "modern"])("skills, %s era", (era) => {
  it("lists the server's skills and reads no file (no read before load)", async () => {
    const { server, reads } = await setup(era);
    const skills = skillsWith(server);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.serverId).toBe("skills");
    expect(listing.skills).toEqual([PDF]);
    expect(listing.refused).toEqual([]);
    expect(listing.ttlMs).toBe(era === "modern" ? 0 : undefined);
    await skills.get(PDF.uri as string);
    expect(await reads()).toEqual([]);
  });

  it("loads a skill whose SKILL.md matches its entry, and reads a file only when asked for", async () => {
    const { server, reads } = await setup(era);
    const skills = skillsWith(server);
    const [entry] = (await skills.list()).skills;
    const skill = await skills.load(entry as SkillEntry);
    expect(skill).toMatchObject({ serverId: "skills", uri: `${ROOT}/SKILL.md`, name: "pdf-processing", root: ROOT, frontmatter: FRONTMATTER });
    expect(skill.body).toBe("\n# PDF processing\n\nSee references/FORMS.md.\n");
    expect(skill.file).toMatchObject({ uri: `${ROOT}/SKILL.md`, mimeType: "text/markdown", text: SKILL_MD, verified: true });
    expect(Buffer.from(skill.file.bytes).toString("utf8")).toBe(SKILL_MD);
    expect(await reads()).toEqual([`${ROOT}/SKILL.md`]);

    const forms = await skill.readFile("references/FORMS.md");
    expect(forms).toMatchObject({ uri: `${ROOT}/references/FORMS.md`, text: FORMS, verified: true });
    expect(await reads()).toEqual([`${ROOT}/SKILL.md`, `${ROOT}/references/FORMS.md`]);

    // The skill holds the entry it was loaded from: the listing changed later changes nothing.
    (entry as SkillEntry).resources = [];
    expect(await skill.readFile("references/FORMS.md")).toMatchObject({ verified: true });
  });

  it("loads a skill from its URI alone, through skills/get", async () => {
    const { server, methods } = await setup(era, { pages: [[]] });
    const skill = await skillsWith(server).load(`${ROOT}/SKILL.md`);
    expect(skill.name).toBe("pdf-processing");
    const sent = await methods();
    expect(sent.indexOf("skills/get")).toBeGreaterThanOrEqual(0);
    expect(sent.indexOf("skills/get")).toBeLessThan(sent.indexOf("resources/read"));
  });

  it("refuses a SKILL.md whose bytes do not hash to the entry's digest, and reads nothing more", async () => {
    const tampered = SKILL_MD.replace("See references", "Run scripts");
    const entry = { ...PDF, resources: [{ ...fileEntry(`${ROOT}/SKILL.md`, SKILL_MD), size: Buffer.byteLength(tampered) }, fileEntry(`${ROOT}/references/FORMS.md`, FORMS)] };
    const { server, reads } = await setup(era, { pages: [[entry]], files: { [`${ROOT}/SKILL.md`]: tampered } });
    const error = await failure(skillsWith(server).load(entry as SkillEntry));
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "protocol", reason: "digest", serverId: "skills", skillUri: `${ROOT}/SKILL.md`, fileUri: `${ROOT}/SKILL.md` });
    expect(error.message).toContain(digest(tampered));
    expect(error.data).toMatchObject({ contents: [{ text: tampered }] });
    expect(await reads()).toEqual([`${ROOT}/SKILL.md`]);
  });

  it("refuses a SKILL.md longer or shorter than the entry's size", async () => {
    const { server } = await setup(era, { files: { [`${ROOT}/SKILL.md`]: `${SKILL_MD}padding\n` } });
    const error = await failure(skillsWith(server).load(PDF as SkillEntry));
    expect(error).toMatchObject({ kind: "protocol", reason: "size" });
    expect(error.message).toContain(`not the ${Buffer.byteLength(SKILL_MD)} of its entry`);
  });

  it("refuses a SKILL.md whose front matter differs from the entry's, naming each field", async () => {
    const tampered = SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials").replace('version: "2.1"', "version: 2.1");
    const entry = entryFor(ROOT, FRONTMATTER, { "SKILL.md": tampered, "references/FORMS.md": FORMS });
    const { server, reads } = await setup(era, { pages: [[entry]], files: { [`${ROOT}/SKILL.md`]: tampered } });
    const error = await failure(skillsWith(server).load(entry as SkillEntry));
    expect(error).toMatchObject({ kind: "protocol", reason: "frontmatter" });
    expect(error.differences).toEqual([
      '"description": the file has "Exfiltrate credentials", the entry "Extract, fill, and assemble PDF documents"',
      '"metadata": the file has {"version":2.1}, the entry {"version":"2.1"}',
    ]);
    expect(await reads()).toEqual([`${ROOT}/SKILL.md`]);
  });

  it("refuses a SKILL.md whose name differs from the entry's", async () => {
    const renamed = SKILL_MD.replace("name: pdf-processing", "name: pdf-tools");
    const entry = entryFor(ROOT, FRONTMATTER, { "SKILL.md": renamed });
    const { server } = await setup(era, { files: { [`${ROOT}/SKILL.md`]: renamed } });
    const error = await failure(skillsWith(server).load(entry as SkillEntry));
    expect(error).toMatchObject({ reason: "frontmatter", differences: ['"name": the file has "pdf-tools", the entry "pdf-processing"'] });
  });

  it("refuses a SKILL.md without front matter, or with front matter it cannot read", async () => {
    const bare = "# PDF processing\n";
    const anchored = "---\nname: &n pdf-processing\ndescription: *n\n---\nbody\n";
    const unclosed = "---\nname: pdf-processing\ndescription: d\n";
    const { server } = await setup(era, {
      files: { "skill://bare/SKILL.md": bare, "skill://anchored/SKILL.md": anchored, "skill://unclosed/SKILL.md": unclosed },
    });
    const skills = skillsWith(server);
    const load = (name: string, text: string) => skills.load(entryFor(`skill://${name}`, { name, description: "d" }, { "SKILL.md": text }) as SkillEntry);
    expect(await failure(load("bare", bare))).toMatchObject({ reason: "frontmatter", message: expect.stringContaining('does not begin with a "---" line') });
    expect(await failure(load("anchored", anchored))).toMatchObject({ reason: "frontmatter", message: expect.stringContaining("anchors, aliases and tags are not read") });
    expect(await failure(load("unclosed", unclosed))).toMatchObject({ reason: "frontmatter", message: expect.stringContaining('no closing "---"') });
  });

  it("refuses an entry whose name is not its directory's, in the listing and on load, before any read", async () => {
    const misnamed = { ...PDF, uri: "skill://acme/pdf-tools/SKILL.md", resources: [fileEntry("skill://acme/pdf-tools/SKILL.md", SKILL_MD)] };
    const { server, reads, logger } = await setup(era, { pages: [[misnamed, PDF]] });
    const skills = skillsWith(server);
    const listing = await skills.list();
    expect(listing.skills).toEqual([PDF]);
    expect(listing.refused).toEqual([
      { index: 0, uri: "skill://acme/pdf-tools/SKILL.md", reason: "entry", message: `"frontmatter" "name" "pdf-processing" is not the skill's directory "pdf-tools" in its URI` },
    ]);
    expect(logger.warnings("dropped entry 0 of skills/list")).toHaveLength(1);
    const error = await failure(skills.load(misnamed as SkillEntry));
    expect(error).toMatchObject({ kind: "protocol", reason: "entry", skillUri: "skill://acme/pdf-tools/SKILL.md" });
    expect(await reads()).toEqual([]);
  });

  it("refuses a supporting file that fails verification, and one the entry does not list without asking for it", async () => {
    const { server, reads } = await setup(era, { files: { [`${ROOT}/SKILL.md`]: SKILL_MD, [`${ROOT}/references/FORMS.md`]: "Other fields.\n" } });
    const skill = await skillsWith(server).load(PDF as SkillEntry);
    expect(await failure(skill.readFile("references/FORMS.md"))).toMatchObject({ reason: "size", fileUri: `${ROOT}/references/FORMS.md` });
    expect(await failure(skill.readFile("scripts/extract.py"))).toMatchObject({ kind: "protocol", reason: "unlisted", fileUri: `${ROOT}/scripts/extract.py` });
    expect(await failure(skill.readFile("../other/SKILL.md"))).toMatchObject({ reason: "unlisted" });
    expect(await failure(skill.readFile("skill://elsewhere/SKILL.md"))).toMatchObject({ reason: "unlisted" });
    expect(await reads()).toEqual([`${ROOT}/SKILL.md`, `${ROOT}/references/FORMS.md`]);
  });

  it("verifies a file sent as a base64 blob by its bytes", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const entry = { ...PDF, resources: [...(PDF.resources as JsonObject[]), { uri: `${ROOT}/assets/logo.bin`, digest: digest(bytes), size: bytes.length }] };
    const blob = (uri: string) => ({ contents: [{ uri, mimeType: "application/octet-stream", blob: bytes.toString("base64") }] });
    const { server } = await setup(era, { files: { [`${ROOT}/SKILL.md`]: SKILL_MD, [`${ROOT}/assets/logo.bin`]: blob(`${ROOT}/assets/logo.bin`) } });
    const skill = await skillsWith(server).load(entry as SkillEntry);
    const logo = await skill.readFile("assets/logo.bin");
    expect(logo).toMatchObject({ mimeType: "application/octet-stream", text: undefined, verified: true });
    expect(Buffer.from(logo.bytes).equals(bytes)).toBe(true);
  });

  it("refuses a URI listed twice, each time", async () => {
    const { server } = await setup(era, { pages: [[PDF], [{ ...PDF }]] });
    const listing = await skillsWith(server).list();
    expect(listing.skills).toEqual([]);
    expect(listing.refused.map((r) => [r.index, r.reason])).toEqual([
      [0, "entry"],
      [1, "entry"],
    ]);
  });

  it("walks every page; a cursor repeated is a server bug, not a loop", async () => {
    const other = entryFor("skill://git-workflow", { name: "git-workflow", description: "Branches and commits" }, { "SKILL.md": "---\nname: git-workflow\ndescription: Branches and commits\n---\n" });
    const { server } = await setup(era, { pages: [[PDF], [other]] });
    const skills = skillsWith(server);
    expect((await skills.list()).skills.map((s) => s.frontmatter.name)).toEqual(["pdf-processing", "git-workflow"]);
    const first = await skills.listPage();
    expect(first).toMatchObject({ nextCursor: "p1", skills: [PDF] });
    expect((await skills.listPage(first.nextCursor)).skills).toEqual([other]);

    const { server: looping } = await setup(era, { pages: [[PDF], [other]], lastCursor: "p1" });
    await expect(skillsWith(looping).list()).rejects.toMatchObject({ kind: "protocol", message: expect.stringContaining('repeated the skills/list cursor "p1"') });
  });

  it("takes an empty cursor for the end in the legacy era, for a cursor in 2026-07-28", async () => {
    const other = entryFor("skill://git-workflow", { name: "git-workflow", description: "d" }, { "SKILL.md": "x" });
    const { server, raw } = await setup(era, { pages: [[PDF], [other]], lastCursor: "" });
    const listing = skillsWith(server).list();
    if (era === "legacy") expect((await listing).skills).toHaveLength(2);
    // Modern: "" asks again, from the first page, which names "p1" once more.
    else await expect(listing).rejects.toMatchObject({ message: expect.stringContaining('repeated the skills/list cursor "p1"') });
    const cursors = (raw.messages as RpcMessage[]).filter((m) => m.method === "skills/list").map((m) => m.params?.["cursor"]);
    expect(cursors).toEqual(era === "legacy" ? [undefined, "p1"] : [undefined, "p1", ""]);
  });

  it("ends a lazy server's listing by its era's rule, once the first use has learnt the era", async () => {
    const other = entryFor("skill://git-workflow", { name: "git-workflow", description: "d" }, { "SKILL.md": "x" });
    const { server, raw } = await setup(era, { pages: [[PDF], [other]], lastCursor: "", lazy: true });
    expect(server.era).toBeUndefined();
    const listing = skillsWith(server).list();
    if (era === "legacy") expect((await listing).skills).toHaveLength(2);
    else await expect(listing).rejects.toMatchObject({ message: expect.stringContaining('repeated the skills/list cursor "p1"') });
    const cursors = (raw.messages as RpcMessage[]).filter((m) => m.method === "skills/list").map((m) => m.params?.["cursor"]);
    expect(cursors).toEqual(era === "legacy" ? [undefined, "p1"] : [undefined, "p1", ""]);
  });

  it("bounds a listing: one entry more than maxSkills fails it", async () => {
    const named = (n: number) => entryFor(`skill://s${n}`, { name: `s${n}`, description: "d" }, { "SKILL.md": "x" });
    const { server } = await setup(era, { pages: [[named(1), named(2)], [named(3), named(4)]] });
    expect((await skillsWith(server, { maxSkills: 4 }).list()).skills).toHaveLength(4);
    await expect(skillsWith(server, { maxSkills: 3 }).list()).rejects.toMatchObject({ kind: "protocol", serverId: "skills", message: expect.stringContaining("more than 3 skills") });
    // Page by page, the host bounds the walk itself.
    expect((await skillsWith(server, { maxSkills: 3 }).listPage()).skills).toHaveLength(2);
  });

  it("bounds a skill: one over the files or the bytes is declined from its entry, before any read", async () => {
    const files = { "SKILL.md": SKILL_MD, "references/FORMS.md": FORMS };
    const { server, reads } = await setup(era, { pages: [[entryFor(ROOT, FRONTMATTER, files)]] });
    const bytes = Buffer.byteLength(SKILL_MD) + Buffer.byteLength(FORMS);
    expect((await skillsWith(server, { maxBytes: bytes, maxFiles: 2 }).list()).skills).toHaveLength(1);
    const overBytes = await skillsWith(server, { maxBytes: bytes - 1 }).list();
    expect(overBytes.refused).toEqual([{ index: 0, uri: `${ROOT}/SKILL.md`, reason: "limit", message: `the skill's files add up to ${bytes} bytes, more than the ${bytes - 1} this host accepts` }]);
    const overFiles = await skillsWith(server, { maxFiles: 1 }).list();
    expect(overFiles.refused).toMatchObject([{ reason: "limit", message: "the skill has 2 files, more than the 1 this host accepts" }]);
    const error = await failure(skillsWith(server, { maxBytes: bytes - 1 }).load(PDF as SkillEntry));
    expect(error).toMatchObject({ kind: "unsupported", reason: "limit" });
    expect(await reads()).toEqual([]);
  });

  it("declines a dynamic skill unless allowed; allowed, it reads under its directory within the byte budget", async () => {
    const dynamic = { uri: `${ROOT}/SKILL.md`, frontmatter: FRONTMATTER, resources: "dynamic" };
    const big = "x".repeat(100);
    const { server, reads } = await setup(era, { pages: [[dynamic]], files: { [`${ROOT}/SKILL.md`]: SKILL_MD, [`${ROOT}/references/FORMS.md`]: FORMS, [`${ROOT}/big.txt`]: big } });
    expect(await failure(skillsWith(server).load(dynamic as SkillEntry))).toMatchObject({ kind: "unsupported", reason: "dynamic" });
    expect(await reads()).toEqual([]);

    const budget = Buffer.byteLength(SKILL_MD) + Buffer.byteLength(FORMS) + 99;
    const skill = await skillsWith(server, { allowDynamic: true, maxBytes: budget }).load(dynamic as SkillEntry);
    expect(skill.file.verified).toBe(false);
    expect(await skill.readFile("references/FORMS.md")).toMatchObject({ text: FORMS, verified: false });
    expect(await failure(skill.readFile("big.txt"))).toMatchObject({ kind: "unsupported", reason: "limit", message: expect.stringContaining("more than the 99 left") });
    expect(await failure(skill.readFile("skill://other/SKILL.md"))).toMatchObject({ reason: "unlisted" });
  });

  it("a server that did not declare the extension is sent no skills request", async () => {
    const { server, methods } = await setup(era, { capabilities: { resources: {} } });
    const skills = skillsWith(server);
    expect(skills.supported).toBe(false);
    await expect(skills.list()).rejects.toMatchObject({ kind: "unsupported", message: expect.stringContaining(`did not declare the "${EXTENSION}" extension`) });
    await expect(skills.load(`${ROOT}/SKILL.md`)).rejects.toMatchObject({ kind: "unsupported" });
    expect((await methods()).filter((m) => m.startsWith("skills/"))).toEqual([]);
  });

  it("skills/get that answers with another skill is refused", async () => {
    const { server } = await setup(era, { got: { [`${ROOT}/SKILL.md`]: entryFor("skill://git-workflow", { name: "git-workflow", description: "d" }, { "SKILL.md": "x" }) } });
    expect(await failure(skillsWith(server).load(`${ROOT}/SKILL.md`))).toMatchObject({ reason: "entry", message: expect.stringContaining("answered with another skill") });
  });
});

describe("the skills API", () => {
  it("refuses bounds that would switch a limit off by accident, and unknown options", async () => {
    const { server } = await setup("legacy");
    for (const maxBytes of [0, -1, Number.NaN, 1.5, "10"]) expect(() => skillsOf(server, { maxBytes: maxBytes as number })).toThrow(/maxBytes/);
    expect(() => skillsOf(server, { maxSkills: Infinity, maxFiles: Infinity, maxBytes: Infinity })).not.toThrow();
    expect(() => skillsOf(server, { maxSkill: 3 } as SkillsOptions)).toThrow(/did you mean "maxSkills"/);
  });

  it("SkillError is a ClientError; a ClientError is not a SkillError", () => {
    const error = new SkillError("digest", "m", { serverId: "s" });
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toBeInstanceOf(SkillError);
    expect(new ClientError("protocol", "m")).not.toBeInstanceOf(SkillError);
    expect(new SkillError("limit", "m", { serverId: "s" }).kind).toBe("unsupported");
  });

  it("bounds a listing by its pages too: empty pages without end are a server bug", async () => {
    const { raw, server } = await setup("legacy");
    let pages = 0;
    raw.handle("skills/list", () => {
      pages++;
      const page = { skills: [], nextCursor: `c${pages}` };
      return page;
    });
    await expect(skillsWith(server).list()).rejects.toMatchObject({ kind: "protocol", message: "skills/list did not end after 1000 pages, the bound of one listing: the server's list is endless or too large" });
    expect(pages).toBe(1_000);
  });

  it("bounds the cursors a listing remembers in characters too: 4 Mi, as every listing's", async () => {
    const { raw, server } = await setup("legacy");
    let pages = 0;
    // The cursor of page n is n MiB long: the third brings them past 4 MiB in all.
    raw.handle("skills/list", () => {
      pages++;
      return { skills: [], nextCursor: `${pages}:`.padEnd(pages * 1024 * 1024, "c") };
    });
    await expect(skillsWith(server).list()).rejects.toMatchObject({
      kind: "protocol",
      serverId: "skills",
      message: `skills/list's cursors passed ${4 * 1024 * 1024} characters in all (at page 3), the bound of one listing: the server's list is endless or too large`,
    });
    expect(pages).toBe(3);
    expect((await skillsWith(server).listPage()).nextCursor).toHaveLength(4 * 1024 * 1024);
  });

  it("never loads an entry of one server from another", async () => {
    const a = await setup("legacy", { id: "a" });
    const b = await setup("legacy", { id: "b" });
    const [entry] = (await skillsOf(a.server).list()).skills;
    const error = await skillsOf(b.server).load(entry as SkillEntry).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "usage", serverId: "b", message: `skill "${ROOT}/SKILL.md" was listed by server "a", not by "b"` });
    expect(await b.reads()).toEqual([]);
    // An entry the host built itself names no server: it is the host's to vouch for.
    expect((await skillsOf(b.server).load({ ...(entry as SkillEntry) })).name).toBe("pdf-processing");
  });

  it("gives a parser the front matter as in the file, its last line break too: a |+ scalar at its end reads as the server's", async () => {
    const notes = "Keep this line.\n\n";
    const text = `---\nname: kept\ndescription: d\nnotes: |+\n  Keep this line.\n\n---\nbody\n`;
    const entry = entryFor("skill://kept", { name: "kept", description: "d", notes }, { "SKILL.md": text });
    const { server } = await setup("legacy", { files: { "skill://kept/SKILL.md": text } });
    // The built-in reader and the `yaml` package, as a host would pass it, read it alike.
    expect((await skillsOf(server).load(entry as SkillEntry)).frontmatter.notes).toBe(notes);
    expect((await skillsOf(server, { parseFrontmatter: (yaml) => parse(yaml) }).load(entry as SkillEntry)).frontmatter.notes).toBe(notes);
  });

  it("takes the host's own front matter parser", async () => {
    const { server } = await setup("legacy");
    const seen: string[] = [];
    const parseFrontmatter = (yaml: string) => (seen.push(yaml), FRONTMATTER);
    await skillsOf(server, { parseFrontmatter }).load(PDF as SkillEntry);
    expect(seen).toEqual(['name: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1"\n']);
  });
});
