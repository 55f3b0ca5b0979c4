// Form elicitation schemas and answers (src/input/form-schema.ts) against the digest's table
// (§3.3, PrimitiveSchemaDefinition per version), and the secret-looking field hint
// (src/input/sensitive-fields.ts).
import { describe, expect, it } from "vitest";
import { checkAnswer, checkFormSchema, type Form } from "../../src/input/form-schema.js";
import type { ProtocolVersion } from "../../src/protocol/versions.js";

const INVALID_PARAMS = -32602;
const ALL: ProtocolVersion[] = ["2025-06-18", "2025-11-25", "2026-07-28"];
const MODERN: ProtocolVersion[] = ["2025-11-25", "2026-07-28"];

const schemaOf = (properties: Record<string, unknown>, required?: string[]) => ({
  type: "object",
  properties,
  ...(required === undefined ? {} : { required }),
});

/** The verdict's refusal for a one-property schema, or "ok". */
function verdictFor(property: unknown, version: ProtocolVersion): string {
  const verdict = checkFormSchema(schemaOf({ f: property }), version);
  if (verdict.ok) return "ok";
  expect(verdict.refusal.code).toBe(INVALID_PARAMS);
  return verdict.refusal.message;
}

function formOf(properties: Record<string, unknown>, version: ProtocolVersion, required?: string[]): Form {
  const verdict = checkFormSchema(schemaOf(properties, required), version);
  if (!verdict.ok) throw new Error(verdict.refusal.message);
  return verdict.value;
}

/** Checks `value` for a one-field form; "ok" or the reason. */
function answerFor(property: Record<string, unknown>, value: unknown, version: ProtocolVersion = "2025-11-25"): string {
  const checked = checkAnswer(formOf({ f: property }, version), { f: value }, version);
  return checked.ok ? "ok" : checked.reason;
}

const enumValues = ["red", "green", "blue"];
const titled = [
  { const: "r", title: "Red" },
  { const: "g", title: "Green" },
];

describe("checkFormSchema: the kinds of the digest table", () => {
  it("accepts string schemas with title, description, min/maxLength and each format, in every version", () => {
    for (const version of ALL) {
      for (const format of [undefined, "email", "uri", "date", "date-time"]) {
        const property = { type: "string", title: "T", description: "D", minLength: 1, maxLength: 10, ...(format ? { format } : {}) };
        expect(verdictFor(property, version), `${version} ${format}`).toBe("ok");
      }
      expect(formOf({ f: { type: "string" } }, version).fields[0]!.kind).toEqual({ type: "string", options: undefined });
    }
  });

  it("accepts number and integer schemas with minimum and maximum, in every version", () => {
    for (const version of ALL) {
      expect(verdictFor({ type: "number", minimum: 0.5, maximum: 9.5 }, version)).toBe("ok");
      expect(verdictFor({ type: "integer", minimum: -3, maximum: 3 }, version)).toBe("ok");
      expect(formOf({ f: { type: "number" } }, version).fields[0]!.kind).toEqual({ type: "number", integer: false });
      expect(formOf({ f: { type: "integer" } }, version).fields[0]!.kind).toEqual({ type: "number", integer: true });
    }
  });

  it("accepts booleans with a boolean default in every version, and refuses any other default", () => {
    for (const version of ALL) {
      expect(verdictFor({ type: "boolean", default: true }, version)).toBe("ok");
      expect(verdictFor({ type: "boolean", default: "yes" }, version)).toBe('requestedSchema property "f": default must be a boolean');
      expect(formOf({ f: { type: "boolean" } }, version).fields[0]!.kind).toEqual({ type: "boolean" });
    }
  });

  it("accepts the legacy titled enum (enum + enumNames) in every version", () => {
    for (const version of ALL) {
      expect(verdictFor({ type: "string", enum: enumValues, enumNames: ["Red", "Green", "Blue"] }, version)).toBe("ok");
      expect(verdictFor({ type: "string", enum: enumValues }, version)).toBe("ok");
      expect(formOf({ f: { type: "string", enum: enumValues } }, version).fields[0]!.kind).toEqual({ type: "string", options: enumValues });
    }
  });

  it("refuses empty or non-string enums and non-string enumNames", () => {
    for (const version of ALL) {
      expect(verdictFor({ type: "string", enum: [] }, version)).toBe('requestedSchema property "f": enum must be a non-empty array of strings');
      expect(verdictFor({ type: "string", enum: ["a", 1] }, version)).toBe('requestedSchema property "f": enum must be a non-empty array of strings');
      expect(verdictFor({ type: "string", enum: ["a"], enumNames: [1] }, version)).toBe('requestedSchema property "f": enumNames must be an array of strings');
    }
  });

  it("accepts titled single-select (oneOf of const/title) from 2025-11-25 on, and refuses it in 2025-06-18", () => {
    expect(verdictFor({ type: "string", oneOf: titled }, "2025-06-18")).toBe('requestedSchema property "f": oneOf enums are not allowed in 2025-06-18 forms');
    for (const version of MODERN) {
      expect(verdictFor({ type: "string", oneOf: titled, default: "g" }, version)).toBe("ok");
      expect(formOf({ f: { type: "string", oneOf: titled } }, version).fields[0]!.kind).toEqual({ type: "string", options: ["r", "g"] });
      expect(verdictFor({ type: "string", oneOf: [{ title: "no const" }] }, version)).toBe('requestedSchema property "f": oneOf must list { const, title } string pairs');
      expect(verdictFor({ type: "string", oneOf: [] }, version)).toBe('requestedSchema property "f": oneOf must list { const, title } string pairs');
    }
  });

  it("accepts untitled and titled multi-select arrays from 2025-11-25 on, and refuses arrays in 2025-06-18", () => {
    const untitled = { type: "array", items: { type: "string", enum: enumValues }, minItems: 1, maxItems: 2, default: ["red"] };
    const titledMulti = { type: "array", items: { anyOf: titled }, default: ["r", "g"] };
    expect(verdictFor(untitled, "2025-06-18")).toBe('requestedSchema property "f": arrays are not allowed in 2025-06-18 forms');
    expect(verdictFor(titledMulti, "2025-06-18")).toBe('requestedSchema property "f": arrays are not allowed in 2025-06-18 forms');
    for (const version of MODERN) {
      expect(verdictFor(untitled, version)).toBe("ok");
      expect(verdictFor(titledMulti, version)).toBe("ok");
      expect(formOf({ f: untitled }, version).fields[0]!.kind).toEqual({ type: "multi", options: enumValues });
      expect(formOf({ f: titledMulti }, version).fields[0]!.kind).toEqual({ type: "multi", options: ["r", "g"] });
    }
  });

  it("refuses malformed multi-selects", () => {
    const v = "2025-11-25";
    const prefix = 'requestedSchema property "f": ';
    expect(verdictFor({ type: "array" }, v)).toBe(`${prefix}a multi-select needs an items schema`);
    expect(verdictFor({ type: "array", items: { type: "string" } }, v)).toBe(`${prefix}multi-select items must be a string enum or an anyOf of { const, title }`);
    expect(verdictFor({ type: "array", items: { type: "number", enum: [1] } }, v)).toBe(`${prefix}multi-select items must be a string enum or an anyOf of { const, title }`);
    expect(verdictFor({ type: "array", items: { type: "string", enum: ["a"] }, minItems: "1" }, v)).toBe(`${prefix}minItems and maxItems must be numbers`);
    expect(verdictFor({ type: "array", items: { type: "string", enum: ["a"] }, default: ["b"] }, v)).toBe(`${prefix}default must list options`);
    expect(verdictFor({ type: "array", items: { type: "string", enum: ["a"] }, default: "a" }, v)).toBe(`${prefix}default must list options`);
  });

  it("checks defaults from 2025-11-25 on: string, number, and enum membership", () => {
    for (const version of MODERN) {
      expect(verdictFor({ type: "string", default: "x" }, version)).toBe("ok");
      expect(verdictFor({ type: "number", default: 3 }, version)).toBe("ok");
      expect(verdictFor({ type: "string", enum: enumValues, default: "red" }, version)).toBe("ok");
      expect(verdictFor({ type: "string", default: 3 }, version)).toBe('requestedSchema property "f": default must be a string');
      expect(verdictFor({ type: "integer", default: "3" }, version)).toBe('requestedSchema property "f": default must be a number');
      expect(verdictFor({ type: "string", enum: enumValues, default: "pink" }, version)).toBe('requestedSchema property "f": default must be one of the options');
      expect(verdictFor({ type: "string", oneOf: titled, default: "Red" }, version)).toBe('requestedSchema property "f": default must be one of the options');
    }
  });

  it("ignores a default on a non-boolean in 2025-06-18, where the schema has none", () => {
    expect(verdictFor({ type: "string", default: 3 }, "2025-06-18")).toBe("ok");
    expect(verdictFor({ type: "number", default: "x" }, "2025-06-18")).toBe("ok");
  });

  it("keeps the fields in order with their schemas, and the required names", () => {
    const properties = { b: { type: "string" }, a: { type: "integer", minimum: 1 }, c: { type: "boolean" } };
    const verdict = checkFormSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schemaOf(properties, ["a"]) }, "2025-11-25");
    expect(verdict).toEqual({
      ok: true,
      value: {
        fields: [
          { name: "b", kind: { type: "string", options: undefined }, schema: properties.b },
          { name: "a", kind: { type: "number", integer: true }, schema: properties.a },
          { name: "c", kind: { type: "boolean" }, schema: properties.c },
        ],
        required: ["a"],
        names: ["b", "a", "c"],
      },
    });
  });

  it("accepts an empty form", () => {
    expect(checkFormSchema(schemaOf({}), "2025-06-18")).toEqual({ ok: true, value: { fields: [], required: [], names: [] } });
  });
});

describe("checkFormSchema: what is not flat or not a schema", () => {
  it("refuses nested objects with -32602", () => {
    const nested = { type: "object", properties: { street: { type: "string" } } };
    expect(verdictFor(nested, "2025-06-18")).toBe('requestedSchema property "f": nested schemas are not allowed');
    expect(verdictFor({ type: "object" }, "2025-06-18")).toBe(
      'requestedSchema property "f": type "object" is not a flat primitive (string, number, integer, boolean)',
    );
    for (const version of MODERN) {
      expect(verdictFor({ type: "object" }, version)).toBe(
        'requestedSchema property "f": type "object" is not a flat primitive (string, number, integer, boolean, or a multi-select array)',
      );
      expect(verdictFor(nested, version)).toBe('requestedSchema property "f": nested schemas are not allowed');
    }
  });

  it("refuses arrays of objects and arrays of free strings", () => {
    for (const version of MODERN) {
      expect(verdictFor({ type: "array", items: { type: "object", properties: { a: { type: "string" } } } }, version)).toBe(
        'requestedSchema property "f": multi-select items must be a string enum or an anyOf of { const, title }',
      );
    }
  });

  it("refuses references and combinators", () => {
    const v = "2025-11-25";
    expect(verdictFor({ $ref: "#/defs/x" }, v)).toBe('requestedSchema property "f": nested schemas are not allowed');
    expect(verdictFor({ type: "string", allOf: [{ minLength: 1 }] }, v)).toBe('requestedSchema property "f": nested schemas are not allowed');
    expect(verdictFor({ type: "string", not: { const: "x" } }, v)).toBe('requestedSchema property "f": nested schemas are not allowed');
    expect(verdictFor({ type: "string", anyOf: titled }, v)).toBe('requestedSchema property "f": anyOf is only allowed in multi-select items');
  });

  it("refuses unknown types, missing types and non-object properties", () => {
    const v = "2025-06-18";
    expect(verdictFor({ type: "null" }, v)).toBe('requestedSchema property "f": type "null" is not a flat primitive (string, number, integer, boolean)');
    expect(verdictFor({ title: "no type" }, v)).toBe('requestedSchema property "f": type undefined is not a flat primitive (string, number, integer, boolean)');
    expect(verdictFor("string", v)).toBe('requestedSchema property "f": not a schema object');
    expect(verdictFor(null, v)).toBe('requestedSchema property "f": not a schema object');
    expect(verdictFor([{ type: "string" }], v)).toBe('requestedSchema property "f": not a schema object');
  });

  it("refuses ill-typed keywords the client acts on", () => {
    const v = "2025-11-25";
    const prefix = 'requestedSchema property "f": ';
    expect(verdictFor({ type: "string", title: 1 }, v)).toBe(`${prefix}title must be a string`);
    expect(verdictFor({ type: "string", description: {} }, v)).toBe(`${prefix}description must be a string`);
    expect(verdictFor({ type: "string", minLength: "1" }, v)).toBe(`${prefix}minLength and maxLength must be numbers`);
    expect(verdictFor({ type: "string", maxLength: Number.POSITIVE_INFINITY }, v)).toBe(`${prefix}minLength and maxLength must be numbers`);
    expect(verdictFor({ type: "number", maximum: "9" }, v)).toBe(`${prefix}minimum and maximum must be numbers`);
    expect(verdictFor({ type: "string", format: "hostname" }, v)).toBe(`${prefix}format "hostname" is not one of email, uri, date, date-time`);
  });

  it("ignores keywords it does not act on, pattern included", () => {
    for (const version of ALL) {
      expect(verdictFor({ type: "string", pattern: "^[0-9]+$", "x-ui": { widget: "textarea" }, examples: ["1"] }, version)).toBe("ok");
    }
    // pattern is not in the spec's StringSchema: it is not enforced either.
    expect(answerFor({ type: "string", pattern: "^[0-9]+$" }, "letters")).toBe("ok");
  });

  it("refuses a requestedSchema that is not a flat object schema", () => {
    const refusal = (message: string) => ({ ok: false, refusal: { code: INVALID_PARAMS, message } });
    const notObject = 'requestedSchema must be an object schema with type "object"';
    expect(checkFormSchema(undefined, "2025-11-25")).toEqual(refusal(notObject));
    expect(checkFormSchema([], "2025-11-25")).toEqual(refusal(notObject));
    expect(checkFormSchema({ properties: {} }, "2025-11-25")).toEqual(refusal(notObject));
    expect(checkFormSchema({ type: "string" }, "2025-11-25")).toEqual(refusal(notObject));
    expect(checkFormSchema({ type: "object" }, "2025-11-25")).toEqual(refusal("requestedSchema.properties must be an object"));
    expect(checkFormSchema({ type: "object", properties: [] }, "2025-11-25")).toEqual(refusal("requestedSchema.properties must be an object"));
    expect(checkFormSchema({ type: "object", properties: {}, required: "a" }, "2025-11-25")).toEqual(
      refusal("requestedSchema.required must be an array of names"),
    );
    expect(checkFormSchema({ type: "object", properties: {}, required: [1] }, "2025-11-25")).toEqual(
      refusal("requestedSchema.required must be an array of names"),
    );
  });
});

describe("checkAnswer: types and presence", () => {
  it("checks strings, numbers, integers and booleans", () => {
    expect(answerFor({ type: "string" }, "x")).toBe("ok");
    expect(answerFor({ type: "string" }, 42)).toBe('"f" must be a string');
    expect(answerFor({ type: "number" }, 2.5)).toBe("ok");
    expect(answerFor({ type: "number" }, "2.5")).toBe('"f" must be a number');
    expect(answerFor({ type: "integer" }, 3)).toBe("ok");
    expect(answerFor({ type: "integer" }, 2.5)).toBe('"f" must be an integer');
    expect(answerFor({ type: "integer" }, "3")).toBe('"f" must be a number');
    expect(answerFor({ type: "number" }, Number.NaN)).toBe('"f" must be a number');
    expect(answerFor({ type: "boolean" }, false)).toBe("ok");
    expect(answerFor({ type: "boolean" }, "true")).toBe('"f" must be a boolean');
    expect(answerFor({ type: "boolean" }, 1)).toBe('"f" must be a boolean');
  });

  it("fails when a required field is missing, and passes when an optional one is", () => {
    const form = formOf({ name: { type: "string" }, note: { type: "string" } }, "2025-11-25", ["name"]);
    expect(checkAnswer(form, { note: "n" }, "2025-11-25")).toEqual({ ok: false, reason: 'the required field "name" is missing' });
    expect(checkAnswer(form, { name: "Ada" }, "2025-11-25")).toEqual({ ok: true, content: { name: "Ada" } });
    expect(checkAnswer(form, undefined, "2025-11-25")).toEqual({ ok: false, reason: 'the required field "name" is missing' });
  });

  it("refuses a field the form does not have", () => {
    const form = formOf({ name: { type: "string" } }, "2025-06-18");
    expect(checkAnswer(form, { name: "Ada", admin: true }, "2025-06-18")).toEqual({ ok: false, reason: '"admin" is not a field of the form' });
  });

  it("refuses content that is not an object, and reads a missing one as empty", () => {
    const form = formOf({ name: { type: "string" } }, "2025-11-25");
    expect(checkAnswer(form, ["Ada"], "2025-11-25")).toEqual({ ok: false, reason: "content must be an object" });
    expect(checkAnswer(form, "Ada", "2025-11-25")).toEqual({ ok: false, reason: "content must be an object" });
    expect(checkAnswer(form, undefined, "2025-11-25")).toEqual({ ok: true, content: {} });
    expect(checkAnswer(form, null, "2025-11-25")).toEqual({ ok: true, content: {} });
  });

  it("returns exactly the content to send", () => {
    const form = formOf({ name: { type: "string" }, age: { type: "integer" }, ok: { type: "boolean" } }, "2025-06-18", ["name"]);
    expect(checkAnswer(form, { name: "Ada", age: 36, ok: true }, "2025-06-18")).toEqual({ ok: true, content: { name: "Ada", age: 36, ok: true } });
  });
});

describe("checkAnswer: enums", () => {
  it("accepts only listed enum values", () => {
    expect(answerFor({ type: "string", enum: enumValues }, "green")).toBe("ok");
    expect(answerFor({ type: "string", enum: enumValues }, "Green")).toBe('"f" must be one of the options');
    expect(answerFor({ type: "string", enum: enumValues, enumNames: ["Red", "Green", "Blue"] }, "Red", "2025-06-18")).toBe('"f" must be one of the options');
  });

  it("accepts oneOf consts, not their titles", () => {
    expect(answerFor({ type: "string", oneOf: titled }, "r")).toBe("ok");
    expect(answerFor({ type: "string", oneOf: titled }, "Red")).toBe('"f" must be one of the options');
  });

  it("checks multi-select items and counts", () => {
    const multi = { type: "array", items: { type: "string", enum: enumValues }, minItems: 1, maxItems: 2 };
    expect(answerFor(multi, ["red"])).toBe("ok");
    expect(answerFor(multi, ["red", "blue"])).toBe("ok");
    expect(answerFor(multi, [])).toBe('"f" must select at least 1');
    expect(answerFor(multi, ["red", "green", "blue"])).toBe('"f" must select at most 2');
    expect(answerFor(multi, ["red", "pink"])).toBe('"f" must list only the options');
    expect(answerFor(multi, "red")).toBe('"f" must be an array of strings');
    expect(answerFor(multi, ["red", 1])).toBe('"f" must be an array of strings');
    const titledMulti = { type: "array", items: { anyOf: titled } };
    expect(answerFor(titledMulti, ["r", "g"])).toBe("ok");
    expect(answerFor(titledMulti, ["Red"])).toBe('"f" must list only the options');
  });
});

describe("checkAnswer: bounds", () => {
  it("counts string length in characters, so an emoji is one", () => {
    const bounded = { type: "string", minLength: 2, maxLength: 3 };
    expect(answerFor(bounded, "a")).toBe('"f" must have at least 2 characters');
    expect(answerFor(bounded, "ab")).toBe("ok");
    expect(answerFor(bounded, "abc")).toBe("ok");
    expect(answerFor(bounded, "abcd")).toBe('"f" must have at most 3 characters');
    expect(answerFor(bounded, "😀😀😀")).toBe("ok");
    expect(answerFor(bounded, "😀")).toBe('"f" must have at least 2 characters');
    expect(answerFor({ type: "string", maxLength: 1 }, "😀")).toBe("ok");
  });

  it("checks minimum and maximum inclusively", () => {
    const bounded = { type: "integer", minimum: 0, maximum: 120 };
    expect(answerFor(bounded, -1)).toBe('"f" must be at least 0');
    expect(answerFor(bounded, 0)).toBe("ok");
    expect(answerFor(bounded, 120)).toBe("ok");
    expect(answerFor(bounded, 121)).toBe('"f" must be at most 120');
    expect(answerFor({ type: "number", minimum: 0.5 }, 0.49)).toBe('"f" must be at least 0.5');
  });
});

describe("checkAnswer: formats", () => {
  it("checks email", () => {
    const email = { type: "string", format: "email" };
    expect(answerFor(email, "ada@example.com")).toBe("ok");
    for (const bad of ["ada", "ada@example", "@example.com", "ada @example.com", "ada@@example.com"]) {
      expect(answerFor(email, bad), bad).toBe('"f" must be a valid email');
    }
  });

  it("checks uri", () => {
    const uri = { type: "string", format: "uri" };
    expect(answerFor(uri, "https://example.com/a?b=c")).toBe("ok");
    expect(answerFor(uri, "mailto:ada@example.com")).toBe("ok");
    for (const bad of ["example.com", "/relative/path", "not a uri", ""]) expect(answerFor(uri, bad), bad).toBe('"f" must be a valid uri');
  });

  it("checks date, with real calendar days", () => {
    const date = { type: "string", format: "date" };
    expect(answerFor(date, "2025-01-31")).toBe("ok");
    expect(answerFor(date, "2024-02-29")).toBe("ok");
    for (const bad of ["2025-02-30", "2025-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-1-5", "2025-01-31T00:00:00Z", "31/01/2025"]) {
      expect(answerFor(date, bad), bad).toBe('"f" must be a valid date');
    }
  });

  it("checks date-time", () => {
    const dateTime = { type: "string", format: "date-time" };
    for (const good of ["2025-01-31T12:30:00Z", "2025-01-31t12:30:00z", "2025-01-31T12:30:00.123+02:00", "2025-01-31T23:59:59-05:30"]) {
      expect(answerFor(dateTime, good), good).toBe("ok");
    }
    for (const bad of ["2025-02-30T12:00:00Z", "2025-01-31 12:30:00Z", "2025-01-31T12:30Z", "2025-01-31T12:30:00", "2025-01-31"]) {
      expect(answerFor(dateTime, bad), bad).toBe('"f" must be a valid date-time');
    }
  });

  // Regression: the time of day was once only matched as \d{2}:\d{2}:\d{2}. RFC 3339 §5.6
  // allows hour 00–23, minute 00–59, second 00–60.
  it("refuses a date-time whose time of day does not exist", () => {
    const dateTime = { type: "string", format: "date-time" };
    expect(answerFor(dateTime, "2025-01-31T25:00:00Z")).toBe('"f" must be a valid date-time');
    expect(answerFor(dateTime, "2025-01-31T12:99:99Z")).toBe('"f" must be a valid date-time');
  });
});

describe("checkAnswer: defaults", () => {
  const properties = {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", default: 36 },
    ok: { type: "boolean", default: true },
    colour: { type: "string", enum: enumValues, default: "blue" },
    size: { type: "string", oneOf: titled, default: "g" },
    tags: { type: "array", items: { type: "string", enum: enumValues }, default: ["red", "green"] },
  };

  it("fills in the defaults of missing fields from 2025-11-25 on", () => {
    for (const version of MODERN) {
      const form = formOf(properties, version, ["name", "ok"]);
      expect(checkAnswer(form, {}, version)).toEqual({
        ok: true,
        content: { name: "Ada", age: 36, ok: true, colour: "blue", size: "g", tags: ["red", "green"] },
      });
      expect(checkAnswer(form, { name: "Grace", ok: false, tags: [] }, version)).toEqual({
        ok: true,
        content: { name: "Grace", age: 36, ok: false, colour: "blue", size: "g", tags: [] },
      });
    }
  });

  it("does not fill in defaults in 2025-06-18, not even a boolean's", () => {
    const form = formOf({ ok: { type: "boolean", default: true }, name: { type: "string", default: "Ada" } }, "2025-06-18");
    expect(checkAnswer(form, {}, "2025-06-18")).toEqual({ ok: true, content: {} });
    const required = formOf({ ok: { type: "boolean", default: true } }, "2025-06-18", ["ok"]);
    expect(checkAnswer(required, {}, "2025-06-18")).toEqual({ ok: false, reason: 'the required field "ok" is missing' });
  });
});

describe("schemas whose own parts disagree", () => {
  it("refuses a required name that is not a property, and a default that does not fit its field", () => {
    const props = { name: { type: "string", maxLength: 3 } };
    expect(checkFormSchema({ type: "object", properties: props, required: ["nmae"] }, "2025-11-25")).toEqual({
      ok: false,
      refusal: { code: -32602, message: 'requestedSchema.required names "nmae", which is not a property' },
    });
    const badDefaults = [
      { type: "string", maxLength: 3, default: "toolong" },
      { type: "integer", default: 1.5 },
      { type: "string", format: "email", default: "not-an-email" },
      { type: "number", minimum: 10, default: 3 },
    ];
    for (const field of badDefaults) {
      expect(checkFormSchema({ type: "object", properties: { f: field } }, "2025-11-25"), JSON.stringify(field)).toMatchObject({
        ok: false,
        refusal: { code: -32602 },
      });
    }
  });
});


describe("fields named like Object's own members", () => {
  it("reads only the answer's own members, and finds a missing required toString", () => {
    const form = checkFormSchema(
      { type: "object", properties: { constructor: { type: "string" }, toString: { type: "string" } }, required: ["toString"] },
      "2025-11-25",
    );
    if (!form.ok) throw new Error("the form should be accepted");
    expect(checkAnswer(form.value, {}, "2025-11-25")).toEqual({ ok: false, reason: 'the required field "toString" is missing' });
    expect(checkAnswer(form.value, { toString: "x" }, "2025-11-25")).toEqual({ ok: true, content: { toString: "x" } });
  });
});
