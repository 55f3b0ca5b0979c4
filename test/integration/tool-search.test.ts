// `client.searchTools` (issue 25) over the tools of four real servers, each listed by a server
// process of its own (test/fixtures/catalogs/, listed-tools-server.mjs): the ranking a person
// would expect for the questions a model asks, deterministic, the model's view by default, and a
// list that changes on one server searched afresh.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InvalidArgumentError, type ToolSearchHit } from "../../src/node.js";

const SERVER = fileURLToPath(new URL("../fixtures/listed-tools-server.mjs", import.meta.url));
const catalog = (name: string): string => fileURLToPath(new URL(`../fixtures/catalogs/${name}.json`, import.meta.url));

let client: Client;

beforeAll(async () => {
  client = new Client({ name: "search-host", version: "1.0.0" });
  await client.connect("github", { command: process.execPath, args: [SERVER, catalog("github")] });
  await client.connect("fs", { command: process.execPath, args: [SERVER, catalog("filesystem")] });
  await client.connect("memory", { command: process.execPath, args: [SERVER, catalog("memory")] });
  await client.connect("everything", { command: process.execPath, args: [SERVER, catalog("everything"), "--app", "get-tiny-image"] });
});

afterAll(async () => {
  await client.close();
});

const named = (hits: ToolSearchHit[]): string[] => hits.map((hit) => `${hit.tool.serverId}/${hit.tool.name}`);

describe("searchTools over the tools of real servers", () => {
  it("ranks the tool a question is about first", async () => {
    const expectations: [string, string][] = [
      ["open a new issue in a GitHub repository", "github/create_issue"],
      ["comment on an issue", "github/add_issue_comment"],
      ["merge a pull request", "github/merge_pull_request"],
      ["create a review on a pull request", "github/create_pull_request_review"],
      ["get the reviews of a pull request", "github/get_pull_request_reviews"],
      ["move or rename a file", "fs/move_file"],
      ["show the tree of directories", "fs/directory_tree"],
      ["add observations about entities to the knowledge graph", "memory/add_observations"],
      ["create entities in the knowledge graph", "memory/create_entities"],
      ["delete relations between entities", "memory/delete_relations"],
      ["echo", "everything/echo"],
      ["getFileInfo", "fs/get_file_info"],
      ["list allowed directories", "fs/list_allowed_directories"],
    ];
    const misses: string[] = [];
    for (const [query, expected] of expectations) {
      const top = named(await client.searchTools(query, { limit: 3 }));
      if (top[0] !== expected) misses.push(`${query}: ${top.join(", ")}`);
    }
    expect(misses).toEqual([]);
  });

  it("finds the family a word names, across servers, within the limit", async () => {
    const hits = await client.searchTools("pull request", { limit: 8 });
    expect(hits).toHaveLength(8);
    expect(hits.every((hit) => hit.tool.serverId === "github" && hit.tool.name.includes("pull_request"))).toBe(true);
    // Best first, and each hit scored.
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    const files = named(await client.searchTools("read file contents", { limit: 5 }));
    expect(files.some((name) => name.startsWith("fs/read"))).toBe(true);
    expect(files).toContain("github/get_file_contents");
  });

  it("gives the same order every time, ties broken by qualified name", async () => {
    const first = await client.searchTools("file", { limit: 20 });
    const again = await client.searchTools("file", { limit: 20 });
    expect(named(again)).toEqual(named(first));
    for (let i = 1; i < first.length; i++) {
      if (first[i - 1]!.score === first[i]!.score) expect(first[i - 1]!.tool.qualifiedName < first[i]!.tool.qualifiedName).toBe(true);
    }
  });

  it("finds nothing for words no tool has, and for a query of stop words", async () => {
    expect(await client.searchTools("zyxwvut qqqq")).toEqual([]);
    expect(await client.searchTools("the of and")).toEqual([]);
  });

  it("searches the model's view unless asked: an app-only tool is found with audience all alone", async () => {
    const modelView = named(await client.searchTools("tiny image", { limit: 5 }));
    expect(modelView).not.toContain("everything/get-tiny-image");
    const all = named(await client.searchTools("tiny image", { limit: 5, audience: "all" }));
    expect(all[0]).toBe("everything/get-tiny-image");
  });

  it("searches a server's new list after it changed, and the others' as they were", async () => {
    expect(named(await client.searchTools("quokka"))).toEqual([]);
    const memory = client.server("memory")!;
    await memory.callTool("add-tool", { name: "feed_quokka", description: "Feeds the quokka of the knowledge graph" });
    await client.notificationsSettled();
    // The list_changed dropped the memory server's list; the next search lists it again.
    let found: string[] = [];
    for (let attempt = 0; attempt < 50 && found.length === 0; attempt++) {
      found = named(await client.searchTools("quokka"));
      if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(found).toEqual(["memory/feed_quokka"]);
    expect(named(await client.searchTools("open a new issue in a GitHub repository", { limit: 1 }))).toEqual(["github/create_issue"]);
  });

  it("refuses a query or limit a caller got wrong", async () => {
    await expect(client.searchTools(42 as unknown as string)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.searchTools("x".repeat(1_001))).rejects.toThrow(/at most 1000 characters/);
    await expect(client.searchTools("file", { limit: 0 })).rejects.toThrow(/integer from 1 to 1000/);
    await expect(client.searchTools("file", { limt: 3 } as never)).rejects.toThrow(/limit/);
  });
});
