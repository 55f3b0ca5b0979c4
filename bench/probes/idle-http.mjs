// `node --expose-gc --max-semi-space-size=1 idle-http.mjs <client> <connections>`: starts
// idle-http-server in its own process, opens WARM connections to warm the code up (lazy
// compilation and tiering are paid once, not per connection), takes the settled baseline, opens
// `connections` more, lets them settle, and reports the resident set size they added, per
// connection. Every connection stays open, idle, to the end.
//
// Run it with the young generation pinned small (--max-semi-space-size=1): otherwise V8 grows
// the young generation with the allocation rate of opening connections, a transient of several
// MiB that lands on whichever batch of connections happens to trigger it, and that is not
// memory an idle connection holds.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { rss, settle } from "../lib/memory.mjs";
import { firstText, httpFactory } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const WARM = 20;
const SETTLE_MS = 500;

const name = clientArg();
const count = Number(process.argv[3]);
const serverPath = fileURLToPath(new URL("../servers/idle-http-server.mjs", import.meta.url));
const server = spawn(process.execPath, [serverPath], { stdio: ["pipe", "pipe", "inherit"] });
const { url } = JSON.parse(await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once("line", resolve);
  server.once("exit", (code) => reject(new Error(`idle-http-server exited (${code})`)));
}));

const factory = await httpFactory(name);
try {
  for (let i = 0; i < WARM; i++) {
    const connection = await factory.connect(url);
    if (firstText(await connection.call("echo", { text: "warm" })) !== "warm") throw new Error("echo failed");
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const baseline = rss();

  for (let i = 0; i < count; i++) await factory.connect(url);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const after = rss();
  // Asked only now: fetch loads its own HTTP stack, which must not be in the numbers above.
  const held = await (await fetch(new URL("/stats", url))).json();
  emit({ perConnection: (after - baseline) / count, baseline, after, open: WARM + count, ...held });
} finally {
  await factory.close();
  server.stdin.end();
}
