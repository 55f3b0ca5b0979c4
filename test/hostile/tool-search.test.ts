// Hostile input to tool search: queries of pathological size or content from a caller or a
// model (through the tool_search meta-tool), and catalogs a server made to hurt the index (a
// megabyte of capitals in a description, names of 100 000 characters, one term repeated, 100 000
// tools from one server). Each gets a typed error or a bounded answer: MAX_QUERY_CHARS and 64
// terms of a query, MAX_FIELD_CHARS of a field read, and `limit` hits at most.
import { describe, expect, it } from "vitest";
import { Client, InvalidArgumentError } from "../../src/node.js";
import { ToolSearch } from "../../src/adapters/index.js";
import { MAX_FIELD_CHARS, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, searchArguments } from "../../src/host/tool-search.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { count, safetyRow } from "./safety.js";

async function serving(tools: unknown[]): Promise<Client> {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ capabilities: { tools: {} } });
  raw.handle("tools/list", () => ({ tools }));
  raw.handle("ping", () => ({}));
  const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
  await client.connect("s", raw.target);
  return client;
}

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object", properties: { path: { type: "string", description: "a path" } } } });
const FEW = [tool("read_file", "Reads a file from disk"), tool("write_file", "Writes a file to disk"), tool("search_web", "Searches the web for pages")];
const names = (hits: ReadonlyArray<{ tool: { name: string } }>) => hits.map((hit) => hit.tool.name);

describe("hostile queries", () => {
  it("too long, only stop words, unicode, regex metacharacters, a thousand distinct words: an error or a bounded answer", async (context) => {
    const client = await serving(FEW);
    const search = new ToolSearch(client);
    // Past the bound, refused before any of it is read: 10 MiB costs what 1 001 characters do.
    for (const query of ["x".repeat(MAX_QUERY_CHARS + 1), "file ".repeat(2 * 1024 * 1024)]) {
      await expect(client.searchTools(query)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(search.run({ query })).rejects.toBeInstanceOf(TypeError);
    }
    await expect(client.searchTools(42 as unknown as string)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(search.run({ query: "file", limit: 1e9 })).rejects.toBeInstanceOf(TypeError);
    await expect(client.searchTools("file", { limit: MAX_SEARCH_LIMIT + 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.searchTools("file", { limit: Number.NaN })).rejects.toBeInstanceOf(InvalidArgumentError);
    // Nothing to search for: no hits, not every tool.
    for (const query of ["the of and a to is in it", "", "   ", "!!!???", ".*+?^${}()|[]\\/", "(a+)+$", "\u0000\u0001\u0002", "\ud800\udfff\ud800", "🙂🙃🔥", "\u202e\u200b\u2066"]) {
      expect(await client.searchTools(query), JSON.stringify(query)).toEqual([]);
    }
    // Metacharacters around words are only separators; letters of other scripts are words.
    expect(names(await client.searchTools("^read.*file$|(disk)"))).toEqual(["read_file", "write_file"]);
    expect(await client.searchTools("файл ファイル ملف")).toEqual([]);
    // A thousand characters of distinct words: the first 64 terms are searched, the answer bounded by limit.
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ").slice(0, MAX_QUERY_CHARS);
    expect(searchArguments(`file ${many}`, 3).terms).toHaveLength(64);
    expect(names(await client.searchTools(`file ${many}`, { limit: 2 }))).toHaveLength(2);
    safetyRow(context, {
      area: "Tool search",
      tried: `queries of ${count(MAX_QUERY_CHARS + 1)} characters and of 10 MiB; of stop words only, control characters, lone surrogates, emoji, bidi marks, regex metacharacters (\`(a+)+$\`); of a thousand characters of distinct words`,
      over: "stdio, in process",
      outcome: `past ${count(MAX_QUERY_CHARS)} characters an \`InvalidArgumentError\` (a \`TypeError\` to a model through \`tool_search\`) before any is read; no words, no hits; metacharacters are separators, never a pattern; at most 64 terms and \`limit\` hits`,
    });
  });
});

describe("hostile catalogs", () => {
  it("a megabyte of capitals in a description, names of 100 000 characters, a term repeated: indexed in bounded time", async (context) => {
    const MiB = 1024 * 1024;
    const client = await serving([
      // Before the fix, splitting `HTMLParser`-style words backtracked over the run of capitals
      // from each of its letters: this description took longer than any test's timeout.
      tool("shouting", `needle ${"A".repeat(MiB)}`),
      tool("late", `${"padding ".repeat(MAX_FIELD_CHARS / 8)} hidden`),
      tool("n".repeat(100_000), "a tool with a long name"),
      tool("repeats", "file ".repeat(200_000)),
      ...FEW,
    ]);
    expect(names(await client.searchTools("needle"))).toEqual(["shouting"]);
    // What lies past the first MAX_FIELD_CHARS characters of a field is not read.
    expect(await client.searchTools("hidden")).toEqual([]);
    expect(names(await client.searchTools("long name"))).toEqual(["n".repeat(100_000)]);
    // A term repeated 200 000 times saturates (BM25) and is read 2 000 times at most: it ranks, it does not drown the others.
    const hits = await client.searchTools("file disk");
    expect(names(hits).slice(0, 2).sort()).toEqual(["read_file", "write_file"]);
    expect(names(hits)).toContain("repeats");
    safetyRow(context, {
      area: "Tool search",
      tried: "a tool described by 1 MiB of capital letters, one by a term repeated 200 000 times, one named by 100 000 characters",
      over: "stdio",
      outcome: `indexed in time linear in what is read: ${count(MAX_FIELD_CHARS)} characters and 2 000 words of a field at most (the split of \`HTMLParser\`-style words was quadratic in a run of capitals, now a lookahead); a repeated term saturates and does not outrank the tools that match`,
    });
  });

  it("100 000 tools from one server, all holding the query's term: limit hits, best first, the client still answers", async (context) => {
    const n = 100_000;
    const tools = Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, description: `common term ${i % 7 === 0 ? "rare" : "plain"}`, inputSchema: { type: "object" } }));
    const client = await serving(tools);
    const hits = await client.searchTools("common rare", { limit: MAX_SEARCH_LIMIT });
    expect(hits).toHaveLength(MAX_SEARCH_LIMIT);
    expect(hits.every((hit) => hit.tool.description!.endsWith("rare"))).toBe(true);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(await client.searchTools("absent")).toEqual([]);
    expect(names(await client.searchTools("tool_99999"))[0]).toBe("tool_99999");
    await client.server("s")!.ping();
    safetyRow(context, {
      area: "Tool search",
      tried: `${count(n)} tools from one server, every one holding the query's term`,
      over: "stdio",
      outcome: `at most \`limit\` hits (${count(MAX_SEARCH_LIMIT)} at most), best first, only those kept are sorted; a name asked for is first; the server's pings answered`,
    });
  }, 120_000);
});
