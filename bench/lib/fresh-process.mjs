// Scenarios measured in fresh processes: each measurement is one new Node process (a probe from
// bench/probes/), so that one client's heap, JIT state and loaded modules never touch another's.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const PROBE_TIMEOUT_MS = 120_000;

export const probePath = (name) => fileURLToPath(new URL(`../probes/${name}.mjs`, import.meta.url));

/**
 * This process's environment less NODE_EXTRA_CA_CERTS: with it, every Node process reads a CA
 * bundle as it starts (about 70 ms on a machine whose bundle is large), which no probe needs
 * (they talk to local processes only) and which would sit in every cold start as a constant.
 */
export function probeEnvironment() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Runs `node [nodeArgs] bench/probes/<name>.mjs [args]` and resolves with what it reported:
 * { lines: [{ ms, value }], last, wallMs } — every JSON line of its stdout with the time it
 * arrived (ms since the spawn call), the last one, and the time from spawn to exit. Fails with
 * the tail of its stderr if it exits non-zero, prints no JSON, or outlives `timeout`.
 */
export function runProbe(name, args = [], { nodeArgs = [], timeout = PROBE_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, probePath(name), ...args.map(String)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: probeEnvironment(),
    });
    const lines = [];
    let rest = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`probe ${name} ${args.join(" ")} did not finish within ${timeout} ms`));
    }, timeout);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      const now = performance.now() - t0;
      const parts = (rest + chunk).split("\n");
      rest = parts.pop();
      for (const part of parts) {
        if (part.trim() === "") continue;
        try {
          lines.push({ ms: now, value: JSON.parse(part) });
        } catch {
          stderr += `(stdout) ${part}\n`;
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      stderr = (stderr + text).slice(-4_000);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      if (code !== 0 || lines.length === 0) {
        const how = code === null ? `was killed by ${signal}` : `exited with code ${code}`;
        reject(new Error(`probe ${name} ${args.join(" ")} ${how}${lines.length === 0 ? " without a result" : ""}\n${stderr.trim()}`));
        return;
      }
      resolve({ lines, last: lines.at(-1).value, wallMs });
    });
  });
}
