/**
 * The headers a modern request carries over Streamable HTTP besides its body (2026-07-28
 * basic/transports/streamable-http): `Mcp-Method` on every request, `Mcp-Name` naming the
 * tool, prompt, resource or task, and `Mcp-Param-{Name}` mirroring each tool argument whose
 * schema says `x-mcp-header`. Values that are not plain printable ASCII, or that look like the
 * sentinel, travel Base64-encoded as `=?base64?…?=`.
 */
import { InvalidArgumentError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { HeaderParam } from "./x-mcp-header.js";

const PLAIN = /^[\x20-\x7e]*$/;

/** A header value the spec allows as is, else its Base64 sentinel form. */
export function headerValue(value: string): string {
  const plain =
    PLAIN.test(value) &&
    value.trim() === value &&
    !(value.startsWith("=?base64?") && value.endsWith("?="));
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** What `Mcp-Name` carries for each method that has one. */
function nameOf(method: string, params: Record<string, unknown> | undefined): unknown {
  switch (method) {
    case "tools/call":
    case "prompts/get":
      return params?.name;
    case "resources/read":
      return params?.uri;
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      return params?.taskId;
    default:
      return undefined;
  }
}

export function modernHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { "mcp-method": method };
  const name = nameOf(method, params);
  if (typeof name === "string") headers["mcp-name"] = headerValue(name);
  if (method === "tools/call" && toolParams !== undefined) {
    const args = isObject(params?.arguments) ? params.arguments : {};
    for (const param of toolParams) {
      const value = valueAt(args, param.path);
      if (value === undefined || value === null) continue;
      headers[`mcp-param-${param.name.toLowerCase()}`] = headerValue(paramText(param, value));
    }
  }
  return headers;
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function paramText(param: HeaderParam, value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new InvalidArgumentError(
    `argument "${param.path.join(".")}" goes into header Mcp-Param-${param.name} and must be a string, a boolean or a safe integer`,
  );
}
