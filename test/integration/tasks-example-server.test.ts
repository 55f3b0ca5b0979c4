// The bundled research server (examples/servers/research-server.mjs), whose tool runs as a task
// and asks for input while it runs, in both eras: what `npm start` shows, checked.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, isTask, type ProtocolVersion, type TaskHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const SERVER = fileURLToPath(new URL("../../examples/servers/research-server.mjs", import.meta.url));

describe.each([
  ["2026-07-28", "modern"],
  ["2025-11-25", "legacy"],
] as const)("the research example server at %s", (version: ProtocolVersion, era) => {
  it("runs research as a task, answers its question through the Handler, and reports", async () => {
    const questions: string[] = [];
    const client = track(
      new Client({
        name: "host",
        version: "1",
        logger: capturingLogger(),
        handler: {
          handleElicitation: (params) => {
            questions.push(params.message);
            return { action: "accept", content: { angle: "science" } };
          },
        },
      }),
    );
    const server = await client.connect(
      "research",
      { command: process.execPath, args: [SERVER], env: { RESEARCH_STEP_MS: "20", RESEARCH_POLL_MS: "10" } },
      { protocolVersion: version },
    );
    expect(server.era).toBe(era);
    const outcome = await server.callTool("research", { topic: "tides" }, { task: true });
    expect(isTask(outcome)).toBe(true);
    const statuses: string[] = [];
    const result = await server.awaitTask(outcome as TaskHandle, { onStatus: (t) => statuses.push(t.status) });
    expect(result.content).toEqual([{ type: "text", text: "Research on tides, from the angle of science." }]);
    expect(statuses).toContain("input_required");
    expect(questions).toEqual(["Which angle should the research take?"]);
    // A plain call is a task too (the tool requires one), followed inside callTool.
    expect((await server.callTool("research", { topic: "moon" })).content).toEqual([{ type: "text", text: "Research on moon, from the angle of science." }]);
  });
});
