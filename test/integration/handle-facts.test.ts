// What a server handle tells of its server — `era`, `protocolVersion`, `serverInfo`,
// `serverCapabilities`, `instructions` — is read without a throw in every state: undefined until
// negotiation found it (a lazy handle, a first connect under way, a lazy one closed before it
// ever connected), what the last connection found while a server is being restarted. A host's
// list of servers reads them for every handle `client.server(id)` gives.
import { describe, expect, expectTypeOf, it } from "vitest";
import { Client, type Era, type Implementation, type ProtocolVersion, type ServerCapabilities, type ServerHandle, type ServerState } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { officialStdio } from "../helpers/official.js";
import { track } from "../helpers/cleanup.js";

function facts(server: ServerHandle) {
  return { era: server.era, protocolVersion: server.protocolVersion, serverInfo: server.serverInfo, serverCapabilities: server.serverCapabilities, instructions: server.instructions };
}

const UNKNOWN = { era: undefined, protocolVersion: undefined, serverInfo: undefined, serverCapabilities: undefined, instructions: undefined };

function newClient(): Client {
  return track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
}

describe("a handle's facts of its server", () => {
  it("are typed as possibly undefined", () => {
    expectTypeOf<ServerHandle["era"]>().toEqualTypeOf<Era | undefined>();
    expectTypeOf<ServerHandle["protocolVersion"]>().toEqualTypeOf<ProtocolVersion | undefined>();
    expectTypeOf<ServerHandle["serverInfo"]>().toEqualTypeOf<Implementation | undefined>();
    expectTypeOf<ServerHandle["serverCapabilities"]>().toEqualTypeOf<ServerCapabilities | undefined>();
  });

  it("are undefined on a lazy handle until its first use, read through client.server(id), and known once it is ready", async () => {
    const client = newClient();
    await client.connect("lazy", officialStdio("legacy"), { lazy: true });
    const handle = client.server("lazy")!;
    expect(handle.state).toBe("idle");
    expect(facts(handle)).toEqual(UNKNOWN);
    await handle.ready();
    expect(facts(handle)).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25", serverInfo: { name: "conduit-official-test-server" }, serverCapabilities: { tools: {} } });
    expect(handle.instructions).toContain("Conduit test server");
  });

  it("are undefined while the first connect is under way, as a state listener sees them", async () => {
    const client = newClient();
    const seen: Array<{ state: ServerState; facts: ReturnType<typeof facts> | Error }> = [];
    const handle = await client.connect("lazy", officialStdio("modern"), { lazy: true });
    client.onServerState(({ state }) => {
      try {
        seen.push({ state, facts: facts(handle) });
      } catch (error) {
        seen.push({ state, facts: error as Error });
      }
    });
    await handle.ready();
    expect(seen.map((s) => s.state)).toEqual(["connecting", "ready"]);
    expect(seen[0]!.facts).toEqual(UNKNOWN);
    expect(seen[1]!.facts).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
  });

  it("are undefined on a lazy handle closed before it ever connected", async () => {
    const client = newClient();
    const handle = await client.connect("lazy", officialStdio("legacy"), { lazy: true });
    await handle.close();
    expect(handle.state).toBe("closed");
    expect(facts(handle)).toEqual(UNKNOWN);
  });

  it("are the last connection's while the server is being restarted", async () => {
    const client = newClient();
    const server = await client.connect("m", officialStdio("legacy"), { restart: { backoff: { initial: 20, max: 20 } } });
    const before = facts(server);
    const during: Array<ReturnType<typeof facts>> = [];
    const back = new Promise<void>((resolve) =>
      client.onServerState(({ state }) => {
        if (state === "restarting" || state === "connecting") during.push(facts(client.server("m")!));
        if (state === "ready") resolve();
      }),
    );
    const pid = Number((((await server.callTool("pid")).content[0]) as { text: string }).text);
    process.kill(pid, "SIGKILL");
    await back;
    expect(during.length).toBeGreaterThanOrEqual(2);
    for (const seen of during) expect(seen).toEqual(before);
    expect(facts(server)).toEqual(before);
  });
});
