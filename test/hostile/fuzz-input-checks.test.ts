// Fuzzing the checks on what a server asks of the host (src/input/): for any JSON, each check
// answers with a verdict and throws nothing; what it lets through keeps its promises (a form
// within FORM_BOUNDS, an answer that fits its form, an https URL without userinfo, maxTokens a
// positive integer within the client's bound, roots that are file:// URIs on this host).
//
// fast-check's `fc.assert` throws with the seed, the replay path and the shrunk counterexample
// in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRow } from "./safety.js";
import { FORM_BOUNDS, checkAnswer, checkFormSchema } from "../../src/input/form-schema.js";
import { vetUrl } from "../../src/input/elicitation.js";
import { checkSampling } from "../../src/input/sampling.js";
import { filterRoots } from "../../src/input/roots.js";
import { INPUT_DEFAULTS } from "../../src/input/options.js";
import { SUPPORTED_VERSIONS } from "../../src/protocol/versions.js";
import { ErrorCode } from "../../src/util/errors.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

const version = fc.constantFrom(...SUPPORTED_VERSIONS);

// ---- form schemas and answers --------------------------------------------------------------------

const KEYWORDS = ["type", "title", "description", "enum", "enumNames", "oneOf", "anyOf", "items", "default", "format", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "const", "properties"];
const keywordValue = fc.oneof(
  fc.constantFrom("string", "number", "integer", "boolean", "array", "object", "email", "uri", "date", "date-time"),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.record({ const: fc.string({ maxLength: 4 }), title: fc.string({ maxLength: 4 }) })), { maxLength: 4 }),
  fc.record({ type: fc.constant("string"), enum: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const property = fc.dictionary(fc.constantFrom(...KEYWORDS), keywordValue, { maxKeys: 5 });
const names = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty"));
const schema = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant("object"), properties: fc.dictionary(names, property, { maxKeys: 5 }), required: fc.option(fc.array(names, { maxLength: 4 }), { nil: undefined }) }, { requiredKeys: ["type", "properties"] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
/** What a Handler might answer for a form: its field names with values of any kind. */
const content = fc.oneof(fc.dictionary(names, fc.oneof(fc.string({ maxLength: 4 }), fc.double(), fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }))), fc.jsonValue({ maxDepth: 2 }));

describe("fuzz: input checks", () => {
  it("checkFormSchema refuses with -32602 or gives a flat form within its bounds; checkAnswer's content fits and passes again", (context) => {
    const runs = 2_000;
    fc.assert(
      fc.property(schema, content, version, (requested, answer, v) => {
        const verdict = checkFormSchema(requested, v);
        if (!verdict.ok) return void expect(verdict.refusal.code).toBe(ErrorCode.InvalidParams);
        const form = verdict.value;
        expect(form.fields.length).toBeLessThanOrEqual(FORM_BOUNDS.fields);
        const fieldNames = new Set(form.fields.map((field) => field.name));
        for (const field of form.fields) expect(field.name.length).toBeLessThanOrEqual(FORM_BOUNDS.nameCharacters);
        for (const name of form.required) expect(fieldNames.has(name)).toBe(true);
        const checked = checkAnswer(form, answer, v);
        if (!checked.ok) return;
        for (const name of Object.keys(checked.content)) expect(fieldNames.has(name)).toBe(true);
        for (const name of form.required) expect(Object.hasOwn(checked.content, name)).toBe(true);
        // What was let through is an answer that fits: checking it again lets it through unchanged.
        expect(checkAnswer(form, checked.content, v)).toEqual({ ok: true, content: checked.content });
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "input checks", "checkFormSchema refuses with -32602 or gives a flat form within its bounds; checkAnswer's content fits and passes again");
  });

  // ---- URL elicitation ---------------------------------------------------------------------------

  const urlText = fc.oneof(
    fc.webUrl({ validSchemes: ["https", "http"], withQueryParameters: true, withFragments: true }),
    fc.webUrl().map((url) => url.replace("://", "://user:pw@")),
    fc.constantFrom("javascript:alert(1)", "https://good.com.evil.com/", "https://xn--pple-43d.com/", "https://%65vil.com/", "https:evil.com", "//evil.com", "https://@evil.com", "https://a@b@evil.com", "data:text/html,x", "HTTPS://EXAMPLE.COM/"),
    fc.string({ maxLength: 30 }).map((tail) => `https://${tail}`),
    fc.jsonValue({ maxDepth: 1 }),
  );

  it("vetUrl lets through exactly the absolute https URLs without userinfo, and says what they are", (context) => {
    const runs = 2_000;
    fc.assert(
      fc.property(urlText, fc.constantFrom(undefined, "https://example.com"), (raw, origin) => {
        const verdict = vetUrl(raw, origin);
        let parsed: URL | undefined;
        try {
          parsed = typeof raw === "string" ? new URL(raw) : undefined;
        } catch {
          parsed = undefined;
        }
        const acceptable = parsed !== undefined && parsed.protocol === "https:" && parsed.username === "" && parsed.password === "";
        expect(verdict.ok).toBe(acceptable);
        if (!verdict.ok) return void expect(verdict.refusal.code).toBe(ErrorCode.InvalidParams);
        const shown = new URL(verdict.value.url);
        expect(shown.protocol).toBe("https:");
        expect(shown.href).toBe(verdict.value.url);
        expect(shown.host).toBe(verdict.value.host);
        expect(verdict.value.idn).toBe(shown.hostname.split(".").some((label) => label.startsWith("xn--")));
        expect(verdict.value.originMismatch).toBe(origin === undefined || shown.origin !== origin);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "input checks", "vetUrl lets through exactly the absolute https URLs without userinfo, and says what they are");
  });

  // ---- sampling ------------------------------------------------------------------------------------

  it("checkSampling takes only a positive integer maxTokens, clamped to the client's bound", (context) => {
    const runs = 1_000;
    const maxTokens = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e9, -1, 1.5, 0, -0, "100", null, true), fc.jsonValue({ maxDepth: 1 }));
    const bound = fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.constant(Infinity));
    fc.assert(
      fc.property(maxTokens, bound, (asked, limit) => {
        const options = { ...INPUT_DEFAULTS.sampling, maxTokens: limit, allowIdle: true };
        const verdict = checkSampling({ maxTokens: asked, messages: [] }, { options, callsInFlight: 0 });
        const positiveInteger = typeof asked === "number" && Number.isInteger(asked) && asked > 0;
        expect(verdict.ok).toBe(positiveInteger);
        if (!verdict.ok) return void expect(verdict.refusal.code).toBe(ErrorCode.InvalidParams);
        expect(verdict.value.maxTokens).toBe(Math.min(asked as number, limit));
        expect(Number.isInteger(verdict.value.maxTokens) && verdict.value.maxTokens >= 1 && verdict.value.maxTokens <= limit).toBe(true);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "input checks", "checkSampling takes only a positive integer maxTokens, clamped to the client's bound");
  });

  // ---- roots ---------------------------------------------------------------------------------------

  const segment = fc.constantFrom("..", ".", "%2e%2e", "%2E.", ".%2e", "a", "b c", "%2f", "\\..", "", "x%00");
  const rootUri = fc.oneof(
    fc.tuple(fc.constantFrom("file:///", "file://localhost/", "file://evil.com/", "FILE:///", "file:/", "file:", "https://x/", "c:/", "file://[::1]/"), fc.array(segment, { maxLength: 6 })).map(([head, parts]) => head + parts.join("/")),
    fc.jsonValue({ maxDepth: 1 }),
  );
  const rootsAnswer = fc.oneof(
    { weight: 5, arbitrary: fc.record({ roots: fc.array(fc.oneof(fc.record({ uri: rootUri, name: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ["uri"] }), fc.jsonValue({ maxDepth: 1 })), { maxLength: 6 }) }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

  it("filterRoots keeps only file:// URIs on this host, with no dot segment left, and reports every other", (context) => {
    const runs = 1_500;
    fc.assert(
      fc.property(rootsAnswer, (answer) => {
        const verdict = filterRoots(answer);
        if (!verdict.ok) return;
        const given = (answer as { roots: unknown[] }).roots;
        expect(verdict.value.result.roots.length + verdict.value.dropped.length).toBe(given.length);
        for (const root of verdict.value.result.roots) {
          const url = new URL(root.uri);
          expect(url.protocol).toBe("file:");
          expect(url.host).toBe("");
          expect(url.href).toBe(root.uri);
          for (const part of url.pathname.split("/")) expect(part).not.toMatch(DOT_SEGMENT);
        }
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "input checks", "filterRoots keeps only file:// URIs on this host, with no dot segment left, and reports every other");
  });
});
