// `npm start`: conduit, the terminal host, on the demo server. In a terminal, the interactive
// mode: list and call the demo's tools, and answer what it asks (forms, a URL, a sampling).
// Without one (CI, a pipe), a scripted tour of the same demo in one-shot mode, which ends by
// itself: each command as it would be typed, then what conduit printed and its exit code.
import { spawn } from "node:child_process";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "dist", "cli", "bin.js");
const demo = ["--", process.execPath, join(root, "examples", "demo-server.mjs")];

function conduit(args, stdio) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio, cwd: root, env: { ...process.env, DEMO_STEP_MS: process.env.DEMO_STEP_MS ?? "150" } });
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  });
}

if (process.stdin.isTTY && process.stdout.isTTY && process.env.CONDUIT_TOUR === undefined) {
  // Ctrl-C is conduit's (it stops the command under way): this process must not die of it.
  process.on("SIGINT", () => {});
  process.exitCode = await conduit(demo, "inherit");
} else {
  process.exitCode = await tour();
}

/** The tour: every feature of the demo through one-shot commands, answers given beforehand. */
async function tour() {
  const dir = mkdtempSync(join(tmpdir(), "conduit-tour-"));
  const answers = join(dir, "answers.json");
  writeFileSync(answers, JSON.stringify({ forms: [{ action: "accept", content: { name: "Ada", cabin: "business", seats: 2, newsletter: false, password: "not-shown-anywhere" } }, { action: "accept", content: { season: "autumn" } }], urls: ["decline"] }, null, 2));
  const reply = `${JSON.stringify(process.execPath)} -e "process.stdin.resume(); process.stdin.on('end', () => console.log('Take the 28 tram up to the castle, then walk down through Alfama.'))"`;
  const steps = [
    ["what the demo offers", ["list", ...demo]],
    ["a form with a secret field, answered from --answers (the secret is never shown)", ["call", "book", "destination=Lisbon", "--answers", answers, ...demo]],
    ["a URL to visit, declined (conduit never opens one)", ["call", "pay", "amount=120", "--answers", answers, ...demo]],
    ["a sampling request, answered by a program of yours", ["call", "suggest", "city=Lisbon", "--sampling-command", reply, ...demo]],
    ["the roots conduit shares (--root, else the working directory)", ["call", "roots", "--root", join(root, "examples"), ...demo]],
    ["progress (a bar in a terminal) and logs by level", ["call", "pack", "items=4", "delayMs=100", ...demo]],
    ["", ["call", "log", ...demo]],
    ["a task that asks a question while it runs", ["call", "plan", "destination=Porto", "--answers", join(dir, "plan.json"), ...demo]],
    ["a resource, a prompt, and the result as JSON for scripts", ["read", "trip://readme", ...demo]],
    ["", ["prompt", "itinerary", "city=Porto", ...demo]],
    ["", ["call", "--format", "json", "pack", "items=2", "delayMs=10", ...demo]],
  ];
  writeFileSync(join(dir, "plan.json"), JSON.stringify({ forms: [{ action: "accept", content: { season: "autumn" } }] }));
  let failed = 0;
  try {
    for (const [title, args] of steps) {
      if (title !== "") console.log(`\n# ${title}`);
      const shown = args.map((arg) => (arg === reply ? "'node reply.js'" : arg.startsWith(dir) ? relative(dir, arg) : arg === process.execPath ? "node" : arg.startsWith(root) ? relative(root, arg) : arg));
      console.log(`$ conduit ${shown.join(" ")}`);
      const code = await conduit(args, ["ignore", "inherit", "inherit"]);
      if (code !== 0) {
        console.log(`(exit ${code})`);
        failed++;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(failed === 0 ? "\nThat was the tour. In a terminal, `npm start` opens conduit's interactive mode on the same demo." : `\n${failed} step(s) failed.`);
  return failed === 0 ? 0 : 1;
}
