// The sampling checks around the handler callback (src/input/sampling.ts): the seed's
// "Sampling" bullet (maxTokens, includeContext, idle, tool loop, rejection code) and the
// CreateMessageResult shape of each version (digest §3.2).
import { describe, expect, it } from "vitest";
import { checkSampling, samplingAnswer, samplingResultProblem } from "../../src/input/sampling.js";
import { INPUT_DEFAULTS, type SamplingOptions } from "../../src/input/options.js";
import type { CreateMessageResult } from "../../src/protocol/types/index.js";
import type { ProtocolVersion } from "../../src/protocol/versions.js";

const VERSIONS: ProtocolVersion[] = ["2025-06-18", "2025-11-25", "2026-07-28"];
const INVALID_PARAMS = -32602;

const user = (text: string) => ({ role: "user", content: { type: "text", text } });
const toolUse = (id: string) => ({ type: "tool_use", id, name: "search", input: { q: id } });
const toolResult = (id: string) => ({ type: "tool_result", toolUseId: id, content: [{ type: "text", text: "found" }] });

/** A conversation holding `turns` assistant tool_use turns, each answered by a tool_result. */
function toolLoop(turns: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [user("find it")];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "assistant", content: [{ type: "text", text: "looking" }, toolUse(`t${i}`)] });
    messages.push({ role: "user", content: [toolResult(`t${i}`)] });
  }
  return messages;
}

function check(params: Record<string, unknown>, options: Partial<SamplingOptions> = {}, callsInFlight = 1) {
  return checkSampling(params, { options: { ...INPUT_DEFAULTS.sampling, ...options }, callsInFlight });
}

const valid = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ messages: [user("hi")], maxTokens: 100, ...extra });

describe("checkSampling defaults", () => {
  it("uses the seed's defaults", () => {
    expect(INPUT_DEFAULTS.sampling).toEqual({ maxTokens: 4096, context: false, allowIdle: false, maxToolIterations: 5, rejectionCode: -1 });
  });

  it("passes a valid request through with its other fields untouched", () => {
    const params = valid({
      systemPrompt: "be brief",
      temperature: 0.2,
      stopSequences: ["END"],
      modelPreferences: { hints: [{ name: "claude" }], speedPriority: 0.5 },
      metadata: { a: 1 },
    });
    const verdict = check(params);
    expect(verdict).toEqual({ ok: true, value: params });
  });
});

describe("checkSampling maxTokens", () => {
  it("keeps 1 and 4096, clamps 4097 and anything larger to 4096", () => {
    const max = (maxTokens: number) => {
      const verdict = check(valid({ maxTokens }));
      if (!verdict.ok) throw new Error(verdict.refusal.message);
      return verdict.value.maxTokens;
    };
    expect(max(1)).toBe(1);
    expect(max(4095)).toBe(4095);
    expect(max(4096)).toBe(4096);
    expect(max(4097)).toBe(4096);
    expect(max(1_000_000_000)).toBe(4096);
  });

  it("clamps to the configured bound", () => {
    const verdict = check(valid({ maxTokens: 101 }), { maxTokens: 100 });
    expect(verdict.ok && verdict.value.maxTokens).toBe(100);
  });

  it("does not change the params it was given", () => {
    const params = valid({ maxTokens: 9000, includeContext: "allServers" });
    check(params);
    expect(params.maxTokens).toBe(9000);
    expect(params.includeContext).toBe("allServers");
  });

  it("refuses 0, negatives, fractions, strings, NaN, Infinity and a missing value with -32602", () => {
    const bad: unknown[] = [0, -1, 1.5, "10", Number.NaN, Number.POSITIVE_INFINITY, null, undefined, [10], { n: 10 }];
    for (const maxTokens of bad) {
      expect(check(valid({ maxTokens })), String(maxTokens)).toEqual({
        ok: false,
        refusal: { code: INVALID_PARAMS, message: "maxTokens must be a positive integer" },
      });
    }
    const missing = valid();
    delete missing.maxTokens;
    expect(check(missing)).toEqual({ ok: false, refusal: { code: INVALID_PARAMS, message: "maxTokens must be a positive integer" } });
  });

  it("checks maxTokens before the idle rule", () => {
    expect(check(valid({ maxTokens: 0 }), {}, 0)).toMatchObject({ ok: false, refusal: { code: INVALID_PARAMS } });
  });
});

describe("checkSampling messages", () => {
  it("refuses messages that are missing, not an array, or hold a non-object, with -32602", () => {
    const refusal = { code: INVALID_PARAMS, message: "messages must be an array of messages" };
    expect(check({ maxTokens: 10 })).toEqual({ ok: false, refusal });
    expect(check({ maxTokens: 10, messages: "hi" })).toEqual({ ok: false, refusal });
    expect(check({ maxTokens: 10, messages: { role: "user" } })).toEqual({ ok: false, refusal });
    expect(check({ maxTokens: 10, messages: [user("a"), "b"] })).toEqual({ ok: false, refusal });
    expect(check({ maxTokens: 10, messages: [null] })).toEqual({ ok: false, refusal });
  });

  it("accepts tool-loop history (tool_use and tool_result blocks) as input", () => {
    expect(check({ maxTokens: 10, messages: toolLoop(2) }).ok).toBe(true);
  });
});

describe("checkSampling tools", () => {
  const refusal = {
    code: INVALID_PARAMS,
    message: "tools in sampling need the sampling.tools capability, which this client did not declare",
  };

  it("refuses tools, even an empty list, with -32602", () => {
    expect(check(valid({ tools: [{ name: "t", inputSchema: { type: "object" } }] }))).toEqual({ ok: false, refusal });
    expect(check(valid({ tools: [] }))).toEqual({ ok: false, refusal });
  });

  it("refuses toolChoice alone with -32602", () => {
    expect(check(valid({ toolChoice: { mode: "auto" } }))).toEqual({ ok: false, refusal });
  });

  it("refuses tools before the idle rule", () => {
    expect(check(valid({ tools: [] }), {}, 0)).toEqual({ ok: false, refusal });
  });
});

describe("checkSampling idle", () => {
  it("refuses sampling while no call is in flight, with the rejection code -1", () => {
    expect(check(valid(), {}, 0)).toEqual({
      ok: false,
      refusal: { code: -1, message: "sampling refused: no request of this client is in progress" },
    });
  });

  it("uses the configured rejection code", () => {
    expect(check(valid(), { rejectionCode: -32001 }, 0)).toMatchObject({ ok: false, refusal: { code: -32001 } });
  });

  it("accepts idle sampling when allowIdle is set, and any sampling with a call in flight", () => {
    expect(check(valid(), { allowIdle: true }, 0).ok).toBe(true);
    expect(check(valid(), {}, 1).ok).toBe(true);
    expect(check(valid(), {}, 3).ok).toBe(true);
  });
});

describe("checkSampling tool loop", () => {
  it("accepts exactly 5 assistant tool_use turns and refuses the 6th with the rejection code", () => {
    expect(check({ maxTokens: 10, messages: toolLoop(5) }).ok).toBe(true);
    expect(check({ maxTokens: 10, messages: toolLoop(6) })).toEqual({
      ok: false,
      refusal: { code: -1, message: "sampling refused: more than 5 tool-use turns" },
    });
  });

  it("counts a tool_use given as the single (non-array) content block", () => {
    const messages: Record<string, unknown>[] = [user("go")];
    for (let i = 0; i < 6; i++) messages.push({ role: "assistant", content: toolUse(`t${i}`) }, user("ok"));
    expect(check({ maxTokens: 10, messages })).toMatchObject({ ok: false, refusal: { code: -1 } });
    expect(check({ maxTokens: 10, messages: messages.slice(0, 11) }).ok).toBe(true);
  });

  it("counts an assistant message with several tool_use blocks as one turn", () => {
    const messages = [user("go"), { role: "assistant", content: [toolUse("a"), toolUse("b"), toolUse("c"), toolUse("d"), toolUse("e"), toolUse("f")] }];
    expect(check({ maxTokens: 10, messages }).ok).toBe(true);
  });

  it("counts only assistant turns, not user messages nor assistant text", () => {
    const messages: Record<string, unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      messages.push({ role: "user", content: [toolUse(`u${i}`)] });
      messages.push({ role: "assistant", content: { type: "text", text: "thinking" } });
    }
    expect(check({ maxTokens: 10, messages }).ok).toBe(true);
  });

  it("uses the configured bound and rejection code", () => {
    expect(check({ maxTokens: 10, messages: toolLoop(2) }, { maxToolIterations: 2 }).ok).toBe(true);
    expect(check({ maxTokens: 10, messages: toolLoop(3) }, { maxToolIterations: 2, rejectionCode: -32050 })).toEqual({
      ok: false,
      refusal: { code: -32050, message: "sampling refused: more than 2 tool-use turns" },
    });
    expect(check({ maxTokens: 10, messages: toolLoop(1) }, { maxToolIterations: 0 })).toMatchObject({ ok: false });
  });

  it("applies the idle rule before the tool-loop rule", () => {
    expect(check({ maxTokens: 10, messages: toolLoop(6) }, {}, 0)).toEqual({
      ok: false,
      refusal: { code: -1, message: "sampling refused: no request of this client is in progress" },
    });
  });
});

describe("checkSampling includeContext", () => {
  it('coerces "thisServer" and "allServers" to "none" by default', () => {
    for (const includeContext of ["thisServer", "allServers", "none"]) {
      const verdict = check(valid({ includeContext }));
      expect(verdict.ok && verdict.value.includeContext).toBe("none");
    }
  });

  it("adds no includeContext when the server sent none", () => {
    expect(check(valid())).toStrictEqual({ ok: true, value: valid() });
  });

  it("lets includeContext through when context is allowed", () => {
    const verdict = check(valid({ includeContext: "thisServer" }), { context: true });
    expect(verdict.ok && verdict.value.includeContext).toBe("thisServer");
  });
});

const text = { type: "text", text: "hello" };
const result = (content: unknown, extra: Record<string, unknown> = {}) => ({ role: "assistant", model: "m-1", content, ...extra });

describe("samplingResultProblem", () => {
  it("accepts a single text, image or audio block in every version", () => {
    for (const version of VERSIONS) {
      expect(samplingResultProblem(result(text), version)).toBeUndefined();
      expect(samplingResultProblem(result({ type: "image", data: "AAAA", mimeType: "image/png" }), version)).toBeUndefined();
      expect(samplingResultProblem(result({ type: "audio", data: "AAAA", mimeType: "audio/wav" }), version)).toBeUndefined();
      expect(samplingResultProblem(result(text, { stopReason: "endTurn" }), version)).toBeUndefined();
      expect(samplingResultProblem(result(text, { stopReason: "provider-specific" }), version)).toBeUndefined();
    }
  });

  it("refuses array content in 2025-06-18 and accepts it from 2025-11-25 on", () => {
    const content = [text, { type: "text", text: "more" }];
    expect(samplingResultProblem(result(content), "2025-06-18")).toBe("content must be a single block in 2025-06-18");
    expect(samplingResultProblem(result(content), "2025-11-25")).toBeUndefined();
    expect(samplingResultProblem(result(content), "2026-07-28")).toBeUndefined();
  });

  it("accepts tool_use and tool_result blocks only from 2025-11-25 on", () => {
    expect(samplingResultProblem(result(toolUse("a")), "2025-06-18")).toBe('content of type "tool_use" is not allowed here');
    expect(samplingResultProblem(result(toolResult("a")), "2025-06-18")).toBe('content of type "tool_result" is not allowed here');
    for (const version of ["2025-11-25", "2026-07-28"] as const) {
      expect(samplingResultProblem(result(toolUse("a"), { stopReason: "toolUse" }), version)).toBeUndefined();
      expect(samplingResultProblem(result([toolUse("a"), toolUse("b")]), version)).toBeUndefined();
      expect(samplingResultProblem(result(toolResult("a")), version)).toBeUndefined();
    }
  });

  it("names what is wrong with the envelope", () => {
    const v = "2025-11-25";
    expect(samplingResultProblem(null, v)).toBe("the answer must be an object");
    expect(samplingResultProblem([result(text)], v)).toBe("the answer must be an object");
    expect(samplingResultProblem("text", v)).toBe("the answer must be an object");
    expect(samplingResultProblem(result(text, { role: "system" }), v)).toBe('role must be "assistant" or "user"');
    expect(samplingResultProblem({ model: "m", content: text }, v)).toBe('role must be "assistant" or "user"');
    expect(samplingResultProblem(result(text, { model: 7 }), v)).toBe("model must be a string");
    expect(samplingResultProblem({ role: "assistant", content: text }, v)).toBe("model must be a string");
    expect(samplingResultProblem(result(text, { stopReason: 1 }), v)).toBe("stopReason must be a string");
  });

  it("names what is wrong with a block", () => {
    const v = "2025-11-25";
    expect(samplingResultProblem(result(undefined), v)).toBe("each content block must be an object with a type");
    expect(samplingResultProblem(result("hello"), v)).toBe("each content block must be an object with a type");
    expect(samplingResultProblem(result({ text: "no type" }), v)).toBe("each content block must be an object with a type");
    expect(samplingResultProblem(result({ type: "text" }), v)).toBe("a text block needs text");
    expect(samplingResultProblem(result({ type: "image", data: "AAAA" }), v)).toBe("an image block needs data and mimeType");
    expect(samplingResultProblem(result({ type: "audio", mimeType: "audio/wav" }), v)).toBe("an audio block needs data and mimeType");
    expect(samplingResultProblem(result({ type: "resource_link", uri: "file:///x", name: "x" }), v)).toBe(
      'content of type "resource_link" is not allowed here',
    );
    expect(samplingResultProblem(result({ type: "tool_use", id: "a", name: "n" }), v)).toBe("a tool_use block needs id, name and input");
    expect(samplingResultProblem(result({ type: "tool_use", id: "a", name: "n", input: [] }), v)).toBe("a tool_use block needs id, name and input");
    expect(samplingResultProblem(result({ type: "tool_result", toolUseId: "a" }), v)).toBe("a tool_result block needs toolUseId and content");
  });

  it("checks every block of an array", () => {
    expect(samplingResultProblem(result([text, { type: "text", text: 5 }]), "2026-07-28")).toBe("a text block needs text");
    expect(samplingResultProblem(result([text, null]), "2025-11-25")).toBe("each content block must be an object with a type");
  });
});

describe("samplingAnswer", () => {
  const answer: CreateMessageResult = { role: "assistant", model: "m", content: { type: "text", text: "hi" }, _meta: { k: 1 } };

  it("drops resultType in 2026-07-28 and keeps _meta", () => {
    const sent = samplingAnswer({ ...answer, resultType: "complete" }, "2026-07-28");
    expect(sent).toEqual(answer);
    expect("resultType" in sent).toBe(false);
  });

  it("returns a legacy answer as it is", () => {
    const withType = { ...answer, resultType: "complete" };
    expect(samplingAnswer(withType, "2025-11-25")).toBe(withType);
    expect(samplingAnswer(answer, "2025-06-18")).toBe(answer);
    expect(samplingAnswer(answer, "2026-07-28")).toBe(answer);
  });
});
