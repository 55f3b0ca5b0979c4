// Running a Worker in the real workerd (npm `workerd`): the Worker bundled as a Worker's
// bundler does it, a config in Cap'n Proto text written beside it, and the server started with
// a control descriptor on which it says the port it listens on.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { systemToolPath } from "../helpers/system-tools.js";

/**
 * workerd turns `nodejs_compat` on by default from this compatibility date (its
 * compatibility-date schema, built into the binary: `nodeJsCompat`, enable flag
 * `nodejs_compat`, disable flag `no_nodejs_compat`, default from 2026-08-04).
 */
export const NODEJS_COMPAT_DEFAULT_DATE = "2026-08-04";

/** The day before: a Worker of this date, with no flags, has no Node in it at all. */
export const COMPATIBILITY_DATE = "2026-08-03";

/** Bundles `entry` into `outfile` for a Worker: the conditions workerd's own tools use, ESM. */
export async function bundleWorker(entry: string, outfile: string, workingDir: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    absWorkingDir: workingDir,
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    target: "es2022",
    logLevel: "silent",
  });
}

/**
 * The config: one Worker of COMPATIBILITY_DATE without compatibility flags, listening on a
 * port of workerd's choosing, whose fetch() may reach this machine's loopback servers (the
 * default outbound service allows public addresses only; "local" is 127.0.0.0/8 and ::1).
 */
export function workerdConfig(moduleFile: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ( name = "main",
      worker = (
        modules = [ (name = "worker.js", esModule = embed "${moduleFile}") ],
        compatibilityDate = "${COMPATIBILITY_DATE}",
        globalOutbound = "loopback",
      ),
    ),
    ( name = "loopback", network = ( allow = ["local"] ) ),
  ],
  sockets = [ ( name = "http", address = "127.0.0.1:0", http = (), service = "main" ) ],
);
`;
}

export interface RunningWorker {
  url: string;
  /** What workerd wrote on stderr (the Worker's uncaught errors, console output). */
  stderr(): string;
  close(): Promise<void>;
}

/** Writes the config into `dir` beside `moduleFile` and serves it; resolves once it listens. */
export async function serveWorker(dir: string, moduleFile: string): Promise<RunningWorker> {
  const config = join(dir, "config.capnp");
  await writeFile(config, workerdConfig(moduleFile));
  const child = spawn(systemToolPath("workerd"), ["serve", config, "--control-fd=3"], { cwd: dir, stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const control = child.stdio[3];
  if (control === null || control === undefined || !("on" in control)) throw new Error("workerd's control descriptor did not open");
  const port = await new Promise<number>((resolve, reject) => {
    // Each control message is a JSON line; "listen" names the socket and its port.
    createInterface({ input: control as NodeJS.ReadableStream }).on("line", (line) => {
      const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
      if (message.event === "listen" && message.socket === "http" && typeof message.port === "number") resolve(message.port);
    });
    child.once("error", reject);
    void exited.then(() => reject(new Error(`workerd exited before it listened:\n${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
