// The stores OAuth keeps its registrations and tokens in, shared as hosts share them: the file
// store by two stores of one file in a process and by two processes at once, its lock taken
// over when its writer died and bounded when its writer lives.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fileStore } from "../../src/node.js";
import { change } from "../../src/node/file-store.js";

async function scratchFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "conduit-store-")), "store.json");
}

async function keysIn(file: string): Promise<string[]> {
  return Object.keys(JSON.parse(await readFile(file, "utf8")) as object);
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

describe("the file store", () => {
  it("loses nothing when two stores of one file in a process write at once", async () => {
    const file = await scratchFile();
    const [a, b] = [fileStore(file), fileStore(file)];
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).set(`key-${i}`, String(i))));
    expect((await keysIn(file)).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `key-${i}`).sort());
    expect(await b.get("key-98")).toBe("98");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("loses nothing when two processes write to it at once", async () => {
    const file = await scratchFile();
    const writer = fileURLToPath(new URL("../fixtures/store-writer.mjs", import.meta.url));
    const COUNT = 150;
    const writers = ["left", "right"].map((prefix) => {
      const child = spawn(process.execPath, [writer, file, prefix, String(COUNT)], { stdio: ["pipe", "pipe", "inherit"] });
      let out = "";
      const said = (word: string): Promise<void> =>
        new Promise((resolve, reject) => {
          const check = (): void => {
            if (out.includes(`${word}\n`)) resolve();
          };
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString();
            check();
          });
          child.once("exit", (code) => reject(new Error(`the ${prefix} writer exited with ${code} before saying ${word}: ${out}`)));
          check();
        });
      return { child, ready: said("ready"), done: said("done") };
    });
    await Promise.all(writers.map((w) => w.ready));
    for (const { child } of writers) child.stdin.end("go\n");
    await Promise.all(writers.map((w) => w.done));
    const keys = await keysIn(file);
    expect(keys.filter((key) => key.startsWith("left-"))).toHaveLength(COUNT);
    expect(keys.filter((key) => key.startsWith("right-"))).toHaveLength(COUNT);
  });

  it("takes over the lock of a writer that died", async () => {
    const file = await scratchFile();
    await writeFile(`${file}.lock`, `${await deadPid()} ${hostname()} gone`);
    await fileStore(file).set("after", "1");
    expect(await keysIn(file)).toEqual(["after"]);
  });

  it("takes over a lock older than any write takes, whoever holds it", async () => {
    const file = await scratchFile();
    await writeFile(`${file}.lock`, `${process.pid} ${hostname()} stuck`);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${file}.lock`, anHourAgo, anHourAgo);
    await fileStore(file).set("after", "1");
    expect(await keysIn(file)).toEqual(["after"]);
  });

  it("waits a bounded number of times for a lock a live writer holds, then fails naming it", async () => {
    const file = await scratchFile();
    await writeFile(`${file}.lock`, `${process.pid} ${hostname()} busy`);
    let tries = 0;
    const bounds = { attempts: 3, staleMs: 3_600_000 };
    await expect(change(file, () => tries++, bounds)).rejects.toThrow(`${file}.lock`);
    expect(tries).toBe(0);
    // The lock is the other writer's: left where it is.
    expect(await readFile(`${file}.lock`, "utf8")).toContain("busy");
  });
});
