// Fuzzing the front matter reader (src/ext/skills-yaml.ts) against the `yaml` package, which
// reads all of YAML 1.2: over generated documents of the subset the reader takes (block and flow
// collections, plain, quoted and block scalars, comments, values over several lines, the words
// the core schema types) and over those documents broken by a few edits, Conduit reads no
// document that `yaml` refuses, reads every document it takes as `yaml` does, and refuses with a
// YamlError alone. Where the two differ on purpose (anchors, tags, complex keys, keys that YAML
// libraries render differently), Conduit refuses.
//
// fast-check's `fc.assert` throws on failure with the seed, the replay path and the shrunk
// counterexample in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { YamlError, parseYaml } from "../../src/ext/skills-yaml.js";
import { documentTree, mutated, render } from "./fuzz-yaml-docs.js";
import { fuzzRow } from "./safety.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

/** Cases per property. */
const WELL_FORMED_RUNS = 500;
const BROKEN_RUNS = 1_000;
/** Of the well-formed documents, the share Conduit must read (the rest: keys it refuses on purpose). */
const MIN_READ_SHARE = 0.6;

/**
 * A document as front matter is: its last line ends with a line break (`splitSkillDocument`
 * keeps it). Libraries differ on a last line without one (`|` gives "x" or "x\n").
 */
const terminated = (text: string): string => (text.endsWith("\n") ? text : `${text}\n`);

type Reading = { ok: true; value: unknown } | { ok: false; why: string };

function ours(text: string): Reading {
  try {
    return { ok: true, value: parseYaml(text) };
  } catch (error) {
    // Anything but a YamlError (a RangeError, a TypeError) is a defect of the reader.
    if (!(error instanceof YamlError)) throw error;
    return { ok: false, why: error.message };
  }
}

/** `yaml`'s reading under the 1.2 core schema, a key given twice an error, as the reader's. */
function theirs(text: string): Reading {
  const document = parseDocument(text, { version: "1.2", schema: "core", uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) return { ok: false, why: document.errors.map((e) => e.message).join("; ") };
  return { ok: true, value: document.toJS({ maxAliasCount: 0 }) };
}

/**
 * The property: what Conduit reads, `yaml` reads too, to the same value. `yaml` is read once and
 * only when needed, and vitest's matchers run only on a failure: the run stays a few seconds.
 */
function agrees(text: string, other?: Reading): Reading {
  const mine = ours(text);
  if (mine.ok) {
    const theirReading = other ?? theirs(text);
    if (!theirReading.ok) expect.fail(`yaml refuses what Conduit reads (${theirReading.why}):\n${text}`);
    if (!isDeepStrictEqual(mine.value, theirReading.value)) expect(mine.value, `Conduit reads otherwise than yaml:\n${text}`).toEqual(theirReading.value);
  }
  return mine;
}

// The refusals a well-formed document may meet: what YAML libraries read differently (keys
// such as `1.0` or `True`, an empty line after an escaped line break).
const ON_PURPOSE = /YAML libraries/;

describe("fuzz: the front matter reader against yaml", () => {
  it("reads the generated documents of its subset as yaml does, refusing only what YAML libraries read differently", (context) => {
    let read = 0;
    fc.assert(
      fc.property(documentTree, (tree) => {
        const text = terminated(render(tree));
        const other = theirs(text);
        if (!other.ok) expect.fail(`yaml refuses a generated document (${other.why}):\n${text}`);
        const mine = agrees(text, other);
        if (mine.ok) read++;
        else if (!ON_PURPOSE.test(mine.why)) expect.fail(`Conduit refuses a generated document (${mine.why}):\n${text}`);
      }),
      { numRuns: WELL_FORMED_RUNS },
    );
    // A property no document reaches proves nothing: most of them are read.
    expect(read).toBeGreaterThanOrEqual(WELL_FORMED_RUNS * MIN_READ_SHARE);
    fuzzRow(context, WELL_FORMED_RUNS, "front matter reader (documents of its YAML subset)", `\`yaml\` reads each; Conduit reads at least ${MIN_READ_SHARE * 100} % of them to the same value (deep-equal), and refuses the others only where YAML libraries read differently (keys such as \`1.0\`, \`True\`, \`null\`; an empty line after an escaped line break)`);
  });

  it("reads nothing yaml refuses and nothing otherwise than yaml, in documents broken by edits", (context) => {
    let refused = 0;
    fc.assert(
      fc.property(mutated, (text) => {
        if (!agrees(terminated(text)).ok) refused++;
      }),
      { numRuns: BROKEN_RUNS },
    );
    // The edits break documents: a good share must be refused, or they tried nothing.
    expect(refused).toBeGreaterThan(BROKEN_RUNS / 10);
    fuzzRow(context, BROKEN_RUNS, "front matter reader (its documents broken by inserted indicators, anchors, tags, tabs, quotes, deletions, indentation and swapped lines)", "Conduit reads none that `yaml` refuses and none otherwise than `yaml`; it throws nothing but a `YamlError`");
  });
});
