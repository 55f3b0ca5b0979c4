// The `extensions` client option: checked once (ids of the spec's `vendor/name` form, settings
// that are plain JSON objects, every bound crossed), kept as a frozen copy, and declared in every
// version's capabilities: `initialize`'s in the legacy era, each request's envelope in 2026-07-28,
// whose text is still written once and spliced in byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APPS_EXTENSION, APP_MIME_TYPE, Client, ClientError, InvalidArgumentError, ToolVisibilityError, appsExtension } from "../../src/index.js";
import { MAX_EXTENSIONS, MAX_EXTENSIONS_JSON, NO_EXTENSIONS, checkExtensions } from "../../src/extensions-option.js";
import { SUPPORTED_VERSIONS, TASKS_EXTENSION, clientCapabilities, type InputFeatures } from "../../src/protocol/versions.js";
import { Envelope, META } from "../../src/protocol/envelope.js";
import { messageText } from "../../src/util/message-text.js";
import { checkCaller, checkView } from "../../src/host/tool-visibility.js";

const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
const refused = (value: unknown) => () => checkExtensions(value);

describe("extension ids", () => {
  it.each(["io.modelcontextprotocol/ui", "com.example/my-extension", "a/b", "x.y-z9/n.a_m-e1", "A1/0"])("takes %s", (id) => {
    expect(checkExtensions({ [id]: {} })).toEqual({ [id]: {} });
  });

  it.each(["ui", "/ui", "io/", "io./x", ".io/x", "1io/x", "io-/x", "io..x/y", "io/x-", "io/-x", "io/x y", "io/x/y", "io/é", "i o/x", ""])("refuses %j", (id) => {
    expect(refused({ [id]: {} })).toThrow(InvalidArgumentError);
    expect(refused({ [id]: {} })).toThrow(/is not an extension id of the form vendor\/name/);
  });

  it("refuses an id past 256 characters, and the tasks extension, which is the client's to declare", () => {
    const long = `com.example/${"x".repeat(244)}`;
    expect(long).toHaveLength(256);
    expect(checkExtensions({ [long]: {} })).toEqual({ [long]: {} });
    expect(refused({ [`${long}y`]: {} })).toThrow(/longer than 256 characters/);
    expect(refused({ [TASKS_EXTENSION]: {} })).toThrow(/declared by the client itself/);
  });
});

describe("extension settings", () => {
  it("takes nothing, an empty record, and JSON objects of any JSON", () => {
    expect(checkExtensions(undefined)).toBe(NO_EXTENSIONS);
    expect(checkExtensions({})).toBe(NO_EXTENSIONS);
    const settings = { "com.example/x": { a: [1, "two", null, true, { b: -0.5 }], "__proto__": { c: 1 } } };
    expect(checkExtensions(JSON.parse(JSON.stringify(settings)))).toEqual(JSON.parse(JSON.stringify(settings)));
  });

  it.each([[[]], [null], ["x"], [1], [new Map()], [new (class Settings {})()]])("refuses %j as the option", (value) => {
    expect(refused(value)).toThrow(/must be an object from extension id to settings object/);
  });

  it.each([[[]], [null], [true], ["on"], [0], [new Date(0)]])("refuses %j as an extension's settings", (settings) => {
    expect(refused({ "com.example/x": settings })).toThrow(/the settings of "com.example\/x" must be an object/);
  });

  it.each([
    ["undefined", { a: undefined }, /is a undefined/],
    ["a function", { a: () => 1 }, /is a function/],
    ["a bigint", { a: 1n }, /is a bigint/],
    ["a symbol", { a: Symbol("s") }, /is a symbol/],
    ["NaN", { a: [Number.NaN] }, /\[0\] is NaN/],
    ["Infinity", { a: { b: Infinity } }, /\.a\.b is Infinity/],
    ["a Date", { a: new Date(0) }, /not a plain object/],
  ])("refuses %s inside the settings, naming where", (_what, settings, message) => {
    expect(refused({ "com.example/x": settings })).toThrow(message);
  });

  it("refuses a cycle and nesting past 32 levels, and takes 32", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(refused({ "com.example/x": cyclic })).toThrow(/nests deeper than 32 levels/);
    const nest = (levels: number) => {
      let value: Record<string, unknown> = {};
      for (let i = 1; i < levels; i++) value = { v: value };
      return value;
    };
    expect(() => checkExtensions({ "com.example/x": nest(32) })).not.toThrow();
    expect(refused({ "com.example/x": nest(33) })).toThrow(/nests deeper than 32 levels/);
  });

  it("bounds the count of extensions, of values, and the JSON in all", () => {
    const ids = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`com.example/e${i}`, {}]));
    expect(Object.keys(checkExtensions(ids(MAX_EXTENSIONS)))).toHaveLength(MAX_EXTENSIONS);
    expect(refused(ids(MAX_EXTENSIONS + 1))).toThrow(/names 65 extensions, over the bound of 64/);
    expect(refused({ "com.example/x": { a: new Array(5000).fill(0) } })).toThrow(/more than 4096 values/);
    // The JSON of the whole option: the characters around the text, and the text.
    const around = JSON.stringify({ "com.example/x": { a: "" } }).length;
    expect(() => checkExtensions({ "com.example/x": { a: "y".repeat(MAX_EXTENSIONS_JSON - around) } })).not.toThrow();
    expect(refused({ "com.example/x": { a: "y".repeat(MAX_EXTENSIONS_JSON - around + 1) } })).toThrow(/16385 characters of JSON, over the bound of 16384/);
  });

  it("keeps a frozen copy: what the host changes afterwards is not declared", () => {
    const given = { "com.example/x": { list: [1] } };
    const kept = checkExtensions(given);
    given["com.example/x"].list.push(2);
    expect(kept).toEqual({ "com.example/x": { list: [1] } });
    expect(Object.isFrozen(kept) && Object.isFrozen(kept["com.example/x"]) && Object.isFrozen(kept["com.example/x"]!.list)).toBe(true);
  });

  it("is checked by the Client's constructor, as a known key", () => {
    expect(() => new Client({ name: "h", version: "1", extensions: { ui: {} } })).toThrow(InvalidArgumentError);
    expect(() => new Client({ name: "h", version: "1", extension: {} } as never)).toThrow(/did you mean "extensions"/);
    expect(() => new Client({ name: "h", version: "1", extensions: appsExtension() })).not.toThrow();
  });
});

describe("appsExtension", () => {
  it("is the apps extension with the MCP App MIME type, a fresh object each time", () => {
    expect(appsExtension()).toEqual({ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
    expect(APPS_EXTENSION).toBe("io.modelcontextprotocol/ui");
    expect(appsExtension()[APPS_EXTENSION].mimeTypes).toEqual([APP_MIME_TYPE]);
    const first = appsExtension();
    first[APPS_EXTENSION].mimeTypes.push("text/plain");
    expect(appsExtension()[APPS_EXTENSION].mimeTypes).toEqual([APP_MIME_TYPE]);
  });
});

const NONE: InputFeatures = { sampling: false, elicitationModes: [], roots: false };
const declared = checkExtensions({ ...appsExtension(), "com.example/x": { n: 1 } });

describe("the declaration in each version's capabilities", () => {
  it.each(SUPPORTED_VERSIONS.filter((version) => version !== "2026-07-28"))("%s: in initialize's capabilities.extensions, beside the input features", (version) => {
    expect(clientCapabilities({ ...NONE, extensions: declared }, version)).toEqual({ extensions: declared });
    expect(clientCapabilities({ ...NONE, sampling: true, extensions: declared }, version)).toEqual({ sampling: {}, extensions: declared });
    // None declared: what the client always sent.
    expect(clientCapabilities(NONE, version)).toEqual({});
    expect(clientCapabilities({ ...NONE, extensions: NO_EXTENSIONS }, version)).toEqual({});
  });

  it("2026-07-28: beside the client's own tasks extension", () => {
    expect(clientCapabilities({ ...NONE, extensions: declared }, "2026-07-28")).toEqual({ extensions: { [TASKS_EXTENSION]: {}, ...declared } });
    expect(clientCapabilities({ ...NONE, extensions: NO_EXTENSIONS }, "2026-07-28")).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
  });

  it("2026-07-28: every request's envelope carries them, its text written once and spliced in byte for byte", () => {
    const capabilities = clientCapabilities({ sampling: true, elicitationModes: ["form"], roots: true, extensions: declared }, "2026-07-28");
    const envelope = new Envelope("2026-07-28", { name: "host", version: "1" }, capabilities);
    expect(envelope.wrap(undefined)._meta).toMatchObject({ [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {}, ...declared } } });
    const params = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(params, fc.nat(), (given, id) => {
        const message = { jsonrpc: "2.0", id, method: "tools/call", params: envelope.wrap(given) };
        expect(messageText(message)).toBe(JSON.stringify(message));
      }),
      { numRuns: 300, ...seed },
    );
  });
});

describe("the visibility options", () => {
  it("checks client.tools()'s audience and callTool's caller before anything else", async () => {
    expect(checkView(undefined)).toBe("model");
    expect(["model", "app", "all"].map(checkView)).toEqual(["model", "app", "all"]);
    expect(checkCaller(undefined)).toBe("model");
    expect(["model", "app"].map(checkCaller)).toEqual(["model", "app"]);
    const client = new Client({ name: "h", version: "1" });
    await expect(client.tools({ audience: "everyone" as never })).rejects.toThrow(/`audience` must be "model", "app" or "all", got "everyone"/);
    await expect(client.tools({ audiance: "all" } as never)).rejects.toThrow(/the tools options has no option "audiance"; did you mean "audience"\?/);
    await expect(client.callTool("s_t", {}, { caller: "user" as never })).rejects.toThrow(/`caller` must be "model" or "app", got "user"/);
    await expect(client.callTool("s_t", {}, { caller: "user" as never })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it("has an error class of its own, which other ClientErrors do not pass for", () => {
    const error = new ToolVisibilityError({ serverId: "s", qualifiedName: "s_t", toolName: "t", caller: "app", visibility: ["model"] });
    expect(error).toBeInstanceOf(ClientError);
    expect(error.kind).toBe("unsupported");
    expect(error.message).toBe(`the tool s_t ("t" of server "s") is for the model alone (visibility ["model"]): an app may not call it`);
    expect(new ClientError("unsupported", "x")).not.toBeInstanceOf(ToolVisibilityError);
  });
});
