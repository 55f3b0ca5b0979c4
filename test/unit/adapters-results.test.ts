// Tool results as each API's content, for what a real server rarely sends: content the APIs
// do not take, blocks that are broken or of unknown types, empty results, structured content
// alone, and isError kept in each form. (Real results: test/integration/adapters-catalog.test.ts.)
import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../src/node.js";
import {
  NO_CONTENT,
  OPENAI_ERROR_LINE,
  toAiSdkToolOutput,
  toAnthropicToolResult,
  toOpenAIChatImageParts,
  toOpenAIChatToolMessage,
  toOpenAIFunctionCallOutput,
} from "../../src/adapters/index.js";

const result = (content: unknown[], extra: Record<string, unknown> = {}) => ({ content, ...extra }) as CallToolResult;
const image = (mimeType: string, data = "AAAA") => ({ type: "image", data, mimeType });
const V7 = { aiVersion: 7 } as const;

describe("media an API does not take", () => {
  const odd = result([image("image/gif"), image("image/bmp"), { type: "resource", resource: { uri: "mem://x.png", mimeType: "image/png", blob: "AAAA" } }]);

  it("becomes a note naming what it was, each API taking what it can", () => {
    expect(toAnthropicToolResult("u", odd).content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/gif", data: "AAAA" } },
      { type: "text", text: "[image/bmp content (an image, 3 bytes) was left out: a tool_result takes JPEG, PNG, GIF and WebP images and PDF documents]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]);
    expect(toOpenAIFunctionCallOutput("c", odd).output).toEqual([
      { type: "input_image", image_url: "data:image/gif;base64,AAAA", detail: "auto" },
      { type: "input_text", text: "[image/bmp content (an image, 3 bytes) was left out: a function call output takes PNG, JPEG, WebP and GIF images and PDF files]" },
      { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto" },
    ]);
    expect(toAiSdkToolOutput(odd, V7)).toEqual({
      type: "content",
      value: [
        { type: "file", mediaType: "image/gif", data: { type: "data", data: "AAAA" } },
        { type: "text", text: "[image/bmp content (an image, 3 bytes) was left out: the output takes JPEG, PNG, GIF and WebP images and PDF files]" },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" }, filename: "x.png" },
      ],
    });
  });

  it("is given to ai@6 as its image-data and file-data parts (an image has no file name there)", () => {
    const pdf = { type: "resource", resource: { uri: "mem://docs/r.pdf?v=2", mimeType: "application/pdf", blob: "JVBE" } };
    expect(toAiSdkToolOutput(result([...odd.content, pdf, image("image/webp")]), { aiVersion: 6 })).toEqual({
      type: "content",
      value: [
        { type: "image-data", mediaType: "image/gif", data: "AAAA" },
        { type: "text", text: "[image/bmp content (an image, 3 bytes) was left out: the output takes JPEG, PNG, GIF and WebP images and PDF files]" },
        { type: "image-data", mediaType: "image/png", data: "AAAA" },
        { type: "file-data", mediaType: "application/pdf", data: "JVBE", filename: "r.pdf" },
        { type: "image-data", mediaType: "image/webp", data: "AAAA" },
      ],
    });
    // Text alone is the same in both majors.
    expect(toAiSdkToolOutput(result([{ type: "text", text: "hi" }, image("image/bmp")]), { aiVersion: 6 })).toEqual(
      toAiSdkToolOutput(result([{ type: "text", text: "hi" }, image("image/bmp")]), V7),
    );
  });

  it("is refused, with what was given and what is supported, when the major is missing or unknown", () => {
    const message = (given: string) => new TypeError(`options.aiVersion must be the major version of the "ai" package in use, 6 or 7 (their tool results take images in different shapes), got ${given}`);
    expect(() => toAiSdkToolOutput(odd, {} as never)).toThrow(message("undefined"));
    expect(() => toAiSdkToolOutput(odd, undefined as never)).toThrow(message("undefined"));
    expect(() => toAiSdkToolOutput(odd, { aiVersion: 8 } as never)).toThrow(message("8"));
    expect(() => toAiSdkToolOutput(odd, { aiVersion: "7" } as never)).toThrow(message('"7"'));
    expect(() => toAiSdkToolOutput(odd, { aiVersion: 7, version: 7 } as never)).toThrow(new TypeError('AI SDK output options has no option "version" (known: aiVersion)'));
  });

  it("gives Chat Completions the images for a user message, since its tool message is text only", () => {
    expect(toOpenAIChatToolMessage("c", odd).content).toMatch(/^\[image\/gif content \(an image, 3 bytes\) was left out: a Chat Completions tool message is text only\]\n/);
    expect(toOpenAIChatImageParts(odd)).toEqual([
      { type: "image_url", image_url: { url: "data:image/gif;base64,AAAA" } },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ]);
  });
});

describe("broken and unknown content", () => {
  it("is a note, never a throw", () => {
    const broken = result([
      null,
      "text",
      { type: "video", data: "AAAA" },
      { type: "image", mimeType: "image/png" },
      { type: "resource" },
      { type: "resource", resource: { uri: "mem://empty" } },
      { type: "audio", mimeType: "x".repeat(300), data: "A".repeat(4096) },
      { type: "text" },
      { type: "resource_link", uri: "mem://r", name: "r", title: "The R" },
    ]);
    expect(toOpenAIChatToolMessage("c", broken).content.split("\n")).toEqual([
      "[a content block that is not an object was left out]",
      "[a content block that is not an object was left out]",
      '[content of type "video" was left out]',
      "[an image without data was left out]",
      "[an embedded resource without contents was left out]",
      "[the embedded resource mem://empty had neither text nor blob]",
      `[${"x".repeat(119)}… audio, 3 KiB was left out: tool results cannot carry audio]`,
      "",
      "[resource link] The R: mem://r",
    ]);
    for (const bad of [{} as CallToolResult, result("no" as never), null as never]) {
      expect(toOpenAIFunctionCallOutput("c", bad).output).toBe(NO_CONTENT);
      expect(toAiSdkToolOutput(bad, V7)).toEqual({ type: "text", value: NO_CONTENT });
    }
  });

  it("leaves Anthropic no empty text block", () => {
    expect(toAnthropicToolResult("u", result([{ type: "text", text: "" }, { type: "text", text: " \n" }])).content).toEqual([{ type: "text", text: NO_CONTENT }]);
    expect(toAnthropicToolResult("u", result([{ type: "text", text: "" }, { type: "text", text: "kept" }])).content).toEqual([{ type: "text", text: "kept" }]);
  });
});

describe("empty and structured results", () => {
  it("say there was no content, or give the structured content as JSON", () => {
    expect(toOpenAIChatToolMessage("c", result([])).content).toBe(NO_CONTENT);
    expect(toAnthropicToolResult("u", result([])).content).toEqual([{ type: "text", text: NO_CONTENT }]);
    const structured = result([], { structuredContent: { rows: [1, 2] } });
    expect(toOpenAIChatToolMessage("c", structured).content).toBe('{"rows":[1,2]}');
    expect(toAiSdkToolOutput(structured, V7)).toEqual({ type: "text", value: '{"rows":[1,2]}' });
    // With content, the content says it (servers repeat structured content as text).
    expect(toAiSdkToolOutput(result([{ type: "text", text: "2 rows" }], { structuredContent: { rows: [1, 2] } }), V7)).toEqual({ type: "text", value: "2 rows" });
  });
});

describe("isError", () => {
  const failed = result([{ type: "text", text: "no such file" }], { isError: true });

  it("is kept in each API's form", () => {
    expect(toAnthropicToolResult("u", failed)).toEqual({ type: "tool_result", tool_use_id: "u", content: [{ type: "text", text: "no such file" }], is_error: true });
    expect(toAiSdkToolOutput(failed, V7)).toEqual({ type: "error-text", value: "no such file" });
    expect(toOpenAIChatToolMessage("c", failed)).toEqual({ role: "tool", tool_call_id: "c", content: `${OPENAI_ERROR_LINE}\nno such file` });
    expect(toOpenAIFunctionCallOutput("c", failed)).toEqual({ type: "function_call_output", call_id: "c", output: `${OPENAI_ERROR_LINE}\nno such file` });
  });

  it("is only the flag the server set", () => {
    const fine = result([{ type: "text", text: "ok" }], { isError: false });
    expect(toAnthropicToolResult("u", fine)).not.toHaveProperty("is_error");
    expect(toAiSdkToolOutput(fine, V7)).toEqual({ type: "text", value: "ok" });
    expect(toOpenAIChatToolMessage("c", fine).content).toBe("ok");
    expect(toAnthropicToolResult("u", result([], { isError: "yes" }))).not.toHaveProperty("is_error");
  });
});
