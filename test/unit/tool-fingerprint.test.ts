// The fingerprint is what pinning compares: same for the same definition in any key order,
// different for any change of what a model is shown, and blind to the name (a rename is a new tool).
import { describe, expect, it } from "vitest";
import { canonicalJson, promptFingerprint, resourceTemplateFingerprint, toolFingerprint } from "../../src/host/tool-fingerprint.js";
import type { Tool } from "../../src/node.js";

const tool: Tool = { name: "read", description: "Reads a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, annotations: { readOnlyHint: true } };

describe("tool fingerprints", () => {
  it("is sha256 hex, the same for the same definition in another key order", async () => {
    const print = await toolFingerprint(tool);
    expect(print).toMatch(/^sha256:[0-9a-f]{64}$/);
    const reordered = JSON.parse('{"annotations":{"readOnlyHint":true},"inputSchema":{"properties":{"path":{"type":"string"}},"type":"object"},"description":"Reads a file","name":"read"}') as Tool;
    expect(await toolFingerprint(reordered)).toBe(print);
  });

  it("changes with the description, the schemas, the title and the annotations, not with the name or _meta", async () => {
    const print = await toolFingerprint(tool);
    const variants: Tool[] = [
      { ...tool, description: "Reads a file." },
      { ...tool, inputSchema: { type: "object", properties: { path: { type: "number" } } } },
      { ...tool, outputSchema: { type: "object" } },
      { ...tool, title: "Read" },
      { ...tool, annotations: { readOnlyHint: false } },
    ];
    const prints = await Promise.all(variants.map((variant) => toolFingerprint(variant)));
    expect(new Set([print, ...prints]).size).toBe(variants.length + 1);
    expect(await toolFingerprint({ ...tool, name: "read2", _meta: { x: 1 } })).toBe(print);
  });

  it("keeps a key named __proto__ as a key, and tells apart what JSON would", () => {
    const withProto = JSON.parse('{"b":1,"__proto__":{"x":1},"a":[1,null]}') as unknown;
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"x":1},"a":[1,null],"b":1}');
    expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
  });

  it("fingerprints prompts by their arguments and templates by their URI template", async () => {
    const prompt = { name: "p", description: "d", arguments: [{ name: "x" }] };
    expect(await promptFingerprint(prompt)).not.toBe(await promptFingerprint({ ...prompt, arguments: [{ name: "x", required: true }] }));
    const template = { name: "t", uriTemplate: "file:///{path}" };
    expect(await resourceTemplateFingerprint(template)).not.toBe(await resourceTemplateFingerprint({ ...template, uriTemplate: "https://evil/{path}" }));
  });
});
