// `node --expose-gc idle-http.mjs <client> <connections>`: starts idle-http-server in its own
// process, opens one connection to warm the code up, takes the baseline, opens `connections`
// more and lets them settle, then reports the resident set size they added, per connection.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { rss, settle } from "../lib/memory.mjs";
import { firstText, httpFactory } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const SETTLE_MS = 500;

const name = clientArg();
const count = Number(process.argv[3]);
const serverPath = fileURLToPath(new URL("../servers/idle-http-server.mjs", import.meta.url));
const server = spawn(process.execPath, [serverPath], { stdio: ["pipe", "pipe", "inherit"] });
const { url } = JSON.parse(await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once("line", resolve);
  server.once("exit", (code) => reject(new Error(`idle-http-server exited (${code})`)));
}));
const stats = async () => (await fetch(new URL("/stats", url))).json();

const factory = await httpFactory(name);
try {
  const warm = await factory.connect(url);
  if (firstText(await warm.call("echo", { text: "warm" })) !== "warm") throw new Error("echo failed");
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const baseline = rss();

  const connections = [];
  for (let i = 0; i < count; i++) connections.push(await factory.connect(url));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const after = rss();
  const held = await stats();
  emit({ perConnection: (after - baseline) / count, baseline, after, streams: held.streams, sessions: held.sessions });
} finally {
  await factory.close();
  server.stdin.end();
}
