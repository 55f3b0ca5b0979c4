// The server programs the scenarios run, as connect targets every client adapter understands.
import { fileURLToPath } from "node:url";

const serverPath = (file) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url));

/** The hand-written legacy stdio server: the same program for every client. */
export function rawStdioServer() {
  return { command: process.execPath, args: [serverPath("raw-stdio-server.mjs")] };
}
