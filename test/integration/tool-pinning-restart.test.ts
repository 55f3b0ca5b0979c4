// Pinning across a restart: a real stdio server (pinned-tools-server.mjs with `--starts`) crashes,
// is brought back by the Client's restart policy, and the new process describes `read`
// otherwise. With "block-changed" the catalog holds the changed tool back from `tools()` and
// refuses its call until the host approves it, and onCatalogChange reports it once. A call made
// before anything lists again is judged by what the new process lists, not by the tools the
// server had before it broke.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Client, ToolNotApprovedError, type CatalogChange, type ServerStateChange } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const SERVER = fileURLToPath(new URL("../fixtures/pinned-tools-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "conduit-pin-restart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface Setup {
  client: Client;
  changes: CatalogChange[];
  starts: () => number;
  /** Crashes the server and resolves once the restart policy has it ready again. */
  crash: () => Promise<void>;
}

async function setup(): Promise<Setup> {
  const file = join(dir, `starts-${files++}`);
  writeFileSync(file, "");
  const changes: CatalogChange[] = [];
  const client = track(new Client({ name: "pin-host", version: "1.0.0", logger: capturingLogger(), pinning: { policy: "block-changed" }, onCatalogChange: (change) => changes.push(change) }));
  const states: ServerStateChange[] = [];
  let readied: () => void = () => {};
  client.onServerState((change) => {
    states.push(change);
    if (change.state === "ready" && states.some((seen) => seen.state === "restarting")) readied();
  });
  const server = await client.connect("s", { command: process.execPath, args: [SERVER, "--starts", file] }, { restart: { backoff: { initial: 20, max: 100 } } });
  const crash = async (): Promise<void> => {
    const ready = new Promise<void>((resolve) => (readied = resolve));
    await expect(server.callTool("mutate", { op: "exit" })).rejects.toMatchObject({ kind: "transport", serverId: "s" });
    await ready;
  };
  return { client, changes, starts: () => readFileSync(file, "utf8").split("\n").filter(Boolean).length, crash };
}

async function names(client: Client): Promise<string[]> {
  return (await client.tools()).map((tool) => tool.name).sort();
}

async function qualified(client: Client, name: string): Promise<string> {
  const tool = (await client.tools({ audience: "all" })).find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no ${name} in the catalog`);
  return tool.qualifiedName;
}

describe("pinning across a restart (block-changed)", () => {
  it("holds back a tool the restarted server changed, refuses its call, reports it, and gives it once approved", async () => {
    const { client, changes, starts, crash } = await setup();
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    const read = await qualified(client, "read");
    await crash();
    expect(starts()).toBe(2);

    expect(await names(client)).toEqual(["mutate", "write"]);
    expect(await client.searchTools("read file")).not.toContainEqual(expect.objectContaining({ tool: expect.objectContaining({ name: "read" }) }));
    const refused = await client.callTool(read, { path: "a" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolNotApprovedError);
    expect(refused).toMatchObject({ kind: "unsupported", serverId: "s", toolName: "read", reason: "changed", qualifiedName: read });
    expect(changes).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);

    await client.approveTools("s", ["read"]);
    expect((await client.tools()).find((tool) => tool.name === "read")?.description).toMatch(/id_rsa/);
    await expect(client.callTool(read, { path: "a" })).resolves.toMatchObject({ content: [{ type: "text", text: "read" }] });
    // The same name comes back under the same qualified name: what a model was given still calls it.
    expect(await qualified(client, "read")).toBe(read);
    expect(changes).toHaveLength(1);
  });

  it("refuses a call made right after the restart, before anything listed the new process's tools", async () => {
    const { client, changes, crash } = await setup();
    const read = await qualified(client, "read");
    await crash();
    const refused = await client.callTool(read, { path: "a" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolNotApprovedError);
    expect(refused).toMatchObject({ toolName: "read", reason: "changed" });
    expect(changes).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);
    // A tool the new process did not change is called as before.
    const write = await qualified(client, "write");
    await expect(client.callTool(write, { path: "a", text: "b" })).resolves.toMatchObject({ content: [{ type: "text", text: "write" }] });
  });

  it("refuses a call made right after a list_changed, before anything listed again (no restart)", async () => {
    const { client, changes } = await setup();
    const read = await qualified(client, "read");
    // The notification comes before mutate's answer on the one pipe: the catalog has heard it.
    await client.server("s")!.callTool("mutate", { op: "describe" });
    await expect(client.callTool(read, { path: "a" })).rejects.toBeInstanceOf(ToolNotApprovedError);
    expect(changes).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);
  });
});
