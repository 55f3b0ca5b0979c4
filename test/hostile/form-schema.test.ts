// Form elicitations too big for a person: 100 000 properties, 50 000 `required` names, names of
// kilobytes, thousands of choices, titles and descriptions of megabytes. Past FORM_BOUNDS each is refused before the Handler runs
// (-32602 in the legacy era; input_refused with that code in the modern one), in time linear in
// its size: a call to another server on the same Client keeps its latency meanwhile. At the
// bounds themselves the form reaches the Handler.
import { describe, expect, it } from "vitest";
import { Client, type ElicitResult, type Handler, type ServerHandle } from "../../src/node.js";
import { FORM_BOUNDS } from "../../src/input/form-schema.js";
import { startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { count, safetyRow, type SafetyRow } from "./safety.js";
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

/** Sizes far past the bounds: a server's whim, not a bound of Conduit's. */
const HUGE = 100_000;
const HALF = 50_000;
const MIB = 1024 * 1024;
const ENUM_NAMES = 2_000_000;
const NESTING = 1_000;
const B = BOUNDS;
const mib = (bytes: number): string => `${count(bytes / MIB)} MiB`;

/**
 * Each case: a schema past a bound, the exact refusal, and the same kind of schema at the bound.
 * Names, schemas and messages are written from the same numbers: a row cannot name one size
 * while the test sends another.
 */
const CASES: Array<{ name: string; over: Schema; message: string; at: Schema }> = [
  {
    name: `${count(HUGE)} properties`,
    over: form(strings(HUGE)),
    message: `requestedSchema has ${HUGE} properties; a form has at most ${B.fields}`,
    at: form(strings(B.fields)),
  },
  {
    name: `${count(HUGE)} properties, ${count(HALF)} of them required`,
    over: form(strings(HUGE), Array.from({ length: HALF }, (_, i) => `f${HUGE - 1 - i}`)),
    message: `requestedSchema has ${HUGE} properties; a form has at most ${B.fields}`,
    at: form(strings(B.fields), Array.from({ length: B.fields }, (_, i) => `f${B.fields - 1 - i}`)),
  },
  {
    name: `${count(HALF)} required names`,
    over: form(strings(3), Array.from({ length: HALF }, (_, i) => `f${i % 3}`)),
    message: `requestedSchema.required has ${HALF} names; a form has at most ${B.fields} fields`,
    at: form(strings(3), Array.from({ length: B.fields }, (_, i) => `f${i % 3}`)),
  },
  {
    name: `${count(B.fields + 1)} properties`,
    over: form(strings(B.fields + 1)),
    message: `requestedSchema has ${B.fields + 1} properties; a form has at most ${B.fields}`,
    at: form(strings(B.fields)),
  },
  {
    name: `a name of ${count(B.nameCharacters + 1)} characters`,
    over: form({ ["n".repeat(B.nameCharacters + 1)]: { type: "string" } }),
    message: `requestedSchema property "${"n".repeat(99)}…": a field name has at most ${B.nameCharacters} characters`,
    at: form({ ["n".repeat(B.nameCharacters)]: { type: "string" } }),
  },
  {
    name: `an enum of ${count(B.options + 1)} choices`,
    over: form({ pick: { type: "string", enum: choices(B.options + 1) } }),
    message: `requestedSchema property "pick": ${B.options + 1} choices; a field has at most ${B.options}`,
    at: form({ pick: { type: "string", enum: choices(B.options) } }),
  },
  {
    name: `a multi-select of ${count(HUGE)} choices`,
    over: form({ many: { type: "array", items: { type: "string", enum: choices(HUGE) } } }),
    message: `requestedSchema property "many": ${HUGE} choices; a field has at most ${B.options}`,
    at: form({ many: { type: "array", items: { type: "string", enum: choices(B.options) }, default: Array.from({ length: HALF }, (_, i) => `c${i % B.options}`) } }),
  },
  {
    name: `a field title of ${count(B.titleCharacters + 1)} characters`,
    over: form({ f: { type: "string", title: "t".repeat(B.titleCharacters + 1) } }),
    message: `requestedSchema property "f": title must be at most ${B.titleCharacters} characters (it has ${B.titleCharacters + 1})`,
    at: form({ f: { type: "string", title: "t".repeat(B.titleCharacters) } }),
  },
  {
    name: `a field description of ${count(B.descriptionCharacters + 1)} characters`,
    over: form({ f: { type: "string", description: "d".repeat(B.descriptionCharacters + 1) } }),
    message: `requestedSchema property "f": description must be at most ${B.descriptionCharacters} characters (it has ${B.descriptionCharacters + 1})`,
    at: form({ f: { type: "string", description: "d".repeat(B.descriptionCharacters) } }),
  },
  {
    name: `${count(B.fields)} fields, the last described in ${mib(MIB)}`,
    over: form(Object.fromEntries(Array.from({ length: B.fields }, (_, i) => [`f${i}`, { type: "string", description: "d".repeat(i === B.fields - 1 ? MIB : B.descriptionCharacters) }]))),
    message: `requestedSchema property "f${B.fields - 1}": description must be at most ${B.descriptionCharacters} characters (it has ${MIB})`,
    at: form(Object.fromEntries(Array.from({ length: B.fields }, (_, i) => [`f${i}`, { type: "string", description: "d".repeat(B.descriptionCharacters) }]))),
  },
  {
    name: `a choice title of ${count(B.titleCharacters + 1)} characters`,
    over: form({ pick: { type: "string", oneOf: [{ const: "a", title: "t".repeat(B.titleCharacters + 1) }] } }),
    message: `requestedSchema property "pick": a choice's title must be at most ${B.titleCharacters} characters (it has ${B.titleCharacters + 1})`,
    at: form({ pick: { type: "string", oneOf: [{ const: "a", title: "t".repeat(B.titleCharacters) }] } }),
  },
  {
    name: `${count(B.options)} enumNames, the last of ${mib(MIB)}`,
    over: form({ pick: { type: "string", enum: choices(B.options), enumNames: Array.from({ length: B.options }, (_, i) => "t".repeat(i === B.options - 1 ? MIB : B.titleCharacters)) } }),
    message: `requestedSchema property "pick": a choice's title must be at most ${B.titleCharacters} characters (it has ${MIB})`,
    at: form({ pick: { type: "string", enum: choices(B.options), enumNames: Array.from({ length: B.options }, () => "t".repeat(B.titleCharacters)) } }),
  },
  {
    name: `${count(ENUM_NAMES)} enumNames for one choice`,
    over: form({ pick: { type: "string", enum: ["a"], enumNames: Array.from({ length: ENUM_NAMES }, () => "t") } }),
    message: `requestedSchema property "pick": ${ENUM_NAMES} choices; a field has at most ${B.options}`,
    at: form({ pick: { type: "string", enum: ["a"], enumNames: Array.from({ length: B.options }, () => "t") } }),
  },
  {
    name: `a choice value of ${mib(MIB)}`,
    over: form({ pick: { type: "string", enum: ["a", "v".repeat(MIB)] } }),
    message: `requestedSchema property "pick": a choice's value must be at most ${B.titleCharacters} characters (it has ${MIB})`,
    at: form({ pick: { type: "string", enum: ["a", "v".repeat(B.titleCharacters)] } }),
  },
  {
    name: `a multi-select value of ${count(B.titleCharacters + 1)} characters`,
    over: form({ many: { type: "array", items: { type: "string", enum: ["a", "v".repeat(B.titleCharacters + 1)] } } }),
    message: `requestedSchema property "many": a choice's value must be at most ${B.titleCharacters} characters (it has ${B.titleCharacters + 1})`,
    at: form({ many: { type: "array", items: { type: "string", enum: ["a", "v".repeat(B.titleCharacters)] } } }),
  },
  {
    name: "a field that is an object of its own",
    over: form({ address: { type: "object", properties: { street: { type: "string" } } } }),
    message: 'requestedSchema property "address": nested schemas are not allowed',
    at: form({ street: { type: "string" } }),
  },
  {
    name: `objects nested ${count(NESTING)} levels deep`,
    over: form({ deep: nest(NESTING) }),
    message: 'requestedSchema property "deep": nested schemas are not allowed',
    at: form({ deep: { type: "string" } }),
  },
  {
    name: `a text default of ${mib(MIB)}`,
    over: form({ note: { type: "string", default: "d".repeat(MIB) } }),
    message: `requestedSchema property "note": default must be at most ${B.defaultCharacters} characters (it has ${MIB})`,
    at: form({ note: { type: "string", default: "d".repeat(B.defaultCharacters) } }),
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
  outcome: `refused with \`-32602\` before the Handler runs (legacy: the answer; 2026-07-28: the call fails \`input_refused\`); another server's calls meanwhile < ${count(LATENCY_BOUND_MS)} ms: "${message.length > 120 ? `${message.slice(0, 120)}…` : message}"; the same form at the bound reaches the Handler`,
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
