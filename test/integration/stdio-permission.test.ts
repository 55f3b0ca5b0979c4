// A runtime that refuses to start processes (Deno without --allow-run or --allow-env, Node under
// its permission model) throws before the child exists: that is the start's failure, a
// "transport" error saying the server could not start, never a reply that "could not be
// handled". Node's permission model gives the refusal here, on the built package.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BUILT = fileURLToPath(new URL("../../dist/node.js", import.meta.url));

describe("a runtime that may not start processes", () => {
  it("fails the connect as a server that could not start, naming the refusal", () => {
    if (!existsSync(BUILT)) throw new Error("dist/node.js is missing: run `npm run build` (npm test does)");
    const script = `
      import { Client, ClientError } from ${JSON.stringify(BUILT)};
      const client = new Client({ name: "denied", version: "1.0.0" });
      const error = await client.connect("s", { command: process.execPath, args: ["-e", ""] }).catch((error) => error);
      console.log(JSON.stringify({ client: error instanceof ClientError, kind: error.kind, message: error.message }));
      await client.close();`;
    // No --allow-child-process: spawn throws ERR_ACCESS_DENIED as it is called.
    const output = execFileSync(process.execPath, ["--experimental-permission", "--allow-fs-read=*", "--no-warnings", "--input-type=module", "-e", script], { encoding: "utf8" });
    const seen = JSON.parse(output) as { client: boolean; kind: string; message: string };
    expect(seen.client).toBe(true);
    expect(seen.kind).toBe("transport");
    expect(seen.message).toMatch(/^could not start the server: .*: Access to this API has been restricted/);
  });
});
