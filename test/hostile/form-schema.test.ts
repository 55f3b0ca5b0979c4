// Form elicitations too big for a person: 100 000 properties, 50 000 `required` names, names of
// kilobytes, thousands of choices, titles and descriptions of megabytes. Past FORM_BOUNDS each is refused before the Handler runs
// (-32602 in the legacy era; input_refused with that code in the modern one), in time linear in
// its size: a call to another server on the same Client keeps its latency meanwhile. At the
// bounds themselves the form reaches the Handler.
import { describe, expect, it } from "vitest";
import { Client, type ElicitResult, type Handler, type ServerHandle } from "../../src/index.js";
import { FORM_BOUNDS } from "../../src/input/form-schema.js";
import { startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { safetyRow, type SafetyRow } from "./safety.js";
import { countingLogger, LATENCY_BOUND_MS, probeLatency } from "./probe.js";

/** The bounds, as documented: the tests below cross each. */
const BOUNDS = { fields: 100, nameCharacters: 256, options: 1_000, titleCharacters: 1_024, descriptionCharacters: 4_096, defaultCharacters: 16_384 };

it("FORM_BOUNDS are the documented ones", () => {
  expect(FORM_BOUNDS).toEqual(BOUNDS);
});

type Schema = Record<string, unknown>;

const strings = (count: number, name = (i: number) => `f${i}`): Schema =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [name(i), { type: "string" }]));
const form = (properties: Schema, required?: string[]): Schema => ({ type: "object", properties, ...(required === undefined ? {} : { required }) });
/** An object schema whose one property is an object, `depth` levels down. */
const nest = (depth: number): Schema => {
  let schema: Schema = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { inner: schema } };
  return schema;
};
const choices = (count: number): string[] => Array.from({ length: count }, (_, i) => `c${i}`);

/** Each case: a schema past a bound, the exact refusal, and the same kind of schema at the bound. */
const CASES: Array<{ name: string; over: Schema; message: string; at: Schema }> = [
  {
    name: "100 000 properties",
    over: form(strings(100_000)),
    message: "requestedSchema has 100000 properties; a form has at most 100",
    at: form(strings(100)),
  },
  {
    name: "100 000 properties, 50 000 of them required",
    over: form(strings(100_000), Array.from({ length: 50_000 }, (_, i) => `f${99_999 - i}`)),
    message: "requestedSchema has 100000 properties; a form has at most 100",
    at: form(strings(100), Array.from({ length: 100 }, (_, i) => `f${99 - i}`)),
  },
  {
    name: "50 000 required names",
    over: form(strings(3), Array.from({ length: 50_000 }, (_, i) => `f${i % 3}`)),
    message: "requestedSchema.required has 50000 names; a form has at most 100 fields",
    at: form(strings(3), Array.from({ length: 100 }, (_, i) => `f${i % 3}`)),
  },
  {
    name: "101 properties",
    over: form(strings(101)),
    message: "requestedSchema has 101 properties; a form has at most 100",
    at: form(strings(100)),
  },
  {
    name: "a name of 257 characters",
    over: form({ ["n".repeat(257)]: { type: "string" } }),
    message: `requestedSchema property "${"n".repeat(99)}…": a field name has at most 256 characters`,
    at: form({ ["n".repeat(256)]: { type: "string" } }),
  },
  {
    name: "an enum of 1 001 choices",
    over: form({ pick: { type: "string", enum: choices(1_001) } }),
    message: 'requestedSchema property "pick": 1001 choices; a field has at most 1000',
    at: form({ pick: { type: "string", enum: choices(1_000) } }),
  },
  {
    name: "a multi-select of 100 000 choices",
    over: form({ many: { type: "array", items: { type: "string", enum: choices(100_000) } } }),
    message: 'requestedSchema property "many": 100000 choices; a field has at most 1000',
    at: form({ many: { type: "array", items: { type: "string", enum: choices(1_000) }, default: Array.from({ length: 50_000 }, (_, i) => `c${i % 1_000}`) } }),
  },
  {
    name: "a field title of 1 025 characters",
    over: form({ f: { type: "string", title: "t".repeat(1_025) } }),
    message: 'requestedSchema property "f": title must be at most 1024 characters (it has 1025)',
    at: form({ f: { type: "string", title: "t".repeat(1_024) } }),
  },
  {
    name: "a field description of 4 097 characters",
    over: form({ f: { type: "string", description: "d".repeat(4_097) } }),
    message: 'requestedSchema property "f": description must be at most 4096 characters (it has 4097)',
    at: form({ f: { type: "string", description: "d".repeat(4_096) } }),
  },
  {
    name: "100 fields, the last described in 1 MiB",
    over: form(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: "string", description: "d".repeat(i === 99 ? 1024 * 1024 : 4_096) }]))),
    message: 'requestedSchema property "f99": description must be at most 4096 characters (it has 1048576)',
    at: form(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: "string", description: "d".repeat(4_096) }]))),
  },
  {
    name: "a choice title of 1 025 characters",
    over: form({ pick: { type: "string", oneOf: [{ const: "a", title: "t".repeat(1_025) }] } }),
    message: 'requestedSchema property "pick": a choice\'s title must be at most 1024 characters (it has 1025)',
    at: form({ pick: { type: "string", oneOf: [{ const: "a", title: "t".repeat(1_024) }] } }),
  },
  {
    name: "1 000 enumNames, the last of 1 MiB",
    over: form({ pick: { type: "string", enum: choices(1_000), enumNames: Array.from({ length: 1_000 }, (_, i) => "t".repeat(i === 999 ? 1024 * 1024 : 1_024)) } }),
    message: 'requestedSchema property "pick": a choice\'s title must be at most 1024 characters (it has 1048576)',
    at: form({ pick: { type: "string", enum: choices(1_000), enumNames: Array.from({ length: 1_000 }, () => "t".repeat(1_024)) } }),
  },
  {
    name: "2 000 000 enumNames for one choice",
    over: form({ pick: { type: "string", enum: ["a"], enumNames: Array.from({ length: 2_000_000 }, () => "t") } }),
    message: 'requestedSchema property "pick": 2000000 choices; a field has at most 1000',
    at: form({ pick: { type: "string", enum: ["a"], enumNames: Array.from({ length: 1_000 }, () => "t") } }),
  },
  {
    name: "a choice value of 1 MiB",
    over: form({ pick: { type: "string", enum: ["a", "v".repeat(1024 * 1024)] } }),
    message: 'requestedSchema property "pick": a choice\'s value must be at most 1024 characters (it has 1048576)',
    at: form({ pick: { type: "string", enum: ["a", "v".repeat(1_024)] } }),
  },
  {
    name: "a multi-select value of 1 025 characters",
    over: form({ many: { type: "array", items: { type: "string", enum: ["a", "v".repeat(1_025)] } } }),
    message: 'requestedSchema property "many": a choice\'s value must be at most 1024 characters (it has 1025)',
    at: form({ many: { type: "array", items: { type: "string", enum: ["a", "v".repeat(1_024)] } } }),
  },
  {
    name: "a field that is an object of its own",
    over: form({ address: { type: "object", properties: { street: { type: "string" } } } }),
    message: 'requestedSchema property "address": nested schemas are not allowed',
    at: form({ street: { type: "string" } }),
  },
  {
    name: "objects nested 1 000 levels deep",
    over: form({ deep: nest(1_000) }),
    message: 'requestedSchema property "deep": nested schemas are not allowed',
    at: form({ deep: { type: "string" } }),
  },
  {
    name: "a text default of 1 MiB",
    over: form({ note: { type: "string", default: "d".repeat(1024 * 1024) } }),
    message: 'requestedSchema property "note": default must be at most 16384 characters (it has 1048576)',
    at: form({ note: { type: "string", default: "d".repeat(16_384) } }),
  },
];

interface Setup {
  raw: RawStdioServer;
  flooded: ServerHandle;
  quiet: ServerHandle;
  forms: Schema[];
}

async function setup(era: "legacy" | "modern"): Promise<Setup> {
  const forms: Schema[] = [];
  const handler: Handler = {
    handleElicitation: (params): ElicitResult => {
      forms.push(params.requestedSchema as Schema);
      return { action: "decline" };
    },
  };
  const client = track(new Client({ name: "h", version: "0", logger: countingLogger(), handler }));
  const raw = track(await startRawStdio());
  if (era === "legacy") raw.autoInitialize();
  else raw.handle("server/discover", () => ({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" }));
  raw.handle("ping", () => ({}));
  const flooded = await client.connect("asker", raw.target);
  expect(flooded.era).toBe(era);
  const other = track(await startRawStdio());
  other.autoInitialize();
  other.handle("tools/call", () => ({ content: [] }));
  const quiet = await client.connect("quiet", other.target);
  return { raw, flooded, quiet, forms };
}

let nextId = 1;

/** One row for both eras: the refusal is the same, only how it reaches the server differs. */
const row = (name: string, message: string): SafetyRow => ({
  area: "Content abuse",
  tried: `a form schema of ${name}`,
  over: "stdio, both eras",
  outcome: `refused with \`-32602\` before the Handler runs (legacy: the answer; 2026-07-28: the call fails \`input_refused\`); another server's calls meanwhile < 2 000 ms: "${message.length > 120 ? `${message.slice(0, 120)}…` : message}"; the same form at the bound reaches the Handler`,
});

/** The legacy server asks; resolves with the client's answer. */
async function elicit(raw: RawStdioServer, schema: Schema): Promise<RpcMessage> {
  const id = `e-${nextId++}`;
  await raw.send({ jsonrpc: "2.0", id, method: "elicitation/create", params: { message: "Fill in", requestedSchema: schema } });
  return raw.next((m) => m.id === id && !("method" in m), 20_000);
}

describe("a legacy form elicitation past the bounds", () => {
  it.for(CASES)("of $name is refused with -32602 before the Handler runs; at the bound it runs", async ({ name, over, message, at }, context) => {
    const { raw, quiet, forms } = await setup("legacy");
    const latency = probeLatency(() => quiet.callTool("t", {}));
    const refused = await elicit(raw, over);
    const probe = await latency.stop();
    expect(refused.error).toEqual({ code: -32602, message });
    expect(forms).toHaveLength(0);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    expect((await elicit(raw, at)).result).toEqual({ action: "decline" });
    expect(forms).toEqual([at]);
    safetyRow(context, row(name, message));
  });
});

describe("a modern form input request past the bounds", () => {
  it.for(CASES)("of $name ends the call with input_refused -32602 before the Handler runs; at the bound it runs", async ({ name, over, message, at }, context) => {
    const { raw, flooded, quiet, forms } = await setup("modern");
    let schema = over;
    raw.handle("tools/call", (m) =>
      (m.params as { inputResponses?: unknown }).inputResponses === undefined
        ? { resultType: "input_required", inputRequests: { form: { method: "elicitation/create", params: { message: "Fill in", requestedSchema: schema } } } }
        : { resultType: "complete", content: [{ type: "text", text: "answered" }] },
    );
    const latency = probeLatency(() => quiet.callTool("t", {}));
    const error: unknown = await flooded.callTool("ask", {}).catch((caught: unknown) => caught);
    const probe = await latency.stop();
    expect(error).toMatchObject({ kind: "input_refused", code: -32602, serverId: "asker", message: `input request "form" (elicitation/create) was refused: ${message}` });
    expect(forms).toHaveLength(0);
    expect(probe.slowest).toBeLessThan(LATENCY_BOUND_MS);
    schema = at;
    expect(await flooded.callTool("ask", {})).toMatchObject({ content: [{ text: "answered" }] });
    expect(forms).toEqual([at]);
    safetyRow(context, row(name, message));
  });
});
