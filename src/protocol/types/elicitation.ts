/** Elicitation: `elicitation/create`, form and URL modes. */
import type { Meta, Result } from "./base.js";

export interface StringFieldSchema {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  default?: string;
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title: string }[];
}

export interface NumberFieldSchema {
  type: "number" | "integer";
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanFieldSchema {
  type: "boolean";
  title?: string;
  description?: string;
  default?: boolean;
}

export interface MultiSelectFieldSchema {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] } | { anyOf: { const: string; title: string }[] };
  default?: string[];
}

export type FieldSchema = StringFieldSchema | NumberFieldSchema | BooleanFieldSchema | MultiSelectFieldSchema;

export interface FormSchema {
  $schema?: string;
  type: "object";
  properties: { [name: string]: FieldSchema };
  required?: string[];
}

export interface ElicitFormParams {
  mode?: "form";
  message: string;
  requestedSchema: FormSchema;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ElicitUrlParams {
  mode: "url";
  message: string;
  url: string;
  /** 2025-11-25 only. */
  elicitationId?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export type ElicitValue = string | number | boolean | string[];

export interface ElicitResult extends Result {
  action: "accept" | "decline" | "cancel";
  content?: { [name: string]: ElicitValue };
}
