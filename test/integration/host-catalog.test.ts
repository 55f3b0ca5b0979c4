// One catalog across servers: real notes servers with the same tool names, and raw servers
// whose names clash once qualified or are too long; qualified names valid for model APIs and
// stable; calls routed by them; lists cached until the server says they changed.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client } from "../../src/index.js";
import { qualify } from "../../src/host/catalog.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const NOTES = { command: process.execPath, args: [fileURLToPath(new URL("../../examples/servers/notes-server.mjs", import.meta.url))] };
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

async function rawWithTools(names: string[]): Promise<RawStdioServer> {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ capabilities: { tools: { listChanged: true } } });
  raw.handle("tools/list", () => ({ tools: names.map((name) => ({ name, inputSchema: { type: "object" } })) }));
  raw.handle("tools/call", (m) => ({ content: [{ type: "text", text: `called ${String(m.params?.["name"])}` }] }));
  return raw;
}

describe("the catalog", () => {
  it("gives every ready server's tools with their serverId, distinct qualified names, and routes calls by them", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await client.connect("a", NOTES);
    await client.connect("b", NOTES);
    const tools = await client.tools();
    const names = tools.map((t) => t.qualifiedName);
    expect(names).toContain("a_add_note");
    expect(names).toContain("b_add_note");
    expect(new Set(names).size).toBe(names.length);
    expect(tools.find((t) => t.qualifiedName === "b_word_count")).toMatchObject({ serverId: "b", name: "word_count" });
    const saved = await client.callTool("b_add_note", { title: "x", body: "only on b" });
    expect(saved.content).toEqual([{ type: "text", text: 'saved "x" (2 notes)' }]);
    expect((await client.resources()).map((r) => r.serverId).sort()).toEqual(["a", "b"]);
    expect((await client.prompts()).map((p) => `${p.serverId}:${p.name}`)).toEqual(["a:summarise", "b:summarise"]);
    await expect(client.callTool("c_nothing", {})).rejects.toMatchObject({ kind: "usage" });
  });

  it("shortens names that are too long or clash with a stable hash, never merging two tools", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const long = "x".repeat(80);
    await client.connect("a_b", (await rawWithTools(["c", long])).target);
    await client.connect("a", (await rawWithTools(["b_c", "weird name!"])).target);
    const tools = await client.tools();
    for (const tool of tools) expect(tool.qualifiedName).toMatch(VALID);
    const byServer = (id: string, name: string) => tools.find((t) => t.serverId === id && t.name === name)!.qualifiedName;
    expect(byServer("a_b", "c")).toBe("a_b_c");
    expect(byServer("a", "b_c")).not.toBe("a_b_c");
    expect(byServer("a", "b_c")).toMatch(/^a_b_c_[0-9a-f]{8}$/);
    expect(byServer("a", "weird name!")).toBe("a_weird_name_");
    expect(byServer("a_b", long)).toHaveLength(64);
    // Stable: the same server and name, the same name, run after run.
    expect(qualify("a", "b_c", new Set(["a_b_c"]))).toBe(byServer("a", "b_c"));
    expect((await client.callTool(byServer("a", "b_c"), {})).content).toEqual([{ type: "text", text: "called b_c" }]);
  });

  it("keeps a server's list until it says the list changed, or the host asks afresh", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = await rawWithTools(["t"]);
    await client.connect("s", raw.target);
    const lists = () => (raw.messages as Array<{ method?: string }>).filter((m) => m.method === "tools/list").length;
    await client.tools();
    await client.tools();
    expect(lists()).toBe(1);
    // The catalog listens from its first use; a listener added now runs after it, in the same queue.
    const delivered = new Promise<void>((resolve) => client.onNotification(({ method }) => method === "notifications/tools/list_changed" && resolve()));
    await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await delivered;
    await client.tools();
    expect(lists()).toBe(2);
    await client.tools({ refresh: true });
    expect(lists()).toBe(3);
  });
});
