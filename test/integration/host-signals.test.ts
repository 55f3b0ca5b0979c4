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
const BUILT = fileURLToPath(new URL("../../dist/node.js", import.meta.url));

interface Host {
  child: ChildProcess;
  /** Every JSON line the host printed. */
  lines: unknown[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

type Mode = "plain" | "bare" | "own-handler" | "keeps-running";

async function startHost(raw: RawStdioServer, mode: Mode): Promise<Host> {
  if (!existsSync(BUILT)) throw new Error("dist/node.js is missing: run `npm run build` (npm test does)");
  const child = spawn(process.execPath, [HOST, JSON.stringify(raw.target), mode], { stdio: ["pipe", "pipe", "pipe"] });
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

/** Resolves once the host printed `line` (an object compared by value). */
async function waitForLine(host: Host, line: unknown): Promise<void> {
  const seen = (): boolean => host.lines.some((l) => JSON.stringify(l) === JSON.stringify(line));
  while (!seen()) {
    await new Promise<void>((resolve, reject) => {
      host.child.stdout!.once("data", () => setImmediate(resolve));
      void host.exited.then(() => reject(new Error(`the host ended before it printed ${JSON.stringify(line)}`)));
    });
  }
}

describe.skipIf(process.platform === "win32")("a host that is signalled", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("by %s leaves none of its stdio servers running, and dies of the signal", async (signal) => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const host = await startHost(raw, "plain");
    // The server does not leave when its stdin ends, as many do not.
    await raw.stayAfterStdinEnd();
    const pid = raw.pid!;
    host.child.kill(signal);
    expect(await host.exited).toEqual({ code: null, signal });
    await withTimeout(raw.exited, 10_000, `the server to end after its host got ${signal}`);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("with nothing else to keep it alive still dies of the signal, not with exit code 0", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const host = await startHost(raw, "bare");
    host.child.kill("SIGTERM");
    expect(await host.exited).toEqual({ code: null, signal: "SIGTERM" });
    await withTimeout(raw.exited, 10_000, "the server to end after its host got SIGTERM");
  });

  it("with a SIGINT handler that carries on keeps its servers", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("ping", () => ({}));
    const host = await startHost(raw, "keeps-running");
    host.child.kill("SIGINT");
    await withTimeout(waitForLine(host, { handler: "ran" }), 10_000, "the host's SIGINT handler");
    // A round trip after the signal: the server is still there and still answers.
    host.child.stdin!.write("ping\n");
    await withTimeout(waitForLine(host, { pinged: true }), 10_000, "the host's ping after SIGINT");
    expect(isProcessAlive(raw.pid!)).toBe(true);
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
