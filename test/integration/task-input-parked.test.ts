// A 2026-07-28 task's questions parked (issue 24): a call made with inputRequired: "return" that
// the server turns into a task asking for input (status input_required) resolves with a
// PendingInput of tasks/update instead of asking the Handler; client.resume sends the answers in
// one tasks/update and follows the task on, to its result or to its next question. Against a
// scripted tasks server over a real pipe (test/helpers/modern-tasks.ts).
import { describe, expect, it } from "vitest";
import { Client, isPendingInput, type PendingInput } from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";
import { TASKS_EXTENSION, done, elicitName, scriptTasks } from "../helpers/modern-tasks.js";
import { startRawStdio } from "../helpers/raw-stdio.js";

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
};
const ada = { name: { action: "accept", content: { name: "Ada" } } };

async function setup() {
  const asked: unknown[] = [];
  const raw = track(await startRawStdio());
  raw.handle("server/discover", () => DISCOVERED);
  const handler = { handleElicitation: (params: { message: string }) => (asked.push(params.message), { action: "accept" as const, content: { name: "from the Handler" } }) };
  const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
  const server = await client.connect("tasks", raw.target);
  return { raw, client, server, asked };
}

describe("a task's input parked as a PendingInput", () => {
  it("parks the task's question without the Handler, and a resume answers it in one tasks/update and follows the task to its end", async () => {
    const { raw, client, server, asked } = await setup();
    const script = scriptTasks(raw, [{ status: "working" }, { status: "input_required", inputRequests: { name: elicitName } }, { status: "input_required", inputRequests: { name: elicitName } }, { status: "working" }, done("Hello, Ada!")]);
    const parked = await server.callTool("hello", {}, { inputRequired: "return" });
    expect(isPendingInput(parked)).toBe(true);
    const pending = JSON.parse(JSON.stringify(parked)) as PendingInput;
    expect(pending).toMatchObject({ method: "tasks/update", serverId: "tasks", params: { taskId: "task-1" }, inputRequests: { name: elicitName }, round: 1 });
    expect(pending.requestState).toBeUndefined();
    expect(pending.verdicts.name).toMatchObject({ method: "elicitation/create", mode: "form" });
    expect(script.updates).toHaveLength(0);
    const result = await client.resume(pending, { responses: ada });
    expect(result).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(script.updates.map((update) => update.params)).toEqual([expect.objectContaining({ taskId: "task-1", inputResponses: ada })]);
    expect(asked).toEqual([]);
    // Spent: a second resume sends nothing.
    await expect(client.resume(pending, { responses: ada })).rejects.toMatchObject({ kind: "usage", message: expect.stringMatching(/already resumed/) });
    expect(script.updates).toHaveLength(1);
  });

  it("parks the next question of the task again, and answers it through the Handler when the resume says so", async () => {
    const { raw, client, server, asked } = await setup();
    const other = { ...elicitName, params: { ...elicitName.params, message: "Your city?" } };
    const script = scriptTasks(raw, [
      { status: "input_required", inputRequests: { name: elicitName } },
      { status: "input_required", inputRequests: { city: other } },
      { status: "input_required", inputRequests: { city: other } },
      { status: "input_required", inputRequests: { third: { ...elicitName, params: { ...elicitName.params, message: "Your street?" } } } },
      done("done"),
    ]);
    const first = (await server.callTool("hello", {}, { inputRequired: "return" })) as PendingInput;
    const second = await client.resume(first, { responses: ada });
    expect(isPendingInput(second)).toBe(true);
    expect(second).toMatchObject({ method: "tasks/update", inputRequests: { city: other }, round: 2 });
    const end = await client.resume(second as PendingInput, { responses: { city: { action: "accept", content: { name: "Turin" } } }, inputRequired: "handler" });
    expect(end).toMatchObject({ content: [{ type: "text", text: "done" }] });
    expect(asked).toEqual(["Your street?"]);
    expect(script.updates).toHaveLength(3);
  });

  it("refuses an answer the form would refuse before anything is sent or claimed", async () => {
    const { raw, client, server } = await setup();
    const script = scriptTasks(raw, [{ status: "input_required", inputRequests: { name: elicitName } }, done("ok")]);
    const pending = (await server.callTool("hello", {}, { inputRequired: "return" })) as PendingInput;
    await expect(client.resume(pending, { responses: { name: { action: "accept", content: { name: 42 } } } })).rejects.toMatchObject({ kind: "input_handler" });
    expect(script.updates).toHaveLength(0);
    expect(await client.resume(pending, { responses: ada })).toMatchObject({ content: [{ type: "text", text: "ok" }] });
  });
});
