// Launching the test server built on the official MCP server library (test/fixtures/official-server.mjs),
// over stdio (a target for connect) or over HTTP (a child process listening on a loopback port).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Client, ServerHandle } from "../../src/node.js";

export const OFFICIAL_SERVER = fileURLToPath(new URL("../fixtures/official-server.mjs", import.meta.url));
export const EVERYTHING_SERVER = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

export type EraMode = "legacy" | "modern" | "both";

export function officialStdio(era: EraMode = "both"): { command: string; args: string[] } {
  return { command: process.execPath, args: [OFFICIAL_SERVER, "stdio", "--era", era] };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** Spawns a server that prints one JSON line `{"url": ...}` when listening, and waits for it. */
export async function spawnHttpServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 15_000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      buffer += text;
      const line = buffer.split("\n").find((l) => l.includes('"url"'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}

export function officialHttp(era: EraMode = "both", extra: string[] = []): Promise<HttpServerProcess> {
  return spawnHttpServer([OFFICIAL_SERVER, "http", "--era", era, ...extra]);
}

/**
 * Connects `client` to the official server as "official", over stdio or over HTTP to a process
 * of its own; `stop()` ends that process (after the client closed).
 */
export async function connectOfficial(
  client: Client,
  transport: "stdio" | "http",
  era: EraMode,
): Promise<{ server: ServerHandle; url: string | undefined; stop: () => Promise<void> }> {
  if (transport === "stdio") return { server: await client.connect("official", officialStdio(era)), url: undefined, stop: () => Promise.resolve() };
  const http = await officialHttp(era);
  try {
    return { server: await client.connect("official", { url: http.url }), url: http.url, stop: () => http.close() };
  } catch (error) {
    await http.close();
    throw error;
  }
}

/** server-everything in streamableHttp mode listens on PORT; find a free one first. */
export async function everythingHttp(): Promise<HttpServerProcess> {
  const { createServer } = await import("node:net");
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address() as { port: number };
      probe.close(() => resolve(address.port));
    });
  });
  const child = spawn(process.execPath, [EVERYTHING_SERVER, "streamableHttp"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: String(port) },
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${seen}`)), 15_000);
    const onText = (text: string) => {
      seen += text;
      if (/listening|running|port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.setEncoding("utf8").on("data", onText);
    child.stderr.setEncoding("utf8").on("data", onText);
  });
  return {
    url,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
