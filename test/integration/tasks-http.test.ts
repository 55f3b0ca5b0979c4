// Tasks of 2026-07-28 over Streamable HTTP against the raw scripted server: every tasks/*
// request names its task in Mcp-Name, and a task started by one host process is followed by
// another, by its id alone (a host that restarted, or another worker).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Client, type Handler } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { TASKS_EXTENSION, done, elicitName, scriptTasks } from "../helpers/modern-tasks.js";
import { track } from "../helpers/cleanup.js";

const HOST = fileURLToPath(new URL("../fixtures/task-host.mjs", import.meta.url));
const run = promisify(execFile);

async function startTaskServer(): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
  }));
  return srv;
}

const rpcOf = (r: RecordedRequest) => r.json as { method?: string; params?: { taskId?: string } };

describe("tasks over Streamable HTTP (2026-07-28)", () => {
  it("names the task in Mcp-Name on tasks/get, tasks/update and tasks/cancel", async () => {
    const srv = await startTaskServer();
    const script = scriptTasks(srv, [{ status: "input_required", inputRequests: { name: elicitName } }, { status: "working" }], { taskId: "task-α/1" });
    const handler: Handler = { handleElicitation: () => ({ action: "accept", content: { name: "Ada" } }) };
    const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
    const server = await client.connect("tasks", { url: srv.url });
    const controller = new AbortController();
    const waiting = server.callTool("t", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await script.polled(2);
    controller.abort();
    expect(await waiting).toMatchObject({ kind: "cancelled" });
    // The cancel is sent, not waited for: it comes on a POST of its own.
    await expect.poll(() => script.cancels.length).toBe(1);
    const taskRequests = srv.requests.filter((r) => rpcOf(r).method?.startsWith("tasks/") === true);
    expect(new Set(taskRequests.map((r) => rpcOf(r).method))).toEqual(new Set(["tasks/get", "tasks/update", "tasks/cancel"]));
    for (const r of taskRequests) {
      expect(r.headers["mcp-method"]).toBe(rpcOf(r).method);
      // Not plain ASCII: the sentinel form, which decodes to the id.
      const header = r.headers["mcp-name"]!;
      expect(Buffer.from(/^=\?base64\?(.*)\?=$/.exec(header)![1]!, "base64").toString("utf8")).toBe("task-α/1");
    }
  });

  it("follows a task that another host process started, by its id alone", async () => {
    const srv = await startTaskServer();
    const script = scriptTasks(srv, [{ status: "working" }, done("picked up")]);
    const { stdout } = await run(process.execPath, [HOST, srv.url, "long"], { timeout: 20_000 });
    const { taskId } = JSON.parse(stdout.trim()) as { taskId: string };
    expect(taskId).toBe("task-1");
    expect(script.calls).toHaveLength(1);
    const client = track(new Client({ name: "restarted", version: "1", logger: capturingLogger() }));
    const server = await client.connect("tasks", { url: srv.url });
    expect((await server.awaitTask(taskId)).content).toEqual([{ type: "text", text: "picked up" }]);
  });
});
