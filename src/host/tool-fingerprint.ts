/**
 * The fingerprint of what a server says a tool (or a prompt, or a resource template) is: a
 * SHA-256 of the canonical JSON (keys sorted at every depth, no spaces) of the fields a model is
 * shown and acts on. The name is not among them: it is the key the fingerprint is kept under, so
 * a rename is one tool gone and another come.
 *
 * SHA-256 rather than the catalog's FNV-1a: a fingerprint is a trust decision, and a 64-bit
 * non-cryptographic hash lets a server craft a new description with the old value. WebCrypto is
 * in every runtime the root entry serves, and its digest is async, which costs nothing here: the
 * fingerprints are taken where the catalog already waits for a listing.
 */
import type { Prompt, ResourceTemplate, Tool } from "../protocol/types/index.js";

const TOOL_FIELDS = ["description", "inputSchema", "outputSchema", "title", "annotations"] as const;
const PROMPT_FIELDS = ["description", "arguments", "title"] as const;
const TEMPLATE_FIELDS = ["description", "uriTemplate", "mimeType", "title", "annotations"] as const;

export function toolFingerprint(tool: Tool): Promise<string> {
  return fingerprint(tool, TOOL_FIELDS);
}

export function promptFingerprint(prompt: Prompt): Promise<string> {
  return fingerprint(prompt, PROMPT_FIELDS);
}

export function resourceTemplateFingerprint(template: ResourceTemplate): Promise<string> {
  return fingerprint(template, TEMPLATE_FIELDS);
}

/** `sha256:` and 64 hex digits, of the canonical JSON of `fields` of `item` (own fields only). */
async function fingerprint(item: object, fields: readonly string[]): Promise<string> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(item, field)) picked[field] = (item as Record<string, unknown>)[field];
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(picked)));
  let hex = "sha256:";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * JSON with every object's own keys in code-unit order, so that two servers (or one server on
 * two days) that send the same thing in another key order have one fingerprint. Written by hand
 * rather than through a sorted copy: a key a server chose (`__proto__`) stays a key like any other.
 * An `undefined` field is left out, as `JSON.stringify` does; what came off the wire has none.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((entry: unknown) => (entry === undefined ? "null" : canonicalJson(entry))).join(",")}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(entry)}`);
  }
  return `{${parts.join(",")}}`;
}
