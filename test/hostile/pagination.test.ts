// Pagination a server never ends, over stdio and HTTP: a listing stops at the first of its
// bounds (LIST_BOUNDS: 1 000 pages, 100 000 items, 4 MiB of cursors and 64 Mi characters of
// JSON in all) with a "protocol"
// error naming it, and the client goes on answering. A cursor that repeats is refused as before.
import { describe, expect, it } from "vitest";
import { Client, type ServerHandle } from "../../src/node.js";
import { LIST_BOUNDS } from "../../src/protocol/results.js";
import { startRawStdio, type RpcMessage } from "../helpers/raw-stdio.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";
import { countingLogger, MB, sampleMemory } from "./probe.js";
import { count, safetyRow } from "./safety.js";

/** The bounds, as documented: the tests below cross each. */
const BOUNDS = { pages: 1_000, items: 100_000, cursorCharacters: 4 * 1024 * 1024, listCharacters: 64 * 1024 * 1024 };
/** Each page one tool described in this much: the page of the listing that crosses the bound. */
const BIG_PAGE_MB = 20;
const BIG_PAGES_CROSSING = Math.floor(BOUNDS.listCharacters / (BIG_PAGE_MB * MB)) + 1;
/** Page n's cursor is n MiB long: the page whose cursor crosses the bound. */
const CURSOR_PAGES_CROSSING = 3;
/** The heap a listing of 100 000 items takes at most; one of 20 MiB pages. */
const HEAP_BOUND_MB = 200;
const BIG_HEAP_BOUND_MB = 400;

it("LIST_BOUNDS are the documented ones", () => {
  expect(LIST_BOUNDS).toEqual(BOUNDS);
});

type Page = Record<string, unknown>;
type Pager = (cursor: string | undefined) => Page;

interface Listing {
  server: ServerHandle;
  /** Serves `method`'s pages; returns how many were asked for. */
  serve: (method: string, pager: Pager) => { readonly asked: number };
}

const cursorOf = (message: RpcMessage): string | undefined => (message.params as { cursor?: string } | undefined)?.cursor;

async function over(transport: "stdio" | "http"): Promise<Listing> {
  const client = track(new Client({ name: "h", version: "0", logger: countingLogger() }));
  let raw: { handle(method: string, answer: (message: RpcMessage) => Page): void };
  let server: ServerHandle;
  if (transport === "stdio") {
    const stdio = track(await startRawStdio());
    stdio.autoInitialize();
    stdio.handle("ping", () => ({}));
    server = await client.connect("lister", stdio.target);
    raw = stdio;
  } else {
    const http = track(await startRawHttp());
    http.handle("ping", () => ({}));
    server = await client.connect("lister", { url: http.url });
    raw = http;
  }
  return {
    server,
    serve: (method, pager) => {
      const count = { asked: 0 };
      raw.handle(method, (message) => {
        count.asked += 1;
        return pager(cursorOf(message));
      });
      return count;
    },
  };
}

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
/** Page `n` (from 1) of an endless list: `cursor` is the number of the page it asks for. */
const pageNumber = (cursor: string | undefined): number => (cursor === undefined ? 1 : Number(cursor));

const LISTS = [
  { method: "tools/list", key: "tools", list: (s: ServerHandle) => s.listTools(), entry: (i: number) => tool(`t${i}`) },
  { method: "resources/list", key: "resources", list: (s: ServerHandle) => s.listResources(), entry: (i: number) => ({ uri: `mem://r${i}`, name: `r${i}` }) },
  { method: "prompts/list", key: "prompts", list: (s: ServerHandle) => s.listPrompts(), entry: (i: number) => ({ name: `p${i}` }) },
] as const;

/** A legacy stdio server whose every tools/list page is one tool described in 20 MiB, without end. */
const BIG_PAGES = String.raw`
const description = "d".repeat(${BIG_PAGE_MB} * 1024 * 1024);
const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize") return out({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "big", version: "0" } } });
  if (m.method === "tools/list") {
    const page = Number(m.params?.cursor ?? 1);
    return out({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "t" + page, inputSchema: { type: "object" }, description }], nextCursor: String(page + 1) } });
  }
  if (m.method === "ping") return out({ jsonrpc: "2.0", id: m.id, result: {} });
  out({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
});
`;

async function bigPagesOverStdio(): Promise<{ server: ServerHandle; served: undefined }> {
  const client = track(new Client({ name: "h", version: "0", logger: countingLogger() }));
  return { server: await client.connect("lister", { command: process.execPath, args: ["-e", BIG_PAGES] }), served: undefined };
}

async function bigPagesOverHttp(): Promise<{ server: ServerHandle; served: { readonly asked: number } }> {
  const { server, serve } = await over("http");
  const description = "d".repeat(BIG_PAGE_MB * MB);
  const served = serve("tools/list", (cursor) => {
    const page = pageNumber(cursor);
    return { tools: [{ ...tool(`t${page}`), description }], nextCursor: String(page + 1) };
  });
  return { server, served };
}

const OVER = { stdio: "stdio", http: "Streamable HTTP" } as const;

describe.each(["stdio", "http"] as const)("a listing over %s", (transport) => {
  it.for(LISTS)("of $method stops at the 1 001st page of an endless list", async ({ method, key, list, entry }, context) => {
    const { server, serve } = await over(transport);
    const served = serve(method, (cursor) => {
      const page = pageNumber(cursor);
      return { [key]: [entry(page)], nextCursor: String(page + 1) };
    });
    await expect(list(server)).rejects.toMatchObject({
      kind: "protocol",
      serverId: "lister",
      message: `${method} did not end after ${BOUNDS.pages} pages, the bound of one listing: the server's list is endless or too large`,
    });
    // The 1 000th page names a 1 001st: it is not asked for.
    expect(served.asked).toBe(BOUNDS.pages);
    await server.ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a list that never ends (`tools/list`, `resources/list`, `prompts/list`: each page names a next one)",
      over: OVER[transport],
      outcome: `the listing fails with \`protocol\` after ${count(BOUNDS.pages)} pages (\`LIST_BOUNDS.pages\`); the ${count(BOUNDS.pages + 1)}st is never asked for; the server still answers`,
    });
  });

  it("stops at the 100 001st item, and takes a list of exactly 100 000", async (context) => {
    const { server, serve } = await over(transport);
    const perPage = 10_000;
    const full = BOUNDS.items / perPage;
    let last: Page = { tools: [] };
    serve("tools/list", (cursor) => {
      const page = pageNumber(cursor);
      if (page > full) return last;
      return { tools: Array.from({ length: perPage }, (_, i) => tool(`t${(page - 1) * perPage + i}`)), nextCursor: String(page + 1) };
    });
    const memory = sampleMemory();
    expect(await server.listTools()).toHaveLength(BOUNDS.items);
    last = { tools: [tool("one-too-many")], nextCursor: "never-asked" };
    await expect(server.listTools()).rejects.toMatchObject({
      kind: "protocol",
      message: `tools/list listed more than ${BOUNDS.items} items (at page ${full + 1}), the bound of one listing: the server's list is endless or too large`,
    });
    expect(memory.stop().heapUsed / MB).toBeLessThan(HEAP_BOUND_MB);
    expect((await server.listToolsPage()).tools).toHaveLength(perPage);
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(BOUNDS.items)} tools in ${full} pages, then one more`,
      over: OVER[transport],
      outcome: `${count(BOUNDS.items)} are listed; the ${count(BOUNDS.items + 1)}st fails the listing with \`protocol\` (\`LIST_BOUNDS.items\`); heap < ${HEAP_BOUND_MB} MiB`,
    });
  });

  it("stops when the cursors pass 4 MiB in all", async (context) => {
    const { server, serve } = await over(transport);
    // The cursor of page n is n MiB long.
    const served = serve("prompts/list", (cursor) => {
      const page = cursor === undefined ? 1 : Number(cursor.split(":")[0]) + 1;
      return { prompts: [], nextCursor: `${page}:`.padEnd(page * MB, "c") };
    });
    await expect(server.listPrompts()).rejects.toMatchObject({
      kind: "protocol",
      message: expect.stringMatching(new RegExp(`^prompts/list's cursors passed ${BOUNDS.cursorCharacters} characters in all \\(at page \\d+\\)`)),
    });
    // 1, 2, 3 MiB long: the third brings them past 4 MiB.
    expect(served.asked).toBe(CURSOR_PAGES_CROSSING);
    await server.ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "cursors of n MiB on page n (each page's longer)",
      over: OVER[transport],
      outcome: `the listing fails with \`protocol\` once the cursors it keeps pass ${count(BOUNDS.cursorCharacters)} characters (\`LIST_BOUNDS.cursorCharacters\`), at page ${CURSOR_PAGES_CROSSING}`,
    });
  });

  it("stops when the pages pass 64 Mi characters of JSON in all, each within maxMessageBytes", async (context) => {
    // One tool a page, described in 20 MiB: the 4th page brings the listing past 64 Mi. Over
    // stdio a server of its own writes them: the raw relay would take seconds to carry 20 MiB.
    const { server, served } = transport === "stdio" ? await bigPagesOverStdio() : await bigPagesOverHttp();
    const memory = sampleMemory();
    await expect(server.listTools()).rejects.toMatchObject({
      kind: "protocol",
      message: `tools/list's pages passed ${BOUNDS.listCharacters} characters of JSON in all (at page ${BIG_PAGES_CROSSING}), the bound of one listing: the server's list is endless or too large`,
    });
    if (served !== undefined) expect(served.asked).toBe(BIG_PAGES_CROSSING);
    expect(memory.stop().heapUsed / MB).toBeLessThan(BIG_HEAP_BOUND_MB);
    // One page alone is not measured, and not bounded but by maxMessageBytes.
    expect((await server.listToolsPage()).tools).toHaveLength(1);
    await server.ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `pages of ${BIG_PAGE_MB} MiB each (one tool a page, its description ${BIG_PAGE_MB} MiB), without end`,
      over: OVER[transport],
      outcome: `the listing fails with \`protocol\` at page ${BIG_PAGES_CROSSING}, past ${count(BOUNDS.listCharacters)} characters of JSON in all (\`LIST_BOUNDS.listCharacters\`); heap < ${BIG_HEAP_BOUND_MB} MiB`,
    });
  });

  it("still refuses a cursor that repeats", async (context) => {
    const { server, serve } = await over(transport);
    const next: Record<string, string> = { start: "a", a: "b", b: "a" };
    serve("resources/list", (cursor) => ({ resources: [], nextCursor: next[cursor ?? "start"] }));
    await expect(server.listResources()).rejects.toMatchObject({ kind: "protocol", message: 'the server repeated the resources/list cursor "a"' });
    await server.ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a cursor that repeats (a → b → a)",
      over: OVER[transport],
      outcome: "the listing fails with `protocol` naming the repeated cursor; the server still answers",
    });
  });
});
