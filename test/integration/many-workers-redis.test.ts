// Many workers (issue 24), each a process of its own, sharing a real Redis: worker A calls a
// 2026-07-28 tool that asks for input, parks it and is killed; worker B resumes it with the
// answer; worker C, given the same PendingInput, gets "already resumed" and sends nothing. The
// server (a process per worker, all logging to one file) saw one retry, with the requestState it
// minted, byte for byte. Hosts and resumers run on the built package.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPendingInput, type PendingInput } from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { TASKS_EXTENSION, done, scriptTasks } from "../helpers/modern-tasks.js";
import { startRawHttp, type RawHttpServer } from "../helpers/raw-http.js";
import { startRedis, type RedisServer } from "../helpers/redis-server.js";
import { needs } from "../helpers/system-tools.js";

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const SERVER = fixture("pending-input-server.mjs");
const PARKER = fixture("pending-input-host.mjs");
const RESUMER = fixture("resume-host.mjs");
const CATALOG_WORKER = fixture("catalog-worker.mjs");
const TASK_WORKER = fixture("task-worker.mjs");

interface Logged {
  event: "call" | "minted";
  pid?: number;
  name?: string;
  tool?: string;
  requestState?: string;
}

/** Runs a worker to its end: what it printed (one JSON line), `stdin` written to it first. */
function worker(args: string[], stdin: string): Promise<{ result?: { content: { text: string }[] }; error?: { kind: string; message: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    child.once("error", reject);
    child.once("exit", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as never);
      } catch {
        reject(new Error(`the worker exited (${code}) with ${JSON.stringify(out)}`));
      }
    });
    child.stdin.end(stdin);
  });
}

/** Worker A: parks, prints the PendingInput, is killed before anyone answers. */
async function parkThenDie(log: string): Promise<PendingInput> {
  const host = spawn(process.execPath, [PARKER, SERVER, log], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => host.once("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: host.stdout }).once("line", resolve);
      host.once("exit", (code) => reject(new Error(`worker A exited (${code}) before it parked`)));
    });
    return JSON.parse(line) as PendingInput;
  } finally {
    host.kill("SIGKILL");
    await exited;
  }
}

describe("a person's pending answer across worker processes, through Redis", needs("redis-server"), () => {
  let redis: RedisServer;
  let folder: string;

  beforeAll(async () => {
    redis = await startRedis();
    folder = mkdtempSync(join(tmpdir(), "conduit-workers-"));
  });

  afterAll(async () => {
    await redis?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it("A parks and dies, B resumes once with the byte-exact state, C is told it was resumed and sends nothing", async () => {
    const log = join(folder, "server.log");
    const pending = await parkThenDie(log);
    expect(isPendingInput(pending)).toBe(true);
    const carried = JSON.stringify(pending);

    const b = await worker([RESUMER, SERVER, log, redis.url, "tenant-1:"], carried);
    expect(b.error).toBeUndefined();
    expect(b.result?.content[0]?.text).toBe("hello Ada");

    const c = await worker([RESUMER, SERVER, log, redis.url, "tenant-1:"], carried);
    expect(c.error).toMatchObject({ kind: "usage", message: expect.stringMatching(/already resumed/) });

    const entries = readFileSync(log, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Logged);
    const calls = entries.filter((entry) => entry.event === "call" && entry.name === "ask");
    const minted = entries.filter((entry) => entry.event === "minted" && entry.tool === "ask").map((entry) => entry.requestState);
    // The first call (A's), and one retry (B's): C sent nothing.
    expect(calls).toHaveLength(2);
    expect(calls[1]!.requestState).toBe(minted[0]);
    expect(pending.requestState).toBe(minted[0]);
    expect(new Set(calls.map((call) => call.pid)).size).toBe(2);
  });

  it("keeps tenants apart: a claim under one prefix does not stop a resume under another", async () => {
    const log = join(folder, "tenants.log");
    const pending = await parkThenDie(log);
    const carried = JSON.stringify(pending);
    expect((await worker([RESUMER, SERVER, log, redis.url, "tenant-a:"], carried)).result?.content[0]?.text).toBe("hello Ada");
    // Under another prefix the claim is not seen: the prefix is the namespace, one per tenant.
    const other = await worker([RESUMER, SERVER, log, redis.url, "tenant-b:"], carried);
    expect(other.error).toBeUndefined();
    expect(other.result?.content[0]?.text).toBe("hello Ada");
  });

  it("fails with a store error naming the step when Redis is down, and sends nothing", async () => {
    const log = join(folder, "down.log");
    const pending = await parkThenDie(log);
    await redis.stop();
    try {
      const down = await worker([RESUMER, SERVER, log, redis.url, "tenant-1:"], JSON.stringify(pending));
      expect(down.error).toMatchObject({ kind: "store", message: expect.stringMatching(/setIfAbsent/) });
      const calls = readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"call"'));
      expect(calls).toHaveLength(1);
    } finally {
      await redis.start();
    }
  });
});

/** A 2026-07-28 server over HTTP whose tools/list carries a public cache hint of `ttlMs`. */
async function hintedServer(ttlMs: number): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
    ttlMs: 0,
    cacheScope: "private",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "hinted", version: "1" } },
  }));
  srv.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "lookup", inputSchema: { type: "object" } }], ttlMs, cacheScope: "public" }));
  return srv;
}

const listings = (srv: RawHttpServer): number => srv.requests.filter((request) => request.body.includes('"method":"tools/list"')).length;

describe("a warm catalog in Redis, across worker processes", needs("redis-server"), () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it("a fresh worker lists nothing while the server's hint allows, and lists again once it has passed", async () => {
    const long = await hintedServer(3_600_000);
    for (let i = 0; i < 3; i++) expect(await worker([CATALOG_WORKER, long.url, redis.url, "warm:"], "")).toEqual({ tools: ["lookup"] });
    expect(listings(long)).toBe(1);

    const short = await hintedServer(300);
    expect(await worker([CATALOG_WORKER, short.url, redis.url, "warm:"], "")).toEqual({ tools: ["lookup"] });
    expect(listings(short)).toBe(1);
    // Past the hint (300 ms, waited for well past it): the next worker lists, and keeps it again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await worker([CATALOG_WORKER, short.url, redis.url, "warm:"], "")).toEqual({ tools: ["lookup"] });
    expect(listings(short)).toBe(2);
  });
});

describe("a kept task across worker processes, through Redis", needs("redis-server"), () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it("worker A starts a kept task and is killed; worker B picks it up from Redis and follows it to its end", async () => {
    const srv = await hintedServer(0);
    const script = scriptTasks(srv, [{ status: "working" }, { status: "working" }, done("picked up")]);
    const a = spawn(process.execPath, [TASK_WORKER, "keep", srv.url, redis.url, "jobs:"], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => a.once("exit", resolve));
    let handle: { taskId: string; serverId: string };
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: a.stdout }).once("line", resolve);
        a.once("exit", (code) => reject(new Error(`worker A exited (${code}) before it printed its task`)));
      });
      handle = JSON.parse(line) as { taskId: string; serverId: string };
    } finally {
      a.kill("SIGKILL");
      await exited;
    }
    expect(handle).toMatchObject({ serverId: "jobs", taskId: "task-1" });
    expect(script.calls).toHaveLength(1);
    const b = await worker([TASK_WORKER, "follow", srv.url, redis.url, "jobs:", handle.taskId], "");
    expect(b.error).toBeUndefined();
    expect(b.result?.content[0]?.text).toBe("picked up");
    // B made no task of its own: it followed A's.
    expect(script.calls).toHaveLength(1);
    // Its end forgot it: a third worker finds nothing kept.
    const c = await worker([TASK_WORKER, "follow", srv.url, redis.url, "jobs:", handle.taskId], "");
    expect(c.error).toMatchObject({ kind: "usage" });
  });
});
