// @modelcontextprotocol/server-everything as a real legacy peer, in its stdio and streamableHttp modes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ServerHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { EVERYTHING_SERVER, everythingHttp, type HttpServerProcess } from "../helpers/official.js";

describe.each(["stdio", "http"] as const)("server-everything over %s", (transport) => {
  let client: Client;
  let server: ServerHandle;
  let http: HttpServerProcess | undefined;

  beforeAll(async () => {
    client = new Client({ name: "conduit-test", version: "0.0.1", logger: capturingLogger() });
    if (transport === "http") {
      http = await everythingHttp();
      server = await client.connect("everything", { url: http.url });
    } else {
      server = await client.connect("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] });
    }
  });

  afterAll(async () => {
    await client.close();
    await http?.close();
  });

  it("negotiates the legacy era", () => {
    expect(server.era).toBe("legacy");
    expect(server.protocolVersion).toBe("2025-11-25");
    expect(server.serverInfo?.name).toBe("mcp-servers/everything");
  });

  it("lists and calls tools", async () => {
    const names = (await server.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    const echoed = await server.callTool("echo", { message: "over " + transport });
    expect(echoed.content).toEqual([{ type: "text", text: `Echo: over ${transport}` }]);
    const sum = await server.callTool("get-sum", { a: 2, b: 3 });
    expect(JSON.stringify(sum.content)).toContain("5");
  });

  it("lists and reads resources, templates and prompts", async () => {
    const resources = await server.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = await server.readResource(resources[0]!.uri);
    expect(first.contents[0]!.uri).toBe(resources[0]!.uri);
    expect((await server.listResourceTemplates()).length).toBeGreaterThan(0);
    const prompts = await server.listPrompts();
    const simple = prompts.find((p) => (p.arguments ?? []).length === 0);
    expect(simple).toBeDefined();
    const got = await server.getPrompt(simple!.name);
    expect(got.messages.length).toBeGreaterThan(0);
  });
});
