// On POSIX a stdio server is spawned as it always was: the configured command itself, with its
// arguments byte for byte (no shell: `&`, quotes, `%` and `$` are plain text), as the leader of
// a process group of its own; cross-spawn, which only Windows needs, is never loaded.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";
import { OFFICIAL_SERVER } from "../helpers/official.js";

const root = mkdtempSync(join(tmpdir(), "conduit-posix-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(process.platform !== "linux")("a stdio server on POSIX", () => {
  it("is the command itself with its arguments verbatim, leading its own process group, with no cross-spawn loaded", async () => {
    // The server writes its pid into the file its `--starts` argument names.
    const starts = join(root, `a&b "c" %PATH% $HOME ^x;.txt`);
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("posix", { command: process.execPath, args: [OFFICIAL_SERVER, "stdio", "--starts", starts] });

    const [reply] = (await server.callTool("pid", {})).content;
    const pid = Number(reply?.type === "text" ? reply.text : NaN);

    expect(existsSync(starts)).toBe(true);
    expect(readFileSync(starts, "utf8")).toBe(`${pid}\n`);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1)).toEqual([process.execPath, OFFICIAL_SERVER, "stdio", "--starts", starts]);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    expect(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2])).toBe(pid);
    expect(Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes("cross-spawn"))).toEqual([]);
  });
});
