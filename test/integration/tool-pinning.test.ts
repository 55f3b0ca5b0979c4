// Pinning: a real stdio server (pinned-tools-server.mjs) changes its tools and says so with
// `notifications/tools/list_changed`; the catalog compares each listing with the one before,
// reports the difference, and with "block-changed" / "approve-new" holds tools back from
// `tools()` and `callTool` until the host approves them. The pins live in a Store, so a second
// Client sharing it judges a server by what the first one approved.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, InvalidArgumentError, ToolNotApprovedError, fileStore, memoryStore, type CatalogChange, type ClientOptions, type Store } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const SERVER = fileURLToPath(new URL("../fixtures/pinned-tools-server.mjs", import.meta.url));

/** The changes reported, and a wait for the next one (a hook call is an event, not a time). */
class Changes {
  readonly seen: CatalogChange[] = [];
  private waiters: Array<() => void> = [];
  readonly hook = (change: CatalogChange): void => {
    this.seen.push(change);
    for (const wake of this.waiters.splice(0)) wake();
  };
  async count(n: number): Promise<CatalogChange[]> {
    while (this.seen.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.seen;
  }
}

interface Setup {
  client: Client;
  changes: Changes;
  logger: CapturingLogger;
}

async function setup(options: Partial<ClientOptions>, args: string[] = []): Promise<Setup> {
  const changes = new Changes();
  const logger = capturingLogger();
  const client = track(new Client({ name: "pin-host", version: "1.0.0", logger, onCatalogChange: changes.hook, pinning: {}, ...options }));
  await client.connect("s", { command: process.execPath, args: [SERVER, ...args] });
  return { client, changes, logger };
}

async function names(client: Client): Promise<string[]> {
  return (await client.tools()).map((tool) => tool.name).sort();
}

async function mutate(client: Client, op: string): Promise<void> {
  // The server's own handle: the remote control is not a tool under test.
  await client.server("s")!.callTool("mutate", { op });
}

async function qualified(client: Client, name: string): Promise<string> {
  const tools = await client.tools({ audience: "all" });
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no ${name} in the catalog`);
  return tool.qualifiedName;
}

describe("pinning: report", () => {
  it("trusts the first listing without a word, then reports a swapped description once and keeps the tool", async () => {
    const { client, changes } = await setup({ pinning: { policy: "report" } });
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    const read = await qualified(client, "read");
    await mutate(client, "describe");
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    expect(await changes.count(1)).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);
    await expect(client.callTool(read, { path: "a" })).resolves.toMatchObject({ content: [{ type: "text", text: "read" }] });
    // Listed again with nothing new: no second report (the one before would be first in `seen`).
    await client.tools({ refresh: true });
    await mutate(client, "add");
    await client.tools();
    expect(await changes.count(2)).toEqual([
      { serverId: "s", added: [], removed: [], changed: ["read"] },
      { serverId: "s", added: ["extra"], removed: [], changed: [] },
    ]);
  });

  it("sees a rename as one tool removed and one added, and a changed input schema as a change", async () => {
    const { client, changes } = await setup({});
    await client.tools();
    await mutate(client, "rename");
    expect(await names(client)).toEqual(["mutate", "read", "write2"]);
    await mutate(client, "schema");
    await client.tools();
    expect(await changes.count(2)).toEqual([
      { serverId: "s", added: ["write2"], removed: ["write"], changed: [] },
      { serverId: "s", added: [], removed: [], changed: ["read"] },
    ]);
  });
});

describe("pinning: block-changed", () => {
  it("leaves a changed tool out of tools() and refuses its call until approveTools, and approves new tools", async () => {
    const { client, changes } = await setup({ pinning: { policy: "block-changed" } });
    const read = await qualified(client, "read");
    await mutate(client, "describe");
    expect(await names(client)).toEqual(["mutate", "write"]);
    expect(await client.searchTools("read file")).not.toContainEqual(expect.objectContaining({ name: "read" }));
    const refused = await client.callTool(read, { path: "a" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolNotApprovedError);
    expect(refused).toMatchObject({ kind: "unsupported", serverId: "s", toolName: "read", reason: "changed", qualifiedName: read });
    expect(await changes.count(1)).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);

    await client.approveTools("s", ["read"]);
    const tools = await client.tools();
    expect(tools.find((tool) => tool.name === "read")?.description).toMatch(/id_rsa/);
    await expect(client.callTool(read, { path: "a" })).resolves.toMatchObject({ content: [{ type: "text", text: "read" }] });

    // Under "block-changed" a tool new since the first listing is trusted as it comes.
    await mutate(client, "add");
    expect(await names(client)).toEqual(["extra", "mutate", "read", "write"]);
  });

  it("blocks a changed schema too, and refuses to approve a name its server did not list", async () => {
    const { client } = await setup({ pinning: { policy: "block-changed" } });
    await client.tools();
    await mutate(client, "schema");
    expect(await names(client)).toEqual(["mutate", "write"]);
    await expect(client.approveTools("s", ["nope"])).rejects.toMatchObject({ kind: "usage", message: expect.stringMatching(/nope/) });
    await expect(client.approveTools("other", ["read"])).rejects.toMatchObject({ kind: "usage" });
    await expect(client.approveTools("s", "read" as unknown as string[])).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await names(client)).toEqual(["mutate", "write"]);
  });
});

describe("pinning: approve-new", () => {
  it("holds a tool added after the first listing until it is approved", async () => {
    const { client, changes } = await setup({ pinning: { policy: "approve-new" } });
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    await mutate(client, "add");
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    expect(await changes.count(1)).toEqual([{ serverId: "s", added: ["extra"], removed: [], changed: [] }]);
    await client.approveTools("s", ["extra"]);
    expect(await names(client)).toEqual(["extra", "mutate", "read", "write"]);
  });
});

interface Kept {
  store: Store;
  done: () => Promise<void>;
}

describe("pinning: the pins are kept in a store", () => {
  it.each([
    ["a memoryStore shared by two Clients", (): Promise<Kept> => Promise.resolve({ store: memoryStore(), done: () => Promise.resolve() })],
    [
      "a fileStore",
      async (): Promise<Kept> => {
        const dir = await mkdtemp(join(tmpdir(), "conduit-pins-"));
        return { store: fileStore(join(dir, "store.json")), done: () => rm(dir, { recursive: true, force: true }) };
      },
    ],
  ])("a second Client judges the server by the first one's pins (%s)", async (_name, make) => {
    const { store, done } = await make();
    try {
      const first = await setup({ pinning: { store, policy: "block-changed" } });
      expect(await names(first.client)).toEqual(["mutate", "read", "write"]);
      await first.client.close();

      // Another Client, another process of the server, which now describes `read` otherwise.
      const second = await setup({ pinning: { store, policy: "block-changed" } }, ["--swapped"]);
      expect(await names(second.client)).toEqual(["mutate", "write"]);
      expect(await second.changes.count(1)).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);
      await second.client.approveTools("s", ["read"]);
      await second.client.close();

      // The approval was kept: a third Client takes the swapped description as the pinned one.
      const third = await setup({ pinning: { store, policy: "block-changed" } }, ["--swapped"]);
      expect(await names(third.client)).toEqual(["mutate", "read", "write"]);
      await mutate(third.client, "add");
      await third.client.tools();
      expect(await third.changes.count(1)).toEqual([{ serverId: "s", added: ["extra"], removed: [], changed: [] }]);
    } finally {
      await done();
    }
  });

  it("a Client with a store of its own trusts the swapped server on first use", async () => {
    const { client, changes } = await setup({ pinning: { store: memoryStore(), policy: "block-changed" } }, ["--swapped"]);
    expect(await names(client)).toEqual(["mutate", "read", "write"]);
    await mutate(client, "add");
    await client.tools();
    expect(await changes.count(1)).toEqual([{ serverId: "s", added: ["extra"], removed: [], changed: [] }]);
  });
});

describe("pinning: the host's hook", () => {
  it("a throwing onCatalogChange is logged and the catalog goes on, and later changes are still told", async () => {
    const logger = capturingLogger();
    const seen: CatalogChange[] = [];
    let told: () => void = () => {};
    const second = new Promise<void>((resolve) => (told = resolve));
    const client = track(
      new Client({
        name: "pin-host", version: "1.0.0", logger, pinning: { policy: "block-changed" },
        onCatalogChange: (change) => {
          seen.push(change);
          if (seen.length === 2) told();
          throw new Error("the host's hook broke");
        },
      }),
    );
    await client.connect("s", { command: process.execPath, args: [SERVER] });
    await client.tools();
    await mutate(client, "describe");
    expect((await client.tools()).map((tool) => tool.name).sort()).toEqual(["mutate", "write"]);
    await mutate(client, "rename");
    expect((await client.tools()).map((tool) => tool.name).sort()).toEqual(["mutate", "write2"]);
    await second;
    expect(seen.map((change) => change.changed.length + change.added.length + change.removed.length)).toEqual([1, 2]);
    expect(logger.warnings("threw").length).toBeGreaterThanOrEqual(1);
  });
});

describe("annotations are trusted only for the servers the host names", () => {
  it("marks the tools of a trusted server annotationsTrusted, and of any other none", async () => {
    const client = track(new Client({ name: "pin-host", version: "1.0.0", logger: capturingLogger(), trustedServers: ["mine"] }));
    await client.connect("mine", { command: process.execPath, args: [SERVER] });
    await client.connect("theirs", { command: process.execPath, args: [SERVER] });
    const tools = await client.tools();
    const read = (serverId: string) => tools.find((tool) => tool.serverId === serverId && tool.name === "read")!;
    expect(read("mine")).toMatchObject({ annotationsTrusted: true, annotations: { readOnlyHint: true } });
    expect(read("theirs")).not.toHaveProperty("annotationsTrusted");
    expect(read("theirs").annotations).toEqual({ readOnlyHint: true });
  });
});

describe("the pinning options are checked", () => {
  const base = { name: "pin-host", version: "1.0.0" };
  it.each([
    ["an unknown key", { pinning: { polcy: "report" } }, /pinning/],
    ["an unknown policy", { pinning: { policy: "block-all" } }, /pinning\.policy/],
    ["a store that is no Store", { pinning: { store: {} } }, /pinning\.store/],
    ["a hook without pinning", { onCatalogChange: () => {} }, /needs `pinning`/],
    ["a hook that is no function", { pinning: {}, onCatalogChange: "log" }, /onCatalogChange/],
    ["trustedServers not an array of ids", { trustedServers: "mine" }, /trustedServers/],
  ])("refuses %s", (_name, options, message) => {
    expect(() => new Client({ ...base, ...options } as ClientOptions)).toThrow(InvalidArgumentError);
    expect(() => new Client({ ...base, ...options } as ClientOptions)).toThrow(message);
  });

  it("approveTools without pinning is a usage error", async () => {
    const client = track(new Client(base));
    await expect(client.approveTools("s", ["read"])).rejects.toMatchObject({ kind: "usage", message: expect.stringMatching(/pinning/) });
  });
});

