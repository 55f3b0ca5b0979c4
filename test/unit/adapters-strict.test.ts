// OpenAI strict mode: each rule of the rewrite crossed, through the public adapter, and the
// arguments the model then writes made what the server asked for (parseArguments).
import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../src/node.js";
import { toOpenAIResponsesTools, type JsonObject } from "../../src/adapters/index.js";

function tool(inputSchema: unknown, name = "t"): CatalogTool {
  return { name, serverId: "s", qualifiedName: `s_${name}`, visibility: ["model", "app"], inputSchema } as CatalogTool;
}

/** The strict parameters of a tool with this schema, or the reason it stayed non-strict. */
function strict(inputSchema: unknown, maxSchemaLength?: number): { parameters?: JsonObject; reason?: string } {
  const list = toOpenAIResponsesTools([tool(inputSchema)], { strict: true, ...(maxSchemaLength ? { maxSchemaLength } : {}) });
  expect(list.skipped).toEqual([]);
  const [definition] = list.tools;
  if (definition?.strict === true) return { parameters: definition.parameters };
  expect(definition?.parameters).toBeDefined();
  return { reason: list.notStrict[0]?.reason };
}

const object = (properties: Record<string, unknown>, required?: string[]) => ({ type: "object", properties, ...(required ? { required } : {}) });

describe("strict mode: objects", () => {
  it("closes every object and requires every property, nested, in arrays, unions and definitions", () => {
    const { parameters } = strict({
      type: "object",
      properties: {
        inner: object({ x: { type: "number" } }, ["x"]),
        list: { type: "array", items: object({ y: { type: "string" } }, ["y"]) },
        either: { anyOf: [object({ a: { type: "string" } }, ["a"]), { $ref: "#/$defs/point" }] },
      },
      required: ["inner", "list", "either"],
      additionalProperties: true,
      $defs: { point: object({ lat: { type: "number" } }, ["lat"]) },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: {
        inner: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false },
        list: { type: "array", items: { type: "object", properties: { y: { type: "string" } }, required: ["y"], additionalProperties: false } },
        either: { anyOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false }, { $ref: "#/$defs/point" }] },
      },
      required: ["inner", "list", "either"],
      additionalProperties: false,
      $defs: { point: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"], additionalProperties: false } },
    });
  });

  it("makes each optional property required and nullable, whatever its form", () => {
    const { parameters } = strict({
      $defs: { unit: { type: "string", enum: ["C", "F"] } },
      type: "object",
      properties: {
        kept: { type: "string" },
        plain: { type: "string", description: "d" },
        several: { type: ["string", "number"] },
        already: { type: ["integer", "null"] },
        choice: { type: "string", enum: ["a", "b"] },
        untypedEnum: { enum: [1, 2] },
        fixed: { const: "x" },
        reference: { $ref: "#/$defs/unit", description: "the unit" },
        union: { anyOf: [{ type: "string" }, { type: "number" }] },
        nullableUnion: { anyOf: [{ type: "string" }, { type: "null" }] },
        nested: object({ deep: { type: "boolean" } }),
      },
      required: ["kept"],
    });
    expect(parameters?.["required"]).toEqual(["kept", "plain", "several", "already", "choice", "untypedEnum", "fixed", "reference", "union", "nullableUnion", "nested"]);
    expect(parameters?.["properties"]).toEqual({
      kept: { type: "string" },
      plain: { type: ["string", "null"], description: "d" },
      several: { type: ["string", "number", "null"] },
      already: { type: ["integer", "null"] },
      choice: { type: ["string", "null"], enum: ["a", "b", null] },
      untypedEnum: { enum: [1, 2, null] },
      fixed: { enum: ["x", null] },
      reference: { description: "the unit", anyOf: [{ $ref: "#/$defs/unit" }, { type: "null" }] },
      union: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
      nullableUnion: { anyOf: [{ type: "string" }, { type: "null" }] },
      nested: { type: ["object", "null"], properties: { deep: { type: ["boolean", "null"] } }, required: ["deep"], additionalProperties: false },
    });
  });

  it("takes an empty root as no parameters, but not a root open to any property", () => {
    expect(strict({ type: "object" }).parameters).toEqual({ type: "object", properties: {}, required: [], additionalProperties: false });
    expect(strict({ type: "object", additionalProperties: true }).reason).toBe("strict mode: # is an object open to any property, which strict mode cannot express");
  });

  it("refuses an object it cannot close: a map, pattern properties, a free-form object below the root", () => {
    expect(strict(object({ tags: { type: "object", additionalProperties: { type: "string" } } })).reason).toBe(
      "strict mode: #/properties/tags is a map (its keys are not listed), which strict mode cannot express",
    );
    expect(strict(object({ tags: { type: "object", patternProperties: { "^x-": { type: "string" } } } })).reason).toMatch(/#\/properties\/tags is a map/);
    expect(strict(object({ meta: { type: "object" } })).reason).toBe("strict mode: #/properties/meta is an object open to any property, which strict mode cannot express");
    // Closed already, it is fine.
    expect(strict(object({ none: { type: "object", additionalProperties: false } })).parameters).toBeDefined();
  });

  it("keeps property names that are also Object's own members as plain fields", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"]}') as JsonObject;
    const { parameters } = strict(schema);
    const properties = parameters?.["properties"] as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "string" });
    expect(properties["constructor"]).toEqual({ type: ["number", "null"] });
  });
});

describe("strict mode: keywords", () => {
  it("keeps the supported keywords and removes the ones that only narrow or annotate", () => {
    const { parameters } = strict({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $comment: "c",
      type: "object",
      title: "Args",
      properties: {
        email: { type: "string", format: "email", pattern: "@", minLength: 3, maxLength: 99, default: "a@b", examples: ["x@y"] },
        when: { type: "string", format: "date-time" },
        url: { type: "string", format: "uri" },
        count: { type: "integer", minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 1, readOnly: true },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5, uniqueItems: true, contains: { const: "a" } },
        bag: { type: "object", properties: { a: { type: "string" } }, required: ["a"], minProperties: 1, propertyNames: { pattern: "^a" }, unevaluatedProperties: false },
      },
      required: ["email", "when", "url", "count", "tags", "bag"],
      deprecated: false,
    });
    expect(parameters).toEqual({
      type: "object",
      title: "Args",
      properties: {
        email: { type: "string", format: "email", pattern: "@" },
        when: { type: "string", format: "date-time" },
        url: { type: "string" },
        count: { type: "integer", minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 1 },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
        bag: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
      },
      required: ["email", "when", "url", "count", "tags", "bag"],
      additionalProperties: false,
    });
  });

  it("turns oneOf into anyOf and merges an allOf of one schema", () => {
    const { parameters } = strict(
      object(
        {
          shape: { oneOf: [{ type: "string" }, { type: "number" }] },
          merged: { description: "m", allOf: [{ allOf: [{ type: "string", maxLength: 3 }] }] },
        },
        ["shape", "merged"],
      ),
    );
    expect(parameters?.["properties"]).toEqual({ shape: { anyOf: [{ type: "string" }, { type: "number" }] }, merged: { description: "m", type: "string" } });
  });

  it("keeps references to the schema's own definitions, recursion included", () => {
    const { parameters } = strict({
      type: "object",
      properties: { node: { $ref: "#/definitions/node" } },
      required: ["node"],
      definitions: { node: object({ children: { type: "array", items: { $ref: "#/definitions/node" } }, up: { $ref: "#" } }, ["children", "up"]) },
    });
    expect(parameters?.["definitions"]).toEqual({
      node: {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/definitions/node" } }, up: { $ref: "#" } },
        required: ["children", "up"],
        additionalProperties: false,
      },
    });
  });

  it.each([
    ["not", object({ a: { type: "string", not: { const: "x" } } }, ["a"]), '"not" at #/properties/a is not supported'],
    ["if", object({ a: { type: "string", if: { const: "x" }, then: { minLength: 2 } } }, ["a"]), '"if" at #/properties/a is not supported'],
    ["dependentRequired", { ...object({ a: { type: "string" } }, ["a"]), dependentRequired: { a: ["b"] } }, '"dependentRequired" at # is not supported'],
    ["allOf of two", object({ a: { allOf: [{ type: "string" }, { maxLength: 2 }] } }, ["a"]), '"allOf" of several schemas at #/properties/a is not supported'],
    ["no items", object({ a: { type: "array" } }, ["a"]), 'the array at #/properties/a has no "items" schema'],
    ["tuple items", object({ a: { type: "array", items: [{ type: "string" }] } }, ["a"]), "the array at #/properties/a has tuple items"],
    ["prefixItems", object({ a: { type: "array", prefixItems: [{ type: "string" }], items: { type: "string" } } }, ["a"]), '"prefixItems" at #/properties/a is not supported'],
    ["no type", object({ a: { description: "anything" } }, ["a"]), "#/properties/a has no type (any value), which strict mode cannot express"],
    ["true schema", object({ a: true }, ["a"]), "#/properties/a is the schema true"],
    ["unknown type", object({ a: { type: "file" } }, ["a"]), 'the type "file" at #/properties/a is not supported'],
    ["remote $ref", object({ a: { $ref: "https://example.com/a.json" } }, ["a"]), 'the $ref "https://example.com/a.json" at #/properties/a is not to the schema\'s own definitions'],
    ["$ref with properties", { ...object({ a: { $ref: "#/$defs/b", properties: { c: { type: "string" } } } }, ["a"]), $defs: { b: object({}) } }, '"properties" beside a $ref at #/properties/a is not supported'],
    ["nested definitions", object({ a: { type: "string", $defs: { b: { type: "string" } } } }, ["a"]), "definitions at #/properties/a, below the root, are not supported"],
  ])("refuses what would change the arguments' shape: %s", (_name, schema, reason) => {
    expect(strict(schema).reason).toBe(`strict mode: ${reason}`);
  });
});

describe("strict mode: OpenAI's size limits", () => {
  const nested = (levels: number): unknown => (levels === 0 ? { type: "string" } : object({ next: nested(levels - 1) }, ["next"]));

  it("takes 10 levels of objects (the root one of them), not 11", () => {
    expect(strict(nested(10)).parameters).toBeDefined();
    expect(strict(nested(11)).reason).toMatch(/is nested in more than 10 objects$/);
  });

  it("takes 5,000 properties, not 5,001", () => {
    const properties = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string" }]));
    expect(strict(object(properties(5000)), Infinity).parameters).toBeDefined();
    expect(strict(object(properties(5001)), Infinity).reason).toBe("strict mode: the schema has more than 5000 properties");
  });

  it("takes 1,000 enum values, not 1,001, and a big enum only up to 15,000 characters", () => {
    const values = (n: number, width = 1) => Array.from({ length: n }, (_, i) => String(i).padStart(width, "0"));
    const two = (a: unknown[], b: unknown[]) => object({ a: { enum: a }, b: { enum: b } }, ["a", "b"]);
    expect(strict(two(values(500), values(500))).parameters).toBeDefined();
    expect(strict(two(values(500), values(501))).reason).toBe("strict mode: the schema has more than 1000 enum values");
    // 251 values: 251 × 59 = 14,809 characters is fine, 251 × 60 = 15,060 is not.
    expect(strict(object({ a: { enum: values(251, 59) } }, ["a"])).parameters).toBeDefined();
    expect(strict(object({ a: { enum: values(251, 60) } }, ["a"])).reason).toMatch(/has 251 values of 15060 characters, over 15000$/);
  });

  it("takes 120,000 characters of names and values, not more", () => {
    const names = (n: number, width: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i).padStart(width, "x"), { type: "string" }]));
    expect(strict(object(names(100, 1200)), Infinity).parameters).toBeDefined();
    expect(strict(object({ ...names(100, 1200), y: { type: "string" } }), Infinity).reason).toBe("strict mode: the schema has more than 120000 characters of names and values");
  });
});

describe("parseArguments", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      note: { type: "string" },
      maybe: { type: ["string", "null"] },
      where: { $ref: "#/$defs/place" },
      stops: { type: "array", items: { $ref: "#/$defs/place" } },
      either: { anyOf: [object({ a: { type: "string" }, x: { type: "number" } }, ["a"]), object({ b: { type: "string" } }, ["b"])] },
    },
    required: ["name"],
    $defs: { place: object({ city: { type: "string" }, zip: { type: "string" } }, ["city"]) },
  };

  it("takes out the nulls strict mode makes the model write for properties the server lets be left out", () => {
    const list = toOpenAIResponsesTools([tool(schema)], { strict: true });
    expect(list.tools[0]?.strict).toBe(true);
    const args = {
      name: null,
      note: null,
      maybe: null,
      where: { city: "Oslo", zip: null },
      stops: [{ city: "Bergen", zip: null }, { city: "Bodø", zip: "8000" }],
      either: { a: "y", x: null },
    };
    expect(list.parseArguments("s_t", JSON.stringify(args))).toEqual({
      name: null,
      maybe: null,
      where: { city: "Oslo" },
      stops: [{ city: "Bergen" }, { city: "Bodø", zip: "8000" }],
      either: { a: "y" },
    });
  });

  it("only parses the arguments of a tool that is not strict", () => {
    const list = toOpenAIResponsesTools([tool(schema)]);
    expect(list.parseArguments("s_t", '{"note":null}')).toEqual({ note: null });
    expect(list.parseArguments("s_t", "")).toEqual({});
    expect(() => list.parseArguments("s_t", "{not json")).toThrow(SyntaxError);
    expect(() => list.parseArguments("s_t", "[1]")).toThrow(new TypeError("the arguments for s_t are not a JSON object"));
  });
});
