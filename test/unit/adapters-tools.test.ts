// Tool definitions: the count limit crossed (129 tools for OpenAI's 128), every kind of schema
// an API cannot take reported for its own tool while the others are given, options checked
// before anything is looked at, and the AI SDK tools' execute bound to the caller.
import { describe, expect, it } from "vitest";
import type { CallOptions, CallToolResult, CatalogTool } from "../../src/node.js";
import { OPENAI_MAX_TOOLS, toAiSdkTools, toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools, type ToolCaller } from "../../src/adapters/index.js";

function tool(name: string, inputSchema: unknown = { type: "object", properties: {} }, extra: Record<string, unknown> = {}): CatalogTool {
  return { name, serverId: "srv", qualifiedName: `srv_${name}`, visibility: ["model", "app"], inputSchema, ...extra } as CatalogTool;
}
const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`));

describe("the count limit", () => {
  it("gives OpenAI the first 128 tools and reports the 129th", () => {
    for (const list of [toOpenAIChatTools(many(129)), toOpenAIResponsesTools(many(129))]) {
      expect(list.tools).toHaveLength(OPENAI_MAX_TOOLS);
      expect(list.skipped).toEqual([{ qualifiedName: "srv_t128", serverId: "srv", reason: "past the limit of 128 tools in one request" }]);
    }
    expect(toOpenAIChatTools(many(128)).skipped).toEqual([]);
  });

  it("does not count a tool it refused", () => {
    const tools = [tool("bad", { type: "string" }), ...many(128)];
    const list = toOpenAIChatTools(tools);
    expect(list.tools).toHaveLength(128);
    expect(list.skipped.map((report) => report.qualifiedName)).toEqual(["srv_bad"]);
  });

  it("has no count bound for Anthropic and the AI SDK unless maxTools sets one", () => {
    expect(toAnthropicTools(many(129)).tools).toHaveLength(129);
    expect(Object.keys(toAiSdkTools(many(129), caller(), { jsonSchema: (schema) => schema, aiVersion: 7 }).tools)).toHaveLength(129);
    const bounded = toAnthropicTools(many(3), { maxTools: 2 });
    expect(bounded.tools.map((definition) => definition.name)).toEqual(["srv_t0", "srv_t1"]);
    expect(bounded.skipped.map((report) => report.reason)).toEqual(["past the limit of 2 tools in one request"]);
    expect(toOpenAIChatTools(many(200), { maxTools: Infinity }).tools).toHaveLength(200);
  });
});

describe("options", () => {
  it.each([0, -1, 1.5, Number.NaN, "10"])("refuses maxTools %s", (maxTools) => {
    expect(() => toOpenAIChatTools(many(1), { maxTools: maxTools as number })).toThrow(RangeError);
    expect(() => toAnthropicTools(many(1), { maxSchemaLength: maxTools as number })).toThrow(RangeError);
  });

  it("refuses a key it does not know, and a strict that is not a boolean", () => {
    expect(() => toOpenAIChatTools(many(1), { maxTool: 3 } as never)).toThrow(new TypeError("OpenAI tool options has no option \"maxTool\" (known: maxTools, maxSchemaLength, strict)"));
    expect(() => toAnthropicTools(many(1), { strict: true } as never)).toThrow(TypeError);
    expect(() => toOpenAIResponsesTools(many(1), { strict: "yes" as never })).toThrow(new TypeError("strict must be a boolean, got string"));
    expect(() => toOpenAIChatTools("tools" as never)).toThrow(TypeError);
  });
});

describe("a schema an API cannot take", () => {
  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic["properties"] as Record<string, unknown>)["self"] = cyclic;
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 70; i++) deep = { type: "object", properties: { a: deep } };

  const cases: Array<[string, unknown, string]> = [
    ["null", null, "inputSchema is null, not a JSON object"],
    ["array", [], "inputSchema is an array, not a JSON object"],
    ["text", "object", "inputSchema is a string, not a JSON object"],
    ["boolean", true, "inputSchema is a boolean, not a JSON object"],
    ["scalar", { type: "number" }, 'inputSchema\'s type is "number", not "object"'],
    ["types", { type: ["string", "array"] }, 'inputSchema\'s type is ["string","array"], not "object"'],
    ["oneOf", { type: "object", oneOf: [{ properties: {} }] }, 'inputSchema has "oneOf" at the top level, where the model APIs take only an object schema'],
    ["not", { not: { type: "string" } }, 'inputSchema has "not" at the top level, where the model APIs take only an object schema'],
    ["loop", { $ref: "#" }, 'inputSchema\'s root $ref "#" does not end in a schema within 8 steps'],
    ["missing", { $ref: "#/$defs/nothing" }, 'inputSchema\'s root $ref "#/$defs/nothing" names no schema in it'],
    ["badpointer", { $ref: "#/%E0%A4%A" }, 'inputSchema\'s root $ref "#/%E0%A4%A" names no schema in it'],
    ["properties", { type: "object", properties: [] }, "inputSchema's properties is an array, not an object"],
    ["required", { type: "object", required: "a" }, "inputSchema's required is not a list of property names"],
    ["cyclic", cyclic, "inputSchema cannot be written as JSON (TypeError)"],
    ["deep", deep, "inputSchema nests more than 64 levels deep"],
  ];

  it("is reported for its own tool, with the reason, and the others are given", () => {
    const tools = [tool("first"), ...cases.map(([name, schema]) => tool(name, schema)), tool("last")];
    for (const list of [toOpenAIChatTools(tools), toAnthropicTools(tools), toOpenAIResponsesTools(tools, { strict: true })]) {
      expect(list.skipped).toEqual(cases.map(([name, , reason]) => ({ qualifiedName: `srv_${name}`, serverId: "srv", reason })));
      expect(list.tools.map((definition) => ("function" in definition ? definition.function.name : definition.name))).toEqual(["srv_first", "srv_last"]);
    }
  });

  it("is reported when its JSON is longer than maxSchemaLength", () => {
    const long = [tool("long", { type: "object", description: "x".repeat(200) })];
    expect(toAnthropicTools(long, { maxSchemaLength: 233 }).skipped.map((report) => report.reason)).toEqual(["inputSchema is 234 characters of JSON, over the bound of 233"]);
    expect(toAnthropicTools(long, { maxSchemaLength: 234 }).tools).toHaveLength(1);
  });

  it("is read as an object schema where that changes nothing it accepts", () => {
    const { tools, skipped } = toAnthropicTools([
      tool("untyped", { properties: { a: { type: "string" } } }),
      tool("nullable", { type: ["object", "null"], properties: {} }),
      tool("bare", {}),
      tool("ref", { $ref: "#/definitions/args", definitions: { args: { properties: { b: { type: "number" } } } } }),
    ]);
    expect(skipped).toEqual([]);
    expect(tools.map((definition) => definition.input_schema)).toEqual([
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: {} },
      { type: "object", properties: {} },
      { type: "object", properties: { b: { type: "number" } }, definitions: { args: { properties: { b: { type: "number" } } } } },
    ]);
  });

  it("refuses a name the APIs refuse and a name given twice, and an entry that is not a tool", () => {
    const tools = [
      { ...tool("ok"), qualifiedName: "has space" },
      { ...tool("ok"), qualifiedName: "x".repeat(65) },
      tool("twice"),
      tool("twice"),
      null,
    ] as CatalogTool[];
    expect(toOpenAIResponsesTools(tools).skipped).toEqual([
      { qualifiedName: "has space", serverId: "srv", reason: 'the name "has space" is not 1 to 64 letters, digits, "_" or "-"' },
      { qualifiedName: "x".repeat(65), serverId: "srv", reason: `the name "${"x".repeat(65)}" is not 1 to 64 letters, digits, "_" or "-"` },
      { qualifiedName: "srv_twice", serverId: "srv", reason: "a tool named srv_twice came earlier in the list" },
      { qualifiedName: "", serverId: "", reason: "not a tool object" },
    ]);
  });
});

describe("definitions", () => {
  it("describe a tool with its description, else its title, and leave the catalog as it was", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const catalog = [tool("a", schema, { description: "Searches" }), tool("b", schema, { title: "Bee" }), tool("c", schema)];
    const before = structuredClone(catalog);
    const chat = toOpenAIChatTools(catalog, { strict: true });
    expect(chat.tools).toEqual([
      { type: "function", function: { name: "srv_a", description: "Searches", parameters: expect.any(Object), strict: true } },
      { type: "function", function: { name: "srv_b", description: "Bee", parameters: expect.any(Object), strict: true } },
      { type: "function", function: { name: "srv_c", parameters: expect.any(Object), strict: true } },
    ]);
    expect(toOpenAIChatTools(catalog).tools[0]).toEqual({ type: "function", function: { name: "srv_a", description: "Searches", parameters: schema } });
    expect(toOpenAIResponsesTools(catalog).tools[2]).toEqual({ type: "function", name: "srv_c", parameters: schema, strict: false });
    expect(toAnthropicTools(catalog).tools[1]).toEqual({ name: "srv_b", description: "Bee", input_schema: schema });
    expect(catalog).toEqual(before);
  });
});

/** A caller that records its calls; the real Client is used in the integration tests. */
function caller(): ToolCaller & { calls: Array<[string, Record<string, unknown> | undefined, CallOptions | undefined]> } {
  const calls: Array<[string, Record<string, unknown> | undefined, CallOptions | undefined]> = [];
  return {
    calls,
    callTool(name, args, options): Promise<CallToolResult> {
      calls.push([name, args, options]);
      return Promise.resolve({ content: [{ type: "text", text: `ran ${name}` }] });
    },
  };
}

describe("AI SDK tools", () => {
  it("are keyed by qualified name, with the schema wrapped by the given jsonSchema and execute bound to the caller", async () => {
    const recorder = caller();
    const wrap = (schema: object) => ({ wrapped: schema });
    const { tools, skipped } = toAiSdkTools([tool("a", { type: "object", properties: {} }, { description: "A" }), tool("bad", { type: "string" })], recorder, { jsonSchema: wrap, aiVersion: 7 });
    expect(skipped.map((report) => report.qualifiedName)).toEqual(["srv_bad"]);
    const a = tools["srv_a"]!;
    expect(a).toMatchObject({ type: "dynamic", description: "A", inputSchema: { wrapped: { type: "object", properties: {} } }, metadata: { serverId: "srv", toolName: "a" } });
    expect(a).not.toHaveProperty("strict");
    const signal = new AbortController().signal;
    await expect(a.execute({ x: 1 }, { abortSignal: signal })).resolves.toEqual({ content: [{ type: "text", text: "ran srv_a" }] });
    await a.execute(null);
    expect(recorder.calls).toEqual([
      ["srv_a", { x: 1 }, { signal }],
      ["srv_a", {}, undefined],
    ]);
    await expect(a.execute("text")).rejects.toThrow(new TypeError("the input for srv_a is not an object"));
    expect(a.toModelOutput({ output: { content: [{ type: "text", text: "hi" }] } })).toEqual({ type: "text", value: "hi" });
  });

  it("keep a tool named like an Object member as an own key", () => {
    const odd: CatalogTool[] = [
      { ...tool("x"), qualifiedName: "__proto__" },
      { ...tool("y"), qualifiedName: "constructor" },
    ];
    const { tools } = toAiSdkTools(odd, caller(), { jsonSchema: (schema) => schema, aiVersion: 7 });
    expect(Object.keys(tools)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  });

  it("refuse to start without the SDK's jsonSchema or a caller", () => {
    expect(() => toAiSdkTools(many(1), caller(), {} as never)).toThrow(/jsonSchema must be the AI SDK's jsonSchema function/);
    expect(() => toAiSdkTools(many(1), {} as never, { jsonSchema: (schema) => schema, aiVersion: 7 })).toThrow(new TypeError("the caller must have callTool (pass the Client)"));
  });

  it("refuse to start without the SDK's major version, naming what was given and what is supported", () => {
    const given = (value: string) => new TypeError(`options.aiVersion must be the major version of the "ai" package in use, 6 or 7 (their tool results take images in different shapes), got ${value}`);
    expect(() => toAiSdkTools(many(1), caller(), { jsonSchema: (schema: object) => schema } as never)).toThrow(given("undefined"));
    expect(() => toAiSdkTools(many(1), caller(), { jsonSchema: (schema: object) => schema, aiVersion: 5 } as never)).toThrow(given("5"));
    expect(() => toAiSdkTools(many(1), caller(), { jsonSchema: (schema: object) => schema, aiVersion: null } as never)).toThrow(given("object"));
  });

  it("give the model each result in the shape of the major they were made for", () => {
    const png = { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] };
    const output = (aiVersion: 6 | 7) => toAiSdkTools(many(1), caller(), { jsonSchema: (schema) => schema, aiVersion }).tools["srv_t0"]!.toModelOutput({ output: png });
    expect(output(7)).toEqual({ type: "content", value: [{ type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" } }] });
    expect(output(6)).toEqual({ type: "content", value: [{ type: "image-data", mediaType: "image/png", data: "AAAA" }] });
  });
});
