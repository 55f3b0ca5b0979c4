// Skills (SEP-2640) listings from a hostile server: entries whose names, URIs, descriptions and
// digests hold escapes, bidi and control characters; URIs that differ by a character a URL
// parser drops; listings that never end or list more than a host takes; entries of 100 000
// files or nested 100 000 levels. Over stdio and Streamable HTTP against the scripted raw
// server, each test asserts what the host is given — an entry exactly as sent, or a refusal
// with its reason — and that what Conduit itself writes (refusals, errors, log lines) holds
// none of those characters.
import { describe, expect, it } from "vitest";
import { MAX_ENTRY_DEPTH } from "../../src/ext/skills-entry.js";
import { SKILLS_DEFAULTS } from "../../src/ext/skills.js";
import { LIST_BOUNDS } from "../../src/protocol/results.js";
import { SkillError, sanitize, skillsOf } from "../../src/node.js";
import { onMethod } from "../helpers/http-requests.js";
import type { JsonObject } from "../helpers/raw-stdio.js";
import { count, safetyRow } from "./safety.js";
import { TRANSPORTS, entryFor, fileEntry, rejection, skillMd, skillServer, type Transport } from "./skills-setup.js";

const row = (context: Parameters<typeof safetyRow>[0], tried: string, over: string, outcome: string) => safetyRow(context, { area: "Skills", tried, over, outcome });

/** One of each kind a terminal or a reader obeys, each beside a word that must survive. */
const NASTY = [
  "\u001b[31mred\u001b[0m", // CSI
  "\u001b]8;;https://x.example/\u001b\\link\u001b]8;;\u001b\\", // OSC 8: a link hiding its target
  "\u202eevil\u202c\u2066iso\u2069", // bidi override and isolate
  "zero\u200bwidth\u2060", // zero-width
  "a\u0000b\u0007c\u007fd", // C0 and DEL
  "e\u0085f\u009bg", // C1
  "line\u2028para\u2029end", // separators
].join(" ");
/** What `sanitize(NASTY)` must be: written out, not computed. */
const CLEAN = "red link eviliso zerowidth abcd e fg line para end";
// Written out rather than taken from sanitize.ts.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;

/** The entry of a skill `name` at `uri`, whose SKILL.md is "x". */
const at = (uri: string, name: string): JsonObject => ({ uri, frontmatter: { name, description: "d" }, resources: [fileEntry(uri, "x")] });

/** `text` as a YAML double-quoted scalar, every character outside printable ASCII escaped. */
function yamlDouble(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else out += code > 0xffff ? `\\U${code.toString(16).padStart(8, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return `"${out}"`;
}

describe.each<Transport>(TRANSPORTS)("listings with hostile strings, over %s", (transport) => {
  it("gives the host entries as sent, refuses the invalid ones, and writes none of those characters itself", async (context) => {
    const describedMd = skillMd(`name: described\ndescription: ${yamlDouble(NASTY)}\n`);
    const described = entryFor("described", { name: "described", description: NASTY }, describedMd);
    // URIs the extension allows: what a host shows of them is its to clean.
    const bidiUri = at("skill://\u202eevil/bidi/SKILL.md", "bidi");
    const escUri = at("skill://docs/\u001b[2J/esc/SKILL.md", "esc");
    // Refused, each quoted in its refusal.
    const misnamed = entryFor("misnamed", { name: "misnamed\u001b[31m", description: "d" }, "x");
    const badDigest = { ...entryFor("digest", { name: "digest", description: "d" }, "x"), resources: [{ uri: "skill://digest/SKILL.md", digest: `sha256:\u001b]52;c;cm0gLXJmIH4=\u0007${"a".repeat(40)}`, size: 1 }] };
    const outside = { ...entryFor("outside", { name: "outside", description: "d" }, "x"), resources: [fileEntry("skill://outside/SKILL.md", "x"), fileEntry("skill://\u202eelsewhere/x.md", "x")] };
    // Two spellings of one URI, a tab the URL parser drops: which one the server meant cannot be known.
    const tabbed = at("skill://tw\tin/twin/SKILL.md", "twin");
    const plain = at("skill://twin/twin/SKILL.md", "twin");
    const page = [described, bidiUri, escUri, misnamed, badDigest, outside, tabbed, plain];
    const { server, logger } = await skillServer(transport, { pages: [page], files: { "skill://described/SKILL.md": describedMd, "skill://\u202eevil/bidi/SKILL.md": "y" } });
    const skills = skillsOf(server);
    const listing = await skills.list();

    expect(listing.skills).toEqual([described, bidiUri, escUri]);
    expect(listing.refused.map((r) => [r.index, r.reason])).toEqual([
      [3, "entry"],
      [4, "entry"],
      [5, "entry"],
      [6, "entry"],
      [7, "entry"],
    ]);
    // Quoted as JSON writes it: the escape shows, and does not act.
    expect(listing.refused[0]!.message).toBe('"frontmatter" "name" "misnamed\\u001b[31m" is not 1-64 lowercase letters, digits and single inner hyphens');
    expect(listing.refused[3]!.message).toMatch(/is listed more than once$/);
    // The description reaches the host as sent, through the YAML reader's escapes too.
    const skill = await skills.load(listing.skills[0]!);
    expect(skill.frontmatter.description).toBe(NASTY);
    expect(sanitize(skill.frontmatter.description)).toBe(CLEAN);
    // A URI of bidi characters, quoted in an error of Conduit's.
    const error = await rejection(skills.load(listing.skills[1]!));
    expect(error).toBeInstanceOf(SkillError);
    expect(error).toMatchObject({ reason: "digest", skillUri: "skill://\u202eevil/bidi/SKILL.md" });

    const written = [...listing.refused.map((r) => r.message), (error as Error).message, ...logger.entries.map((e) => e.message)];
    expect(written.length).toBeGreaterThanOrEqual(listing.refused.length + 1);
    for (const text of written) expect(text).not.toMatch(FORBIDDEN);
    row(
      context,
      "a listing whose names, SKILL.md URIs, descriptions, digests and file URIs hold CSI and OSC escapes, bidi, zero-width, C0 and C1 characters; two URIs one tab apart",
      transport,
      "valid entries given as sent (the description too, once its SKILL.md's YAML escapes are read), `sanitize` cleans them; the invalid and both twins refused (`entry`); every refusal, error and log line of Conduit's holds none of those characters",
    );
  });
});

describe("listings that never end", () => {
  // Over HTTP alone: each page is a POST of its own; over stdio the same walk is the integration
  // test's (test/integration/skills.test.ts), and the bound is the one of every listing.
  it("fails a listing whose pages never end at the pages bound", async (context) => {
    const endless = await skillServer("Streamable HTTP", { pages: (page) => ({ skills: [], nextCursor: `p${page + 1}` }) });
    const error = await rejection(skillsOf(endless.server).list());
    expect(error).toMatchObject({ kind: "protocol", serverId: "skills", message: `skills/list did not end after ${LIST_BOUNDS.pages} pages, the bound of one listing: the server's list is endless or too large` });
    await endless.server.ping();
    row(context, "a listing whose pages never end", "Streamable HTTP", `the listing fails with \`protocol\` at page ${count(LIST_BOUNDS.pages)} (\`LIST_BOUNDS.pages\`); the server answers on`);
  });

  it.for(TRANSPORTS)("fails a page longer than maxSkills before looking at an entry, over %s", async (transport, context) => {
    // Counted before any entry is looked at: they are not even objects.
    const MAX = SKILLS_DEFAULTS.maxSkills;
    const long = await skillServer(transport, { pages: [Array.from({ length: MAX + 1 }, () => 0)] });
    const tooMany = await rejection(skillsOf(long.server).list());
    expect(tooMany).toMatchObject({ kind: "protocol", message: `the server listed more than ${MAX} skills (maxSkills); list them page by page with listPage` });
    await long.server.ping();
    row(context, `a page of ${count(MAX + 1)} entries, none of them an object`, transport, `the listing fails with \`protocol\` at \`maxSkills\` (${count(MAX)} by default) before any entry is checked; the server answers on`);
  });
});

describe.each<Transport>(TRANSPORTS)("entries too large to walk, over %s", (transport) => {
  it("refuses an entry of 100 000 files by its count, and one nested 100 000 levels without a RangeError", async (context) => {
    const FILES = 100_000;
    const DEPTH = 100_000;
    const small = entryFor("small", { name: "small", description: "d" }, "x");
    const many = { ...entryFor("many", { name: "many", description: "d" }, "x"), resources: Array.from({ length: FILES }, () => 0) };
    const deep = entryFor("deep", { name: "deep", description: "d" }, "x");
    // JSON.stringify of 100 000 levels would overflow the helper's stack: the page is written as text.
    const deepText = `${JSON.stringify(deep).slice(0, -1)},"_meta":${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}}`;
    const pageText = (id: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"skills":[${JSON.stringify(small)},${JSON.stringify(many)},${deepText}]}}`;
    const s = await skillServer(transport);
    if (s.raw !== undefined) {
      const raw = s.raw;
      raw.handle("skills/list", (m) => {
        void raw.sendRaw(`${pageText(m.id)}\n`);
        return undefined;
      });
    } else {
      s.http!.route(onMethod("skills/list", (req, res) => res.writeHead(200, { "content-type": "application/json" }).end(pageText((req.json as JsonObject)["id"]))));
    }
    const listing = await skillsOf(s.server).list();
    expect(listing.skills).toEqual([small]);
    expect(listing.refused).toEqual([
      { index: 1, uri: "skill://many/SKILL.md", reason: "limit", message: `the skill has ${FILES} files, more than the ${SKILLS_DEFAULTS.maxFiles} this host accepts` },
      { index: 2, uri: "skill://deep/SKILL.md", reason: "entry", message: `the entry nests deeper than ${MAX_ENTRY_DEPTH} levels` },
    ]);
    await s.server.ping();
    row(
      context,
      `an entry listing ${count(FILES)} files (none of them an object); an entry whose \`_meta\` nests ${count(DEPTH)} levels`,
      transport,
      `the first refused (\`limit\`) by its count against \`maxFiles\` (${count(SKILLS_DEFAULTS.maxFiles)}), its files not walked; the second refused (\`entry\`: deeper than ${MAX_ENTRY_DEPTH} levels) without recursion; the others taken`,
    );
  });
});
