// A redis-server of the test's own on a loopback port, in a temporary folder, persisting every
// write (append-only file, fsync on each) so that a kill and a restart lose nothing written before.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  readonly port: number;
  readonly password: string;
  /** `redis://:password@127.0.0.1:port`. */
  readonly url: string;
  /** Kills it at once (SIGKILL: no shutdown save; what persists is the append-only file). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "conduit-redis-"));
  const port = await freePort();
  const password = `pw-${crypto.randomUUID()}`;
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--requirepass", password],
      { stdio: "ignore" },
    );
    child = started;
    // A spawn that fails is the test's failure, not an unhandled error of the run.
    const failed = new Promise<never>((_, reject) => {
      started.once("error", reject);
      started.once("exit", (code) => reject(new Error(`redis-server exited with ${code} before it listened on ${port}`)));
    });
    failed.catch(() => {});
    await Promise.race([waitForPort(port), failed]);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    port,
    password,
    url: `redis://:${password}@127.0.0.1:${port}`,
    stop,
    start,
    dispose: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}
