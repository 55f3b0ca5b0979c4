// Many workers (issue 24), the task parts: a 2026-07-28 task's question parked by worker A
// (killed), answered by worker B through a real Redis, refused to worker C; and a kept task whose
// follower A is killed mid-follow: B is refused while A's lease lives, and follows once it is
// free. Workers are processes of their own on the built package.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPendingInput, type PendingInput } from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { TASKS_EXTENSION, done, elicitName, scriptTasks } from "../helpers/modern-tasks.js";
import { startRawHttp, type RawHttpServer } from "../helpers/raw-http.js";
import { startRedis, type RedisServer } from "../helpers/redis-server.js";
import { needs } from "../helpers/system-tools.js";

const WORKER = fileURLToPath(new URL("../fixtures/task-input-worker.mjs", import.meta.url));
const TASK_WORKER = fileURLToPath(new URL("../fixtures/task-worker.mjs", import.meta.url));
const ada = { name: { action: "accept", content: { name: "Ada" } } };

type Outcome = { result?: { content: { text: string }[] }; error?: { kind: string; message: string } };

/** Runs a worker to its end: the last JSON line it printed, `stdin` written to it first. */
function run(args: string[], stdin = ""): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    child.once("error", reject);
    child.once("exit", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as Outcome);
      } catch {
        reject(new Error(`the worker exited (${code}) with ${JSON.stringify(out)}`));
      }
    });
    child.stdin.end(stdin);
  });
}

/** Starts a worker, reads its first line, and SIGKILLs it once `before` (after that line) is done. */
async function firstLineThenKill(args: string[], before: () => Promise<void> = () => Promise.resolve()): Promise<unknown> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before it printed`)));
    });
    await before();
    return JSON.parse(line);
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

async function tasksServer(): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "jobs", version: "1" } },
  }));
  return srv;
}

describe("a task's question and a kept task's follow across worker processes, through Redis", needs("redis-server"), () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it("A parks the task's question and dies; B answers it in one tasks/update and gets the result; C is told it was resumed and sends nothing", async () => {
    const srv = await tasksServer();
    const script = scriptTasks(srv, [{ status: "working" }, { status: "input_required", inputRequests: { name: elicitName } }, { status: "input_required", inputRequests: { name: elicitName } }, { status: "working" }, done("Hello, Ada!")]);
    const pending = (await firstLineThenKill([WORKER, "park", srv.url, redis.url, "asks:"])) as PendingInput;
    expect(isPendingInput(pending)).toBe(true);
    expect(pending).toMatchObject({ method: "tasks/update", serverId: "jobs", params: { taskId: "task-1" }, inputRequests: { name: elicitName } });
    expect(script.updates).toHaveLength(0);
    const carried = JSON.stringify(pending);

    const b = await run([WORKER, "resume", srv.url, redis.url, "asks:"], carried);
    expect(b.error).toBeUndefined();
    expect(b.result?.content[0]?.text).toBe("Hello, Ada!");
    expect(script.updates.map((update) => update.params)).toEqual([expect.objectContaining({ taskId: "task-1", inputResponses: ada })]);

    const c = await run([WORKER, "resume", srv.url, redis.url, "asks:"], carried);
    expect(c.error).toMatchObject({ kind: "usage", message: expect.stringMatching(/already resumed/) });
    expect(script.updates).toHaveLength(1);
    expect(script.calls).toHaveLength(1);
  });

  it("A follows a kept task and is killed mid-follow; B is refused while A's lease lives, and follows the task to its end once it is free", async () => {
    const srv = await tasksServer();
    const script = scriptTasks(srv, [{ status: "working" }]);
    // Killed once A has polled: it holds the lease, taken before its first tasks/get.
    const handle = (await firstLineThenKill([WORKER, "keep-follow", srv.url, redis.url, "leases:"], () => script.polled(1))) as { taskId: string };
    expect(handle).toMatchObject({ taskId: "task-1" });

    const refused = await run([TASK_WORKER, "follow", srv.url, redis.url, "leases:", handle.taskId]);
    expect(refused.error).toMatchObject({ kind: "usage", message: expect.stringMatching(/being followed by another worker/) });

    // The lease is TASK_LEASE_MS (30 s), not configurable: its expiry is played by deleting the
    // key A left, after checking it is there with a TTL no longer than the lease.
    const direct = createClient({ url: redis.url });
    await direct.connect();
    try {
      const keys = await direct.keys("leases:*task-lease*");
      expect(keys).toHaveLength(1);
      const ttl = await direct.pTTL(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(30_000);
      await direct.del(keys[0]!);
    } finally {
      await direct.quit();
    }
    script.steps = [done("followed by B")];
    const b = await run([TASK_WORKER, "follow", srv.url, redis.url, "leases:", handle.taskId]);
    expect(b.error).toBeUndefined();
    expect(b.result?.content[0]?.text).toBe("followed by B");
    expect(script.calls).toHaveLength(1);
  });
});
