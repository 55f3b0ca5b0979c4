// Server configs in the shapes hosts already use (test/fixtures/configs/: Claude Desktop, Cursor,
// Windsurf, VS Code), read into targets with their variables filled, bad entries refused naming
// the server and the field; and connectAll over real servers, a few at a time, one failing.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, ClientError, loadServerConfig, type ConnectOptions, type ServerHandle, type ServerTarget } from "../../src/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/configs/${name}`, import.meta.url));
const NOTES = fileURLToPath(new URL("../../examples/servers/notes-server.mjs", import.meta.url));
const env = { NOTES_SERVER: "/srv/notes.mjs", SECRET_TOKEN: "t0k" };

describe("loadServerConfig", () => {
  it("reads Claude Desktop's mcpServers: stdio entries with their variables filled; disabled ones left out", async () => {
    expect(await loadServerConfig(fixture("claude-desktop.json"), { env })).toEqual([
      { id: "notes", target: { command: "node", args: ["/srv/notes.mjs"], env: { NOTES_TOKEN: "t0k" } } },
    ]);
  });

  it("reads Cursor's remote entries, headers and the sse type", async () => {
    expect(await loadServerConfig(fixture("cursor.json"), { env })).toEqual([
      { id: "remote", target: { url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer t0k" } } },
      { id: "legacy", target: { url: "https://old.example.com/sse", transport: "sse" } },
    ]);
  });

  it("reads Windsurf's serverUrl and cwd", async () => {
    expect(await loadServerConfig(fixture("windsurf.json"), { env })).toEqual([
      { id: "surf", target: { url: "https://surf.example.com/mcp" } },
      { id: "local", target: { command: "npx", args: ["-y", "some-server"], cwd: "/tmp" } },
    ]);
  });

  it("reads VS Code's servers with their types", async () => {
    expect(await loadServerConfig(fixture("vscode.json"), { env })).toEqual([
      { id: "github", target: { url: "https://api.example.com/mcp", headers: { "x-token": "t0k" }, transport: "streamable-http" } },
      { id: "fs", target: { command: "node", args: ["fs.js"] } },
    ]);
  });

  const bad: Array<[string, object, string]> = [
    ["an unset variable", { mcpServers: { a: { command: "node", args: ["${MISSING}"] } } }, 'server "a" in the config: "args[0]" names the environment variable MISSING'],
    ["a placeholder of VS Code's inputs", { servers: { b: { type: "http", url: "https://x.example/mcp", headers: { k: "${input:key}" } } } }, 'server "b" in the config: "headers.k" names ${input:key}'],
    ["args that are not strings", { mcpServers: { c: { command: "node", args: [1] } } }, 'server "c" in the config: "args" must be an array of strings'],
    ["an unknown type", { mcpServers: { d: { type: "ws", url: "wss://x.example" } } }, 'server "d" in the config: "type" is "ws"'],
    ["neither a command nor a url", { mcpServers: { e: {} } }, 'server "e" in the config: "url" is needed'],
    ["a url that is not one", { mcpServers: { f: { url: "not a url" } } }, 'server "f" in the config: "url" is not a URL'],
  ];
  it.each(bad)("refuses %s, naming the server and the field", async (_what, config, message) => {
    const error = await loadServerConfig(config, { env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "usage" });
    expect((error as Error).message).toContain(message);
  });

  it("refuses a file that is not JSON, and a config without servers", async () => {
    await expect(loadServerConfig(NOTES)).rejects.toMatchObject({ kind: "usage" });
    await expect(loadServerConfig({ servers: [] })).rejects.toMatchObject({ kind: "usage" });
  });
});

/** A client that counts the connects under way at once. */
class CountingClient extends Client {
  now = 0;
  most = 0;

  override async connect(id: string, target: ServerTarget, options?: ConnectOptions): Promise<ServerHandle> {
    this.most = Math.max(this.most, ++this.now);
    try {
      return await super.connect(id, target, options);
    } finally {
      this.now--;
    }
  }
}

describe("connectAll", () => {
  it("connects a config's servers a few at a time; one that fails is reported, the others are ready", async () => {
    const client = track(new CountingClient({ name: "host", version: "1", logger: capturingLogger() }));
    const notes = { command: process.execPath, args: [NOTES] };
    const config = { mcpServers: { a: notes, broken: { command: "/nonexistent/mcp-server" }, b: notes, c: notes } };
    const { ready, failed } = await client.connectAll(config, { concurrency: 2, connectTimeout: 10_000 });
    expect(ready.map((s) => s.id)).toEqual(["a", "b", "c"]);
    expect(failed.map((f) => f.id)).toEqual(["broken"]);
    expect(failed[0]!.error).toMatchObject({ kind: "transport" });
    expect(client.most).toBe(2);
    expect((await ready[1]!.callTool("word_count", {})).isError).not.toBe(true);
    expect(client.servers().map((s) => s.id).sort()).toEqual(["a", "b", "c"]);
  });

  it("refuses a concurrency that is not a whole number of at least 1", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await expect(client.connectAll({ mcpServers: {} }, { concurrency: 0 })).rejects.toThrow(/concurrency/);
    // @ts-expect-error: a misspelt option is refused at once, not reported as each server's failure
    await expect(client.connectAll({ mcpServers: {} }, { concurency: 2 })).rejects.toThrow(/concurency/);
  });
});
