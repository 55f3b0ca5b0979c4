// Starts flood-http-server.mjs in a process of its own and drives it (see its header).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Tally } from "../helpers/raw-stdio.js";

const SERVER = fileURLToPath(new URL("./flood-http-server.mjs", import.meta.url));

export interface FloodHttpServer {
  readonly url: string;
  /** Resolves once the client's standalone GET stream is open. */
  streamOpen(): Promise<void>;
  /** Writes `count` requests on the GET stream; resolves once all were written. */
  flood(count: number, method?: string): Promise<{ ok: boolean; written: number }>;
  /** Writes `count` notifications of `method` with `params` on the GET stream. */
  floodNotifications(count: number, method: string, params: Record<string, unknown>): Promise<{ ok: boolean; written: number }>;
  /** Whether the server answers the client's POSTs of answers (while not, it holds them). */
  reading(on: boolean): Promise<void>;
  /** The counts once `atLeast` answers came, or what came within `timeoutMs`; `held`: POSTs unanswered. */
  tallied(atLeast: number, timeoutMs?: number): Promise<Tally & { held: number }>;
  /** How many answers the server holds unanswered, once at least `atLeast` (or at `timeoutMs`). */
  held(atLeast: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startFloodHttp(): Promise<FloodHttpServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`flood-http-server exited with ${code}`)));
    child.stdout!.setEncoding("utf8");
    child.stdout!.once("data", (line: string) => resolve(Number(line.trim())));
  });
  const base = `http://127.0.0.1:${port}`;
  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}/control/${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
    return (await response.json()) as T;
  };
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `${base}/mcp`,
    streamOpen: () => control<unknown>("stream").then(() => {}),
    flood: (count, method = "ping") => control("flood", { count, method }),
    floodNotifications: (count, method, params) => control("flood", { count, method, params, notify: true }),
    reading: (on) => control<unknown>("reading", { on }).then(() => {}),
    tallied: (atLeast, timeoutMs = 10_000) => control(`tally?atLeast=${atLeast}&timeoutMs=${timeoutMs}`),
    held: (atLeast, timeoutMs = 10_000) => control<{ held: number }>(`held?atLeast=${atLeast}&timeoutMs=${timeoutMs}`).then((r) => r.held),
    async close() {
      child.stdin?.end();
      child.kill("SIGKILL");
      await exited;
    },
  };
}
