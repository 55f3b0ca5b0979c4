// Cloudflare's workerd, the real runtime (npm `workerd`), with a compatibility date before
// `nodejs_compat` became the default and no flags: a Worker that imports Conduit's web entry
// connects to the official server over Streamable HTTP in both eras, lists, calls a tool, and
// answers an elicitation and a sampling with its Handler; a stdio server is refused there.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../helpers/system-tools.js";
import { officialHttp, type HttpServerProcess } from "../helpers/official.js";
import { STDIO_REFUSAL } from "./host-expectations.js";
import { hostFolder, type HostFolder } from "./package-link.js";
import { bundleWorker, serveWorker, type RunningWorker } from "./workerd-host.js";

const WORKER = fileURLToPath(new URL("workerd-worker.mjs", import.meta.url));

describe("workerd", needs("workerd"), () => {
  let host: HostFolder;
  let worker: RunningWorker;
  let official: HttpServerProcess;

  beforeAll(async () => {
    host = await hostFolder([WORKER]);
    // The Worker imports `conduit-mcp` by name: the bundler resolves it through the package's
    // exports, as a Worker project's would.
    await bundleWorker(host.file("workerd-worker.mjs"), host.file("worker.js"), host.dir);
    [worker, official] = await Promise.all([serveWorker(host.dir, "worker.js"), officialHttp("both")]);
  });

  afterAll(async () => {
    await Promise.all([worker?.close(), official?.close()]);
    await host?.remove();
  });

  async function ask(body: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(worker.url, { method: "POST", body: JSON.stringify(body) });
    const answer: unknown = await response.json();
    // The Worker's error (or workerd's own words, where the Worker did not load) in the diff.
    expect({ status: response.status, stderr: response.status === 200 ? "" : worker.stderr() }).toEqual({ status: 200, stderr: "" });
    return answer;
  }

  // What the Worker finds of Node at COMPATIBILITY_DATE (the day before NODEJS_COMPAT_DEFAULT_DATE).
  const node = { process: "undefined", Buffer: "undefined", nodeEvents: 'Error: No such module "node:events".' };

  it("connects in the modern era, lists, calls, and answers an elicitation and a sampling in the Worker", async () => {
    expect(await ask({ url: official.url })).toEqual({
      node,
      stdio: STDIO_REFUSAL,
      result: {
        era: "modern",
        protocolVersion: "2026-07-28",
        listsEcho: true,
        add: { sum: 5 },
        elicited: { action: "accept", content: { name: "Worker", age: 7, subscribe: false } },
        sampled: "sampled in a Worker",
        seen: [
          { kind: "elicitation", era: "modern", serverId: "official", message: "Please tell us about yourself" },
          { kind: "sampling", era: "modern", text: "hello from the test" },
        ],
      },
    });
  });

  it("connects in the legacy era, where the server's requests come on the POST's stream", async () => {
    expect(await ask({ url: official.url, protocolVersion: "2025-11-25" })).toEqual({
      node,
      stdio: STDIO_REFUSAL,
      result: {
        era: "legacy",
        protocolVersion: "2025-11-25",
        listsEcho: true,
        add: { sum: 5 },
        elicited: { action: "accept", content: { name: "Worker", age: 7, subscribe: false } },
        sampled: "sampled in a Worker",
        seen: [
          { kind: "elicitation", era: "legacy", serverId: "official", message: "Please tell us about yourself" },
          { kind: "sampling", era: "legacy", text: "hello from the test" },
        ],
      },
    });
  });
});
