// Every adapter leaves out a tool that is not for the model, by the visibility the catalog gave
// it (MCP Apps: a host MUST NOT give the agent a tool whose visibility lacks "model"), reports it
// with the reason, and does not count it towards maxTools; a tool without a visibility (not as the
// catalog lists it) is left out too, rather than read a second way.
import { describe, expect, it } from "vitest";
import type { CallToolResult, CatalogTool } from "../../src/node.js";
import { toAiSdkTools, toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools } from "../../src/adapters/index.js";

function tool(name: string, visibility: unknown): CatalogTool {
  const made: Record<string, unknown> = { name, serverId: "srv", qualifiedName: `srv_${name}`, inputSchema: { type: "object", properties: {} } };
  if (visibility !== undefined) made.visibility = visibility;
  return made as unknown as CatalogTool;
}

const caller = { callTool: (): Promise<CallToolResult> => Promise.resolve({ content: [] }) };
const adapters = {
  "OpenAI Chat": (tools: CatalogTool[], maxTools?: number) => {
    const list = toOpenAIChatTools(tools, { maxTools });
    return { names: list.tools.map((t) => t.function.name), skipped: list.skipped };
  },
  "OpenAI Responses": (tools: CatalogTool[], maxTools?: number) => {
    const list = toOpenAIResponsesTools(tools, { maxTools, strict: true });
    return { names: list.tools.map((t) => t.name), skipped: list.skipped };
  },
  Anthropic: (tools: CatalogTool[], maxTools?: number) => {
    const list = toAnthropicTools(tools, { maxTools });
    return { names: list.tools.map((t) => t.name), skipped: list.skipped };
  },
  "AI SDK": (tools: CatalogTool[], maxTools?: number) => {
    const set = toAiSdkTools(tools, caller, { jsonSchema: (schema) => schema, aiVersion: 6, maxTools });
    return { names: Object.keys(set.tools), skipped: set.skipped };
  },
};

describe.each(Object.entries(adapters))("%s", (_name, adapt) => {
  it("gives the tools for the model and reports the others with the reason", () => {
    const tools = [tool("both", ["model", "app"]), tool("app", ["app"]), tool("model", ["model"]), tool("none", undefined), tool("odd", "model"), tool("empty", [])];
    const { names, skipped } = adapt(tools);
    expect(names).toEqual(["srv_both", "srv_model"]);
    expect(skipped).toEqual([
      { qualifiedName: "srv_app", serverId: "srv", reason: `its visibility is ["app"]: its server made it for its app's view alone, not for the model` },
      { qualifiedName: "srv_none", serverId: "srv", reason: "has no visibility (give the tools as client.tools() lists them)" },
      { qualifiedName: "srv_odd", serverId: "srv", reason: "has no visibility (give the tools as client.tools() lists them)" },
      { qualifiedName: "srv_empty", serverId: "srv", reason: `its visibility is []: its server made it for its app's view alone, not for the model` },
    ]);
  });

  it("does not count a tool left out for its visibility towards maxTools", () => {
    const { names, skipped } = adapt([tool("app", ["app"]), tool("a", ["model"]), tool("b", ["model", "app"]), tool("c", ["model"])], 2);
    expect(names).toEqual(["srv_a", "srv_b"]);
    expect(skipped.map((report) => report.qualifiedName)).toEqual(["srv_app", "srv_c"]);
  });
});
