// Deno, the real runtime (npm `deno`): the end-to-end suite's HTTP and stdio files run by
// vitest inside Deno, the built package imported by its name as a Deno host imports it, and
// the web entry, which reaches no `node:` module in Deno's own module graph.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../helpers/system-tools.js";
import { officialHttp, type HttpServerProcess } from "../helpers/official.js";
import { denoGraph } from "./deno-graph.js";
import { NODE_ENTRY_LINES, NODE_ENTRY_SCENARIOS, WEB_ENTRY_LINE } from "./host-expectations.js";
import { PACKAGE_ROOT } from "./package-link.js";
import { runScenarios } from "./scenario-run.js";
import { PROBE, runSuite, runtimeVersion, stopSuite, SUITE_FILES } from "./suite-run.js";

const WEB_ENTRY = join(PACKAGE_ROOT, "dist", "index.js");
const NODE_ENTRY = join(PACKAGE_ROOT, "dist", "node.js");
/** What a Deno host grants for HTTP to this machine's servers and for stdio (spawning, and the environment it passes on). */
const NODE_HOST = ["--allow-net=127.0.0.1", "--allow-run", "--allow-env"];
/** The web entry, chosen by its condition, needs the network alone (the variable is the scenario's own). */
const WEB_HOST = ["--conditions=browser", "--allow-net=127.0.0.1", "--allow-env=CONDUIT_SCENARIO"];

afterEach(stopSuite);

describe("Deno", needs("deno"), () => {
  let official: HttpServerProcess;
  beforeAll(async () => void (official = await officialHttp("both")));
  afterAll(() => official?.close());

  it("passes the end-to-end suite's HTTP and stdio files, run by vitest inside Deno", { timeout: 180_000 }, async () => {
    const outcome = await runSuite("deno");
    expect(outcome.notPassed, outcome.output).toEqual([]);
    expect(outcome.files).toEqual(Object.fromEntries([...SUITE_FILES, PROBE].map((file) => [file, "passed"])));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.runtime).toBe(runtimeVersion("deno"));
  });

  it("resolves `conduit-mcp` to the Node entry: stdio from the root import and from conduit-mcp/node, HTTP in both eras", async () => {
    const { lines, stderr } = await runScenarios("deno", NODE_ENTRY_SCENARIOS, { http: official.url }, NODE_HOST);
    expect(lines, stderr).toEqual(NODE_ENTRY_LINES);
  });

  it("loads the web entry, whose module graph reaches no node: module and no package but its two", () => {
    expect(denoGraph(WEB_ENTRY, PACKAGE_ROOT)).toEqual({ nodeModules: [], packages: ["eventsource-parser", "oauth4webapi"] });
    // The same look at the Node entry finds what the web entry left out.
    expect(denoGraph(NODE_ENTRY, PACKAGE_ROOT).nodeModules).toContain("node:child_process");
  });

  it("runs the web entry (--conditions=browser) with network access alone: Streamable HTTP over Deno's fetch, with the Handler", async () => {
    const { lines, stderr } = await runScenarios("deno", ["web"], { http: official.url }, WEB_HOST);
    expect(lines, stderr).toEqual([WEB_ENTRY_LINE]);
  });
});
