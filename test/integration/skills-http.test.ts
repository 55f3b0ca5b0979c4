// The skills extension over Streamable HTTP against the raw scripted server, in both eras: the
// same listing and verified load as over stdio, and in 2026-07-28 the headers that name each
// request (`Mcp-Method`, and `Mcp-Name` on the read of a skill file).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Client, SkillError, skillsOf } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp, type JsonObject, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";

const CAPABILITIES = { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } };
const SKILL_MD = "---\nname: git-workflow\ndescription: Branches and commits\n---\nUse feature branches.\n";
const GUIDE = "Rebase before merging.\n";
const file = (uri: string, text: string) => ({ uri, digest: `sha256:${createHash("sha256").update(text).digest("hex")}`, size: Buffer.byteLength(text) });
const ENTRY = {
  uri: "skill://git-workflow/SKILL.md",
  frontmatter: { name: "git-workflow", description: "Branches and commits" },
  resources: [file("skill://git-workflow/SKILL.md", SKILL_MD), file("skill://git-workflow/references/GUIDE.md", GUIDE)],
};
const FILES: Record<string, string> = { "skill://git-workflow/SKILL.md": SKILL_MD, "skill://git-workflow/references/GUIDE.md": "Squash everything.\n" };

async function serve(era: "legacy" | "modern"): Promise<RawHttpServer> {
  const srv = track(await startRawHttp(era === "modern" ? { session: false, strictSession: false } : { capabilities: CAPABILITIES }));
  const complete = (result: JsonObject): JsonObject => (era === "modern" ? { resultType: "complete", ttlMs: 5_000, cacheScope: "private", ...result } : result);
  if (era === "modern") {
    srv.handle("server/discover", () => complete({ supportedVersions: ["2026-07-28"], capabilities: CAPABILITIES, _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw", version: "1" } } }));
  }
  srv.handle("skills/list", () => complete({ skills: [ENTRY] }));
  srv.handle("resources/read", (m) => {
    const uri = m.params?.["uri"] as string;
    return complete({ contents: [{ uri, mimeType: "text/markdown", text: FILES[uri] ?? "" }] });
  });
  return srv;
}

const rpc = (r: RecordedRequest) => (r.json ?? {}) as { method?: string; params?: { uri?: string } };

describe.each(["legacy", "modern"] as const)("skills over HTTP, %s era", (era) => {
  it("lists without reading, loads verified, and refuses a supporting file that changed", async () => {
    const srv = await serve(era);
    const client = track(new Client({ name: "skills-host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("git", { url: srv.url }, { protocolVersion: era === "modern" ? "2026-07-28" : "2025-11-25" });
    const skills = skillsOf(server);
    const listing = await skills.list();
    expect(listing).toMatchObject({ skills: [ENTRY], refused: [], ttlMs: era === "modern" ? 5_000 : undefined });
    expect(srv.requests.filter((r) => rpc(r).method === "resources/read")).toEqual([]);

    const skill = await skills.load(listing.skills[0]!);
    expect(skill.body).toBe("Use feature branches.\n");
    const error = await skill.readFile("references/GUIDE.md").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillError);
    expect(error).toMatchObject({ reason: "size", fileUri: "skill://git-workflow/references/GUIDE.md", serverId: "git" });

    const posts = srv.requests.filter((r) => r.method === "POST" && rpc(r).method?.match(/^(skills|resources)\//));
    expect(posts.map((r) => [rpc(r).method, rpc(r).params?.uri])).toEqual([
      ["skills/list", undefined],
      ["resources/read", "skill://git-workflow/SKILL.md"],
      ["resources/read", "skill://git-workflow/references/GUIDE.md"],
    ]);
    if (era === "modern") {
      expect(posts.map((r) => [r.headers["mcp-method"], r.headers["mcp-name"]])).toEqual([
        ["skills/list", undefined],
        ["resources/read", "skill://git-workflow/SKILL.md"],
        ["resources/read", "skill://git-workflow/references/GUIDE.md"],
      ]);
    }
  });
});
