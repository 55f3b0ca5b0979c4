// Bun, the real runtime (npm `bun`): the end-to-end suite's HTTP and stdio files run by vitest
// inside Bun, and the built package imported by its name as a Bun host imports it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../helpers/system-tools.js";
import { officialHttp, type HttpServerProcess } from "../helpers/official.js";
import { NODE_ENTRY_LINES, NODE_ENTRY_SCENARIOS, WEB_ENTRY_LINE } from "./host-expectations.js";
import { runScenarios } from "./scenario-run.js";
import { PROBE, runSuite, runtimeVersion, stopSuite, SUITE_FILES } from "./suite-run.js";

afterEach(stopSuite);

describe("Bun", needs("bun"), () => {
  let official: HttpServerProcess;
  beforeAll(async () => void (official = await officialHttp("both")));
  afterAll(() => official?.close());

  it("passes the end-to-end suite's HTTP and stdio files, run by vitest inside Bun", { timeout: 180_000 }, async () => {
    const outcome = await runSuite("bun");
    expect(outcome.notPassed, outcome.output).toEqual([]);
    expect(outcome.files).toEqual(Object.fromEntries([...SUITE_FILES, PROBE].map((file) => [file, "passed"])));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.runtime).toBe(runtimeVersion("bun"));
  });

  it("resolves `conduit-mcp` to the Node entry: stdio from the root import and from conduit-mcp/node, HTTP in both eras", async () => {
    const { lines, stderr } = await runScenarios("bun", NODE_ENTRY_SCENARIOS, { http: official.url });
    expect(lines, stderr).toEqual(NODE_ENTRY_LINES);
  });

  it("runs the web entry (--conditions=browser): Streamable HTTP over Bun's fetch, with the Handler", async () => {
    const { lines, stderr } = await runScenarios("bun", ["web"], { http: official.url }, ["--conditions=browser"]);
    expect(lines, stderr).toEqual([WEB_ENTRY_LINE]);
  });
});
