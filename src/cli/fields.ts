/**
 * The fields a person is asked for, read from a schema: an elicitation's `requestedSchema`
 * (the flat subset the spec allows; the library has checked it before the Handler runs) or a
 * tool's `inputSchema` when the person gives a tool's arguments one by one. What is shown is
 * cleaned: titles, descriptions and choices come from the server.
 */
import type { ElicitValue } from "../node.js";
import { shownLine } from "./output.js";

export type FieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "multi" | "json";

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface AskedField {
  readonly name: string;
  /** The title, else the name, cleaned. */
  readonly label: string;
  readonly description: string | undefined;
  readonly kind: FieldKind;
  readonly choices: readonly Choice[];
  readonly default: unknown;
  readonly required: boolean;
  /** Read without echo. */
  readonly sensitive: boolean;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly format: string | undefined;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const numberOr = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** The fields of an object schema, in order; `sensitive` says which the library flagged. */
export function fieldsOf(schema: unknown, sensitive: (name: string) => boolean = () => false): AskedField[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  const fields: AskedField[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const { kind, choices } = kindOf(property);
    fields.push({
      name,
      label: shownLine(typeof property.title === "string" ? property.title : name, 120),
      description: typeof property.description === "string" ? shownLine(property.description, 300) : undefined,
      kind,
      choices,
      default: property.default,
      required: required.has(name),
      sensitive: sensitive(name),
      minimum: numberOr(property.minimum),
      maximum: numberOr(property.maximum),
      minLength: numberOr(property.minLength),
      maxLength: numberOr(property.maxLength),
      format: typeof property.format === "string" ? property.format : undefined,
    });
  }
  return fields;
}

function kindOf(property: Json): { kind: FieldKind; choices: Choice[] } {
  const none: Choice[] = [];
  if (property.type === "string" || property.type === undefined) {
    const choices = choicesOf(property);
    if (choices !== undefined) return { kind: "choice", choices };
    if (property.type === "string") return { kind: "text", choices: none };
  }
  if (property.type === "number") return { kind: "number", choices: none };
  if (property.type === "integer") return { kind: "integer", choices: none };
  if (property.type === "boolean") return { kind: "boolean", choices: none };
  if (property.type === "array" && isRecord(property.items)) {
    const choices = choicesOf(property.items);
    if (choices !== undefined) return { kind: "multi", choices };
  }
  return { kind: "json", choices: none };
}

/** `enum` (with the legacy `enumNames`), or `oneOf`/`anyOf` of `{ const, title }`. */
function choicesOf(schema: Json): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((value): value is string => typeof value === "string").map((value, i) => ({ value, label: shownLine(typeof names[i] === "string" ? names[i] : value, 120) }));
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (options === undefined) return undefined;
  const choices = options.filter((option): option is Json => isRecord(option) && typeof option.const === "string");
  if (choices.length === 0) return undefined;
  return choices.map((option) => ({ value: option.const as string, label: shownLine(typeof option.title === "string" ? option.title : option.const, 120) }));
}

/**
 * Turns what the person typed for a field into its value, or says what is wrong (asked again).
 * An empty answer to a field that is not required leaves it out (`undefined`). What is checked
 * is what is sent: text trimmed of the spaces around it, except a secret, taken as typed (a
 * password may begin or end with a space).
 */
export function valueOf(field: AskedField, typed: string): { value: unknown } | { problem: string } {
  const text = field.sensitive ? typed : typed.trim();
  if (text === "") return field.required ? { problem: "an answer is required" } : { value: undefined };
  switch (field.kind) {
    case "number":
    case "integer": {
      const value = Number(text);
      if (!Number.isFinite(value)) return { problem: "not a number" };
      if (field.kind === "integer" && !Number.isInteger(value)) return { problem: "not a whole number" };
      if (field.minimum !== undefined && value < field.minimum) return { problem: `at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { problem: `at most ${field.maximum}` };
      return { value };
    }
    case "boolean":
      if (/^(y|yes|true|1)$/i.test(text)) return { value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { value: false };
      return { problem: "yes or no" };
    case "json":
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { problem: "not JSON" };
      }
    default: {
      // Characters as the library counts them when it checks the answer: code points.
      const length = [...text].length;
      if (field.minLength !== undefined && length < field.minLength) return { problem: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && length > field.maxLength) return { problem: `at most ${field.maxLength} characters` };
      if (field.format === "email" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return { problem: "not an email address" };
      if ((field.format === "uri" || field.format === "url") && !URL.canParse(text)) return { problem: "not a URL" };
      if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return { problem: "a date: YYYY-MM-DD" };
      return { value: text };
    }
  }
}

/** The answers of a form, as an elicitation's `content`. */
export function formContent(values: ReadonlyMap<string, unknown>): Record<string, ElicitValue> {
  const content: Record<string, ElicitValue> = {};
  for (const [name, value] of values) {
    if (value === undefined) continue;
    Object.defineProperty(content, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return content;
}
