// Connect targets of the servers the fresh-process scenarios run (bench/servers/stress-server.mjs,
// idle-http-server.mjs), kept apart from targets.mjs, which the throughput scenarios own.
import { fileURLToPath } from "node:url";

const serverPath = (file) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url));

/** The legacy stdio server with the blob, flood and status tools. */
export function stressServer() {
  return { command: process.execPath, args: [serverPath("stress-server.mjs")] };
}
