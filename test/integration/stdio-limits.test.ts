// Bounds of the stdio pipes in both directions. A line over `maxMessageBytes` ends the
// connection, and nothing of that line is parsed or logged afterwards, not even its tail. A
// server that stops reading its stdin cannot make the host queue bytes without end: past a bound
// the client's calls fail with "transport".
import { describe, expect, it } from "vitest";
import { Client, type ClientError } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const MARK = "LEAKED-PAYLOAD-";

describe("a line over maxMessageBytes", () => {
  it("is neither parsed nor logged, not even the part after the bound", async () => {
    const max = 1000;
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const logger = capturingLogger();
    const client = track(new Client({ name: "h", version: "0", logger }));
    const server = await client.connect("s", raw.target, { maxMessageBytes: max });
    await raw.stayAfterStdinEnd();
    const prefix = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"';
    // One byte over the bound and no newline yet: the bound is crossed with the last byte, so
    // when the connection fails all of it has been read.
    const head = prefix + MARK.repeat(Math.ceil(max / MARK.length)).slice(0, max + 1 - prefix.length);
    expect(Buffer.byteLength(head)).toBe(max + 1);
    await raw.sendRaw(head);
    const ended = await server.closed;
    expect(ended).toMatchObject({ kind: "transport" });
    // The rest of the same line, short enough to fit the bound on its own.
    await raw.sendRaw(`${MARK}END"}}\n`);
    await raw.exit(0);
    await server.close();
    const reported = JSON.stringify(logger.entries) + ended!.message + JSON.stringify(ended!.data ?? null);
    expect(reported).not.toContain(MARK);
    expect(server.stats().invalidMessages).toBe(0);
  });
});

describe.skipIf(process.platform === "win32")("a server that stops reading its stdin", () => {
  it("gets a bounded queue: past the bound, calls fail with transport", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("s", raw.target);
    await raw.stopReading();
    const payload = "x".repeat(1024 * 1024);
    let failed: ClientError | undefined;
    // Up to 256 MiB of calls; any sane bound lies well below.
    for (let i = 0; i < 256 && failed === undefined; i++) {
      server.callTool("big", { payload }).catch((error: ClientError) => {
        failed ??= error;
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(failed).toMatchObject({ kind: "transport" });
  });
});
