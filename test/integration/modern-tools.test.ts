// The tools a modern server lists over Streamable HTTP, as the client keeps them: a schema the
// client cannot walk (nested beyond any stack) fails the list with a ClientError or drops that
// tool, and the `x-mcp-header` annotations remembered for a tool's calls go with the tool when a
// later list no longer has it.
import { describe, expect, it } from "vitest";
import { Client, ClientError, type ServerHandle } from "../../src/node.js";
import { body, onMethod, posts, rpcMethod, sendJson } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { NEXT, startRawHttp, type JsonObject, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";

const MODERN = "2026-07-28";
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } };

function complete(result: JsonObject): JsonObject {
  return { resultType: "complete", ...result, _meta: SERVER_INFO };
}

/** A modern-only server: POST only, no sessions, `server/discover` answered, `initialize` refused. */
async function startModern(): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.route((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return undefined;
    }
    if (rpcMethod(req) === "initialize") {
      sendJson(res, 400, { jsonrpc: "2.0", id: body(req)["id"] ?? null, error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN] } } });
      return undefined;
    }
    return NEXT;
  });
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: [MODERN],
    capabilities: { tools: {} },
    ttlMs: 0,
    cacheScope: "private",
    _meta: SERVER_INFO,
  }));
  srv.handle("tools/call", () => complete({ content: [] }));
  return srv;
}

async function connect(srv: RawHttpServer): Promise<ServerHandle> {
  const client = track(new Client({ name: "t", version: "0", logger: capturingLogger() }));
  const server = await client.connect("m", { url: srv.url });
  expect(server.era).toBe("modern");
  return server;
}

function paramHeaders(r: RecordedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).filter(([name]) => name.startsWith("mcp-param-")));
}

const ECHO = { name: "echo", inputSchema: { type: "object" } };

describe("a deeply nested inputSchema", () => {
  it("makes listTools() drop the tool or fail with a ClientError, never throw a bare RangeError", async () => {
    const srv = await startModern();
    const depth = 100_000;
    // Written as text: no JSON.stringify could build it, and JSON.parse reads it fine.
    const deep = `{"type":"object","not":${'{"not":'.repeat(depth)}{}${"}".repeat(depth)}}`;
    srv.route(
      onMethod("tools/list", (req, res) => {
        const result = `{"resultType":"complete","tools":[{"name":"deep","inputSchema":${deep}},${JSON.stringify(ECHO)}]}`;
        res.writeHead(200, { "content-type": "application/json" }).end(`{"jsonrpc":"2.0","id":${JSON.stringify(body(req)["id"])},"result":${result}}`);
      }),
    );
    const server = await connect(srv);
    const outcome = await server.listTools().then(
      (tools) => tools,
      (error: unknown) => error,
    );
    if (Array.isArray(outcome)) expect(outcome.map((tool) => tool.name)).toEqual(["echo"]);
    else expect(outcome).toBeInstanceOf(ClientError);
  });
});

describe("x-mcp-header annotations of a tool that left the list", () => {
  it("are not sent with a later call of that tool", async () => {
    const srv = await startModern();
    const deploy = { name: "deploy", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } };
    let tools: JsonObject[] = [deploy, ECHO];
    srv.handle("tools/list", () => complete({ tools }));
    const server = await connect(srv);
    await server.listTools();
    await server.callTool("deploy", { region: "eu-north1" });
    expect(paramHeaders(posts(srv, "tools/call").at(-1)!)).toEqual({ "mcp-param-region": "eu-north1" });
    tools = [ECHO];
    expect((await server.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
    await server.callTool("deploy", { region: "eu-north1" });
    expect(paramHeaders(posts(srv, "tools/call").at(-1)!)).toEqual({});
  });
});
