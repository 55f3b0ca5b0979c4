// Fuzzing the checks of what a server returns (src/protocol/results.ts): for any JSON and any
// negotiated version, a check gives a typed result or throws a "protocol" ClientError, never any
// other exception; what it gives keeps only usable entries (each dropped one is reported), and
// the server's value itself is left as it came.
//
// fast-check's `fc.assert` throws with the seed, the replay path and the shrunk counterexample
// in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRow } from "./safety.js";
import * as results from "../../src/protocol/results.js";
import type { CheckContext } from "../../src/protocol/results.js";
import { SUPPORTED_VERSIONS } from "../../src/protocol/versions.js";
import { ClientError } from "../../src/util/errors.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

/** Each list check, the key of its entries and the string fields an entry must have. */
const LISTS = [
  { check: results.checkListTools, key: "tools", needs: ["name"] },
  { check: results.checkListResources, key: "resources", needs: ["uri", "name"] },
  { check: results.checkListResourceTemplates, key: "resourceTemplates", needs: ["uriTemplate", "name"] },
  { check: results.checkListPrompts, key: "prompts", needs: ["name"] },
] as const;

/** Every check, called the same way (those that take no context ignore it). */
const CHECKS: readonly [string, (raw: unknown, context: CheckContext) => unknown][] = [
  ...LISTS.map(({ check, key }) => [key, check] as [string, (raw: unknown, context: CheckContext) => unknown]),
  ["tools/call", results.checkCallTool],
  ["resources/read", results.checkReadResource],
  ["prompts/get", results.checkGetPrompt],
  ["completion/complete", results.checkComplete],
  ["skills/list", results.checkListSkills],
  ["skills/get", results.checkGetSkill],
  ["ping", results.emptyResult("ping")],
];

const KEYS = ["tools", "resources", "resourceTemplates", "prompts", "content", "contents", "messages", "completion", "values", "skills", "skill", "nextCursor"];
const MEMBERS = ["name", "uri", "uriTemplate", "inputSchema", "title", "type", "text", "blob", "content", "arguments", "structuredContent", "annotations", "icons", "__proto__", "constructor"];

/** A value of any JSON kind, strings and objects more often than not. */
const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom(...MEMBERS), fc.jsonValue({ maxDepth: 1 })));
/** An entry or block: an object of the members checks read, or anything else. */
const entry = fc.oneof({ weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...MEMBERS), leaf, { maxKeys: 5 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
/** A result shaped like one, with any member missing or of the wrong kind. */
const shaped = fc.dictionary(fc.constantFrom(...KEYS), fc.oneof({ weight: 4, arbitrary: fc.array(entry, { maxLength: 6 }) }, { weight: 1, arbitrary: entry }, { weight: 1, arbitrary: leaf }), { maxKeys: 4 });
const raw = fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) });
const version = fc.constantFrom(...SUPPORTED_VERSIONS);

function contextFor(v: (typeof SUPPORTED_VERSIONS)[number]): CheckContext & { drops: number } {
  return {
    version: v,
    drops: 0,
    dropped() {
      this.drops += 1;
    },
  };
}

/** Runs `check`; returns its result, or undefined after asserting its one allowed failure. */
function outcome(check: () => unknown): unknown {
  try {
    return check();
  } catch (error) {
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).kind).toBe("protocol");
    return undefined;
  }
}

describe("fuzz: result checks", () => {
  it("every check gives a result or a protocol error, and leaves the server's value as it came", (context) => {
    const runs = 2_500;
    fc.assert(
      fc.property(raw, version, fc.constantFrom(...CHECKS), (value, v, [, check]) => {
        const before = structuredClone(value);
        outcome(() => check(value, contextFor(v)));
        expect(value).toEqual(before);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "result checks", "every check gives a result or a protocol error, and leaves the server's value as it came");
  });

  it("a list keeps only entries with what the client relies on, and reports each one it drops", (context) => {
    const runs = 1_500;
    fc.assert(
      fc.property(shaped, version, fc.constantFrom(...LISTS), (value, v, { check, key, needs }) => {
        const context = contextFor(v);
        const checked = outcome(() => check(value, context)) as Record<string, unknown> | undefined;
        if (checked === undefined) return;
        const kept = checked[key] as unknown[];
        const given = value[key] as unknown[];
        expect(kept.length + context.drops).toBe(given.length);
        for (const item of kept as Record<string, unknown>[]) {
          for (const name of needs) expect(typeof item[name]).toBe("string");
          if (key === "tools") expect(item.inputSchema).toBeTypeOf("object");
        }
        expect(checked.nextCursor === undefined || typeof checked.nextCursor === "string").toBe(true);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "result checks", "a list keeps only entries with what the client relies on, and reports each one it drops");
  });
});
