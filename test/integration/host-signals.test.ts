// A host killed by SIGTERM or SIGINT takes its stdio servers with it. They run detached, in
// process groups of their own, so no signal to the host reaches them, and a server that ignores
// the end of its stdin would otherwise outlive the host. A host with a SIGTERM handler of its own
// still has it run. The host is a child process on the built package (test/fixtures/signal-host.mjs;
// `npm run build` first, as `npm test` does).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isProcessAlive, startRawStdio, withTimeout, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const HOST = fileURLToPath(new URL("../fixtures/signal-host.mjs", import.meta.url));
const BUILT = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

interface Host {
  child: ChildProcess;
  /** Every JSON line the host printed. */
  lines: unknown[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startHost(raw: RawStdioServer, mode: "plain" | "own-handler"): Promise<Host> {
  if (!existsSync(BUILT)) throw new Error("dist/index.js is missing: run `npm run build` (npm test does)");
  const child = spawn(process.execPath, [HOST, JSON.stringify(raw.target), mode], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: unknown[] = [];
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  track({
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  });
  const ready = new Promise<void>((resolve, reject) => {
    let buffer = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      buffer += text;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        const line = JSON.parse(buffer.slice(0, newline)) as unknown;
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        if ((line as { ready?: unknown }).ready === true) resolve();
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`the host ended (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
  await withTimeout(ready, 15_000, "the host to connect");
  return { child, lines, exited };
}

describe.skipIf(process.platform === "win32")("a host that is signalled", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("by %s leaves none of its stdio servers running", async (signal) => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const host = await startHost(raw, "plain");
    // The server does not leave when its stdin ends, as many do not.
    await raw.stayAfterStdinEnd();
    const pid = raw.pid!;
    host.child.kill(signal);
    await host.exited;
    await withTimeout(raw.exited, 10_000, `the server to end after its host got ${signal}`);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("with a SIGTERM handler of its own still has it run, and its server ends", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const host = await startHost(raw, "own-handler");
    await raw.stayAfterStdinEnd();
    host.child.kill("SIGTERM");
    expect(await host.exited).toEqual({ code: 0, signal: null });
    expect(host.lines).toContainEqual({ handler: "ran" });
    await withTimeout(raw.exited, 10_000, "the server to end after its host closed");
  });
});
