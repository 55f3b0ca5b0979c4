// util/message-text.ts keeps the JSON text of methods and tool names for the life of the process:
// what it keeps is bounded in count and in length, whatever names a server gives its tools.
// A file of its own: the kept texts are module state, and here nothing else has filled them.
import { describe, expect, it } from "vitest";
import { keptTexts, messageText } from "../../src/util/message-text.js";

const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

describe("the texts messageText keeps", () => {
  it("keeps no long name, and at most 256 names however many are called", () => {
    // Long names first, while every slot is free: none may be kept.
    for (let i = 0; i < 200; i++) {
      const message = call(i, `${"n".repeat(1024)}${i}`);
      expect(messageText(message)).toBe(JSON.stringify(message));
    }
    expect(keptTexts().characters).toBeLessThan(2 * 1024);
    for (let i = 0; i < 1000; i++) {
      const message = call(i, `tool-${i}`);
      expect(messageText(message)).toBe(JSON.stringify(message));
    }
    const kept = keptTexts();
    // 256 names and the one method (tools/call).
    expect(kept.count).toBe(257);
    expect(kept.characters).toBeLessThan(257 * 2 * 130);
  });
});
