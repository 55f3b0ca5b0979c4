/**
 * Form elicitation schemas: the flat subset of JSON Schema the spec allows (client/elicitation,
 * PrimitiveSchemaDefinition of each version), checked before the user sees a form, and the
 * user's answer checked against it before it is sent.
 *
 * - 2025-06-18: string, number/integer, boolean (with a default), and the titled string enum.
 * - 2025-11-25 and 2026-07-28 add defaults everywhere, single-select `oneOf` enums and
 *   multi-select arrays of enum strings.
 * Keywords the client does not act on (`pattern`, say) are ignored, as the spec's schema does.
 *
 * A form is for a person to fill in, so its size is bounded (`FORM_BOUNDS`): a schema past a
 * bound is refused with -32602 before the Handler sees it, and the checks take time linear in
 * the schema's size, so that refusing a schema of 100 000 properties stalls nobody.
 */
import { ErrorCode } from "../util/errors.js";
import { since, type ProtocolVersion } from "../protocol/versions.js";
import { isObject } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { pass, refuse, type Verdict } from "../util/assert.js";
import { excerpt, quote } from "../util/text.js";

const INVALID_PARAMS = ErrorCode.InvalidParams;

/**
 * Far beyond a real form (the spec's examples have a handful of fields, and a person fills in
 * each), far below what would stall the client or flood the person: at most 100 fields (so at
 * most 100 `required` names), field names of at most 256 characters, at most 1 000 choices per
 * field; a field's title and each choice's title and value at most 1 024 characters (a label,
 * not a page), a field's description at most 4 096 (what `sanitize` shows by default), a text
 * field's default at most 16 384 (an elicitation's message's bound). Characters
 * are UTF-16 code units, as `String.length` counts them. Nested schemas are refused whatever
 * their size: a form is flat.
 */
export const FORM_BOUNDS = Object.freeze({
  fields: 100,
  nameCharacters: 256,
  options: 1_000,
  titleCharacters: 1_024,
  descriptionCharacters: 4_096,
  defaultCharacters: 16_384,
});
const FORMATS = new Set(["email", "uri", "date", "date-time"]);

export type FieldKind =
  | { type: "string"; options?: string[] | undefined }
  | { type: "number"; integer: boolean }
  | { type: "boolean" }
  | { type: "multi"; options: string[] };

export interface Field {
  name: string;
  kind: FieldKind;
  schema: Record<string, unknown>;
}

export interface Form {
  fields: Field[];
  required: string[];
  /**
   * The fields' names, for the answer's check. A list, not a set: a form has at most 100 fields
   * and most have a handful, for which a set cost more to make than every lookup it saved.
   */
  names: readonly string[];
}

/** Checks `requestedSchema`; the verdict carries the fields in order. */
export function checkFormSchema(schema: unknown, version: ProtocolVersion): Verdict<Form> {
  if (!isObject(schema) || schema.type !== "object") return refuse(INVALID_PARAMS, 'requestedSchema must be an object schema with type "object"');
  if (!isObject(schema.properties)) return refuse(INVALID_PARAMS, "requestedSchema.properties must be an object");
  const names = Object.keys(schema.properties);
  if (names.length > FORM_BOUNDS.fields) return refuse(INVALID_PARAMS, `requestedSchema has ${names.length} properties; a form has at most ${FORM_BOUNDS.fields}`);
  const required = schema.required ?? [];
  if (!Array.isArray(required)) return refuse(INVALID_PARAMS, "requestedSchema.required must be an array of names");
  if (required.length > FORM_BOUNDS.fields) return refuse(INVALID_PARAMS, `requestedSchema.required has ${required.length} names; a form has at most ${FORM_BOUNDS.fields} fields`);
  if (!isStringArray(required)) return refuse(INVALID_PARAMS, "requestedSchema.required must be an array of names");
  const modern = since(version, "2025-11-25");
  const fields: Field[] = [];
  for (const name of names) {
    if (name.length > FORM_BOUNDS.nameCharacters) return refuse(INVALID_PARAMS, `requestedSchema property "${excerpt(name, 100)}": a field name has at most ${FORM_BOUNDS.nameCharacters} characters`);
    const property = schema.properties[name];
    if (!isObject(property)) return refuse(INVALID_PARAMS, `requestedSchema property "${excerpt(name, 100)}": not a schema object`);
    const kind = fieldKind(property, modern);
    if (typeof kind === "string") return refuse(INVALID_PARAMS, `requestedSchema property "${excerpt(name, 100)}": ${kind}`);
    const field: Field = { name, kind, schema: property };
    if (property.default !== undefined && modern) {
      const problem = valueProblem(field, property.default);
      if (problem !== undefined) return refuse(INVALID_PARAMS, `requestedSchema property "${excerpt(name, 100)}": its default ${problem}`);
    }
    fields.push(field);
  }
  // At most 100 names in each list (bounded above): a search of the other list is cheap.
  const missing = required.find((name) => !names.includes(name));
  if (missing !== undefined) return refuse(INVALID_PARAMS, `requestedSchema.required names "${excerpt(missing, 100)}", which is not a property`);
  return pass({ fields, required, names });
}

/** The kind of a property schema, or why it is not allowed. */
function fieldKind(schema: Record<string, unknown>, modern: boolean): FieldKind | string {
  const problem = commonProblem(schema);
  if (problem !== undefined) return problem;
  switch (schema.type) {
    case "string":
      return stringKind(schema, modern);
    case "number":
    case "integer":
      if (!optionalNumbers(schema, "minimum", "maximum")) return "minimum and maximum must be numbers";
      if (modern && schema.default !== undefined && typeof schema.default !== "number") return "default must be a number";
      return { type: "number", integer: schema.type === "integer" };
    case "boolean":
      if (schema.default !== undefined && typeof schema.default !== "boolean") return "default must be a boolean";
      return { type: "boolean" };
    case "array":
      return modern ? multiKind(schema) : "arrays are not allowed in 2025-06-18 forms";
    default:
      return `type ${quote(schema.type)} is not a flat primitive (string, number, integer, boolean${modern ? ", or a multi-select array" : ""})`;
  }
}

function commonProblem(schema: Record<string, unknown>): string | undefined {
  // Each key read by name: a loop over the names read each one as a computed key, the slow kind.
  const problem = textProblem("title", schema.title, FORM_BOUNDS.titleCharacters) ?? textProblem("description", schema.description, FORM_BOUNDS.descriptionCharacters);
  if (problem !== undefined) return problem;
  if ("properties" in schema || "$ref" in schema || "allOf" in schema || "not" in schema) return "nested schemas are not allowed";
  return undefined;
}

function textProblem(key: string, text: unknown, max: number): string | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== "string") return `${key} must be a string`;
  return text.length > max ? tooLong(key, text.length, max) : undefined;
}

function stringKind(schema: Record<string, unknown>, modern: boolean): FieldKind | string {
  if (!optionalNumbers(schema, "minLength", "maxLength")) return "minLength and maxLength must be numbers";
  if (schema.format !== undefined && !FORMATS.has(schema.format as string)) return `format ${quote(schema.format)} is not one of email, uri, date, date-time`;
  let options: string[] | undefined;
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || schema.enum.length === 0) return "enum must be a non-empty array of strings";
    if (schema.enum.length > FORM_BOUNDS.options) return tooManyOptions(schema.enum.length);
    if (!isStringArray(schema.enum)) return "enum must be a non-empty array of strings";
    if (Array.isArray(schema.enumNames) && schema.enumNames.length > FORM_BOUNDS.options) return tooManyOptions(schema.enumNames.length);
    if (schema.enumNames !== undefined && !isStringArray(schema.enumNames)) return "enumNames must be an array of strings";
    const long = choiceTitleProblem(schema.enumNames);
    if (long !== undefined) return long;
    options = schema.enum;
  } else if (schema.oneOf !== undefined) {
    if (!modern) return "oneOf enums are not allowed in 2025-06-18 forms";
    if (Array.isArray(schema.oneOf) && schema.oneOf.length > FORM_BOUNDS.options) return tooManyOptions(schema.oneOf.length);
    const long = choiceTitleProblem(schema.oneOf);
    if (long !== undefined) return long;
    options = titledConsts(schema.oneOf);
    if (options === undefined) return "oneOf must list { const, title } string pairs";
  } else if ("anyOf" in schema) {
    return "anyOf is only allowed in multi-select items";
  }
  const shown = optionsProblem(options) ?? defaultProblem(schema.default);
  if (shown !== undefined) return shown;
  if (modern && schema.default !== undefined) {
    if (typeof schema.default !== "string") return "default must be a string";
    if (options !== undefined && !options.includes(schema.default)) return "default must be one of the options";
  }
  return { type: "string", options };
}

function multiKind(schema: Record<string, unknown>): FieldKind | string {
  const items = schema.items;
  if (!isObject(items)) return "a multi-select needs an items schema";
  for (const listed of [items.enum, items.anyOf]) {
    if (Array.isArray(listed) && listed.length > FORM_BOUNDS.options) return tooManyOptions(listed.length);
  }
  let options: string[] | undefined;
  if (items.type === "string" && isStringArray(items.enum) && items.enum.length > 0) options = items.enum;
  else if (items.anyOf !== undefined) {
    const long = choiceTitleProblem(items.anyOf);
    if (long !== undefined) return long;
    options = titledConsts(items.anyOf);
  }
  if (options === undefined) return "multi-select items must be a string enum or an anyOf of { const, title }";
  const shown = optionsProblem(options);
  if (shown !== undefined) return shown;
  if (!optionalNumbers(schema, "minItems", "maxItems")) return "minItems and maxItems must be numbers";
  if (schema.default !== undefined && !listsOnly(schema.default, options)) return "default must list options";
  return { type: "multi", options };
}

/** A choice's value is what a host shows when it has no title: it is bounded as a title is. */
function optionsProblem(options: string[] | undefined): string | undefined {
  for (const option of options ?? []) {
    if (option.length > FORM_BOUNDS.titleCharacters) return tooLong("a choice's value", option.length, FORM_BOUNDS.titleCharacters);
  }
  return undefined;
}

/** A text field's default is shown in it, as the message is shown above it. */
function defaultProblem(value: unknown): string | undefined {
  return typeof value === "string" && value.length > FORM_BOUNDS.defaultCharacters ? tooLong("default", value.length, FORM_BOUNDS.defaultCharacters) : undefined;
}

const tooManyOptions = (count: number): string => `${count} choices; a field has at most ${FORM_BOUNDS.options}`;
const tooLong = (what: string, length: number, max: number): string => `${what} must be at most ${max} characters (it has ${length})`;

/**
 * Why a list of choices (enumNames' strings, or oneOf/anyOf's `{ const, title }`) has a title
 * too long to show, if one has; whatever else is wrong with the list is for its own check.
 */
function choiceTitleProblem(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const choice of list) {
    const title: unknown = isObject(choice) ? choice.title : choice;
    if (typeof title === "string" && title.length > FORM_BOUNDS.titleCharacters) return tooLong("a choice's title", title.length, FORM_BOUNDS.titleCharacters);
  }
  return undefined;
}

/** Whether `value` is an array of strings among `options`, in time linear in both. */
function listsOnly(value: unknown, options: readonly string[]): value is string[] {
  if (!isStringArray(value)) return false;
  const allowed = new Set(options);
  return value.every((v) => allowed.has(v));
}

function titledConsts(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const consts: string[] = [];
  for (const option of value) {
    if (!isObject(option) || typeof option.const !== "string" || (option.title !== undefined && typeof option.title !== "string")) return undefined;
    consts.push(option.const);
  }
  return consts;
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

function optionalNumbers(schema: Record<string, unknown>, ...keys: string[]): boolean {
  return keys.every((key) => schema[key] === undefined || (typeof schema[key] === "number" && Number.isFinite(schema[key])));
}

// ---- the answer --------------------------------------------------------------------------------

export type FormContent = Record<string, string | number | boolean | string[]>;

/**
 * Checks an `accept`'s content against the form: only the form's fields, each of its type and
 * within its bounds, every required one present. Fields the user left out take the schema's
 * default (2025-11-25 on). Returns the content to send, or why it does not fit.
 */
export function checkAnswer(form: Form, content: unknown, version: ProtocolVersion): { ok: true; content: FormContent } | { ok: false; reason: string } {
  const given = content ?? {};
  if (!isObject(given)) return { ok: false, reason: "content must be an object" };
  for (const name of Object.keys(given)) if (!form.names.includes(name)) return { ok: false, reason: `"${excerpt(name, 100)}" is not a field of the form` };
  const out: FormContent = {};
  for (const field of form.fields) {
    // Own members only: a field named "constructor" or "toString" is not the object's method.
    let value = Object.hasOwn(given, field.name) ? given[field.name] : undefined;
    if (value === undefined && since(version, "2025-11-25")) value = field.schema.default;
    if (value === undefined) continue;
    const problem = valueProblem(field, value);
    if (problem !== undefined) return { ok: false, reason: `"${excerpt(field.name, 100)}" ${problem}` };
    setOwn(out, field.name, value);
  }
  for (const name of form.required) if (!Object.hasOwn(out, name)) return { ok: false, reason: `the required field "${excerpt(name, 100)}" is missing` };
  return { ok: true, content: out };
}

function valueProblem(field: Field, value: unknown): string | undefined {
  const schema = field.schema;
  switch (field.kind.type) {
    case "string": {
      if (typeof value !== "string") return "must be a string";
      if (field.kind.options !== undefined && !field.kind.options.includes(value)) return "must be one of the options";
      const length = [...value].length;
      if (typeof schema.minLength === "number" && length < schema.minLength) return `must have at least ${schema.minLength} characters`;
      if (typeof schema.maxLength === "number" && length > schema.maxLength) return `must have at most ${schema.maxLength} characters`;
      if (typeof schema.format === "string" && !FORMAT_CHECKS[schema.format]?.(value)) return `must be a valid ${schema.format}`;
      return undefined;
    }
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind.integer && !Number.isInteger(value)) return "must be an integer";
      if (typeof schema.minimum === "number" && value < schema.minimum) return `must be at least ${schema.minimum}`;
      if (typeof schema.maximum === "number" && value > schema.maximum) return `must be at most ${schema.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "multi": {
      if (!isStringArray(value)) return "must be an array of strings";
      if (!listsOnly(value, field.kind.options)) return "must list only the options";
      if (typeof schema.minItems === "number" && value.length < schema.minItems) return `must select at least ${schema.minItems}`;
      if (typeof schema.maxItems === "number" && value.length > schema.maxItems) return `must select at most ${schema.maxItems}`;
      return undefined;
    }
  }
}

const FORMAT_CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => {
    try {
      return new URL(v).protocol.length > 1;
    } catch {
      return false;
    }
  },
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v),
  // RFC 3339: hours 00–23, minutes 00–59, seconds up to 60 (a leap second), offsets within a day.
  "date-time": (v) =>
    /^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/.test(v) &&
    isRealDate(v.slice(0, 10)),
};

function isRealDate(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}
