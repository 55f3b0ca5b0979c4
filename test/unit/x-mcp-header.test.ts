import { describe, expect, it } from "vitest";
import { headerValue, modernHeaders } from "../../src/protocol/envelope.js";
import { headerParams } from "../../src/protocol/x-mcp-header.js";

const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("x-mcp-header annotations", () => {
  it("finds annotations reachable through properties alone, nested ones included", () => {
    expect(
      headerParams(schema({ region: { type: "string", "x-mcp-header": "Region" }, a: { type: "object", properties: { b: { type: ["integer", "null"], "x-mcp-header": "B" } } } })),
    ).toEqual({ ok: true, params: [{ name: "Region", path: ["region"] }, { name: "B", path: ["a", "b"] }] });
  });

  it("refuses what the spec forbids", () => {
    const invalid = [
      schema({ x: { type: "string", "x-mcp-header": "" } }),
      schema({ x: { type: "string", "x-mcp-header": "Has Space" } }),
      schema({ x: { type: "number", "x-mcp-header": "N" } }),
      schema({ x: { type: ["string", "integer"], "x-mcp-header": "Two" } }),
      schema({ x: { type: "string", "x-mcp-header": "Dup" }, y: { type: "string", "x-mcp-header": "dup" } }),
      schema({ x: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      schema({ x: { oneOf: [{ type: "string", "x-mcp-header": "One" }] } }),
      { type: "object", $defs: { d: { type: "string", "x-mcp-header": "Def" } } },
      { type: "object", "x-mcp-header": "Root" },
    ];
    for (const s of invalid) expect(headerParams(s).ok, JSON.stringify(s)).toBe(false);
  });

  it("ignores x-mcp-header keys inside values (enum, default)", () => {
    expect(headerParams(schema({ x: { type: "object", default: { "x-mcp-header": "no" } } }))).toEqual({ ok: true, params: [] });
  });
});

describe("header values", () => {
  it("keeps plain printable ASCII and Base64-encodes the rest, and the sentinel look-alike", () => {
    expect(headerValue("us-west1")).toBe("us-west1");
    expect(headerValue("Hello, 世界")).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(headerValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(headerValue("line1\nline2")).toBe("=?base64?bGluZTEKbGluZTI=?=");
    expect(headerValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  });

  it("builds Mcp-Method, Mcp-Name and the Mcp-Param headers of a call", () => {
    const params = [{ name: "Region", path: ["region"] }, { name: "Count", path: ["n"] }, { name: "Dry", path: ["dry"] }, { name: "Gone", path: ["gone"] }];
    expect(modernHeaders("tools/call", { name: "run", arguments: { region: "eu", n: -7, dry: false, gone: null } }, params)).toEqual({
      "mcp-method": "tools/call",
      "mcp-name": "run",
      "mcp-param-region": "eu",
      "mcp-param-count": "-7",
      "mcp-param-dry": "false",
    });
    expect(modernHeaders("resources/read", { uri: "file:///a b" }, undefined)).toEqual({ "mcp-method": "resources/read", "mcp-name": "file:///a b" });
    expect(modernHeaders("tools/list", undefined, undefined)).toEqual({ "mcp-method": "tools/list" });
  });
});
