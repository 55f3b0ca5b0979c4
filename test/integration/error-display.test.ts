// How a ClientError of the BUILT package (dist/node.js, what a host installs) looks where a
// host sees it: `console.error` and `util.inspect` name it `ClientError` (the bundler renames the
// class internally), and its stack leads back to the host's code that awaited the call, not only
// to the socket callback where the answer arrived. `npm run build` first, as `npm test` does.
import { existsSync } from "node:fs";
import { Console } from "node:console";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

type Conduit = typeof import("../../src/node.js");

const BUILT = new URL("../../dist/node.js", import.meta.url);

async function built(): Promise<Conduit> {
  if (!existsSync(fileURLToPath(BUILT))) throw new Error("dist/node.js is missing: run `npm run build` (npm test does)");
  return (await import(BUILT.href)) as Conduit;
}

/** What `console.error(value)` prints. */
function printed(value: unknown): string {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  new Console({ stdout: sink, stderr: sink }).error(value);
  return text;
}

describe("a ClientError from the built package", () => {
  it("shows as ClientError and carries the frame of the caller that awaited the call", async () => {
    const { Client, ClientError } = await built();
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("tools/call", () => ({ error: { code: -32000, message: "refused by the server" } }));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("s", raw.target);

    async function callerFrameMarker(): Promise<unknown> {
      try {
        await server.callTool("t");
      } catch (error) {
        return error;
      }
      return undefined;
    }

    const error = await callerFrameMarker();
    expect(error).toBeInstanceOf(ClientError);
    expect(inspect(error)).toMatch(/^ClientError\b/);
    expect(inspect(error)).not.toContain("_ClientError");
    expect(printed(error)).toMatch(/^ClientError\b/);
    expect((error as Error).stack).toContain("callerFrameMarker");
  });
});
