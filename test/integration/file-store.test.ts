// The file store as a full `Store`: the contract (two handles of one file), its claims atomic
// between two processes racing on one file, TTLs kept in the file as wall-clock expiries, and a
// file of before TTLs (plain strings) still read, and still readable by such a version after.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fileStore } from "../../src/node.js";
import { ClientError } from "../../src/util/errors.js";
import { storeConformance } from "../helpers/store-conformance.js";

async function scratchFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "conduit-file-store-")), "store.json");
}

storeConformance("fileStore", {
  make: async () => {
    const file = await scratchFile();
    return { store: fileStore(file), twin: fileStore(file) };
  },
  elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  shortTtlMs: 40,
});

/** A claimer process (test/fixtures/store-claimer.mjs): says ready, claims on a line, prints what it won. */
function claimer(file: string, name: string, keys: number, tries: number): { ready: Promise<void>; go: () => void; won: Promise<string[]> } {
  const script = fileURLToPath(new URL("../fixtures/store-claimer.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, file, name, String(keys), String(tries)], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const won = new Promise<string[]>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith("ready\n")) onReady();
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const last = out.split("\n").filter(Boolean).at(-1);
      if (code === 0 && last !== undefined && last !== "ready") resolve(JSON.parse(last) as string[]);
      else reject(new Error(`the ${name} claimer exited with ${code}: ${out}`));
    });
  });
  // A claimer that dies before it is ready fails the test through `won`, not by a wait for ever.
  void won.catch(() => onReady());
  return { ready, go: () => child.stdin.end("go\n"), won };
}

describe("the file store across processes", () => {
  it("two processes racing setIfAbsent on the same keys of one file: each key is won exactly once", async () => {
    const file = await scratchFile();
    const KEYS = 8;
    const claimers = [claimer(file, "left", KEYS, 4), claimer(file, "right", KEYS, 4)];
    await Promise.all(claimers.map((c) => c.ready));
    for (const c of claimers) c.go();
    const [left, right] = await Promise.all(claimers.map((c) => c.won));
    const all = [...left!, ...right!].sort();
    expect(all).toEqual(Array.from({ length: KEYS }, (_, k) => `claim-${k}`).sort());
    // Each key's value is its winner's.
    const store = fileStore(file);
    for (const key of left!) expect(await store.get(key)).toMatch(/^left-/);
    for (const key of right!) expect(await store.get(key)).toMatch(/^right-/);
  });
});

describe("the file store's format", () => {
  it("reads a file of plain strings written before TTLs, and keeps untimed values plain for such a reader", async () => {
    const file = await scratchFile();
    await writeFile(file, JSON.stringify({ "conduit:tokens:old": '{"access_token":"t"}', ignored: 7 }), { mode: 0o600 });
    const store = fileStore(file);
    expect(await store.get("conduit:tokens:old")).toBe('{"access_token":"t"}');
    expect(await store.get("ignored")).toBeUndefined();
    await store.set("plain", "p");
    await store.set("timed", "t", { ttlMs: 3_600_000 });
    const kept = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(kept["conduit:tokens:old"]).toBe('{"access_token":"t"}');
    expect(kept.plain).toBe("p");
    // The expiry is the wall clock's, so that another process (or this one restarted) reads it alike.
    const timed = kept.timed as { value: string; expiresAt: number };
    expect(timed.value).toBe("t");
    expect(timed.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it("drops expired values from the file on the next write, and reads them as absent before", async () => {
    const file = await scratchFile();
    await writeFile(file, JSON.stringify({ gone: { value: "g", expiresAt: Date.now() - 1 }, kept: { value: "k", expiresAt: Date.now() + 3_600_000 } }));
    const store = fileStore(file);
    expect(await store.get("gone")).toBeUndefined();
    expect(await store.get("kept")).toBe("k");
    await store.set("other", "o");
    expect(Object.keys(JSON.parse(await readFile(file, "utf8")) as object).sort()).toEqual(["kept", "other"]);
  });

  it("fails a read of a file that is not JSON with a store error naming the step", async () => {
    const file = await scratchFile();
    await writeFile(file, "{ not json");
    const failure = await fileStore(file).get("a").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientError);
    expect((failure as ClientError).kind).toBe("store");
    expect((failure as ClientError).message).toMatch(/: get failed: SyntaxError/);
  });
});
