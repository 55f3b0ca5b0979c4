// The era a client remembers per target (so that a later connect goes straight to it) outlives
// the servers it was learnt from: it must keep no secret of theirs — no URL query (a token in
// `?token=`), no environment value, no argument — and it must be bounded.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Client } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { startRawStdio, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** The client's memory as a person reading a heap dump would see it. */
const memoryOf = (client: Client): string => inspect((client as unknown as { eras: unknown }).eras, { depth: 20, showHidden: true });

describe("the era memory of a client", () => {
  it("keeps no query string, fragment, user info, environment value or argument of the targets it learnt", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const stdio = await client.connect("stdio", { ...raw.target, args: [...raw.target.args, "--api-key=arg-secret-5150"], env: { API_KEY: "env-secret-4711" } });
    const http = track(await startRawHttp());
    const url = new URL(http.url);
    url.username = "ada";
    url.password = "userinfo-secret-77";
    url.search = "?token=query-secret-1234";
    url.hash = "#fragment-secret-99";
    const remote = await client.connect("http", { url: url.href });
    await Promise.all([stdio.close(), remote.close()]);
    const memory = memoryOf(client);
    for (const secret of ["arg-secret-5150", "env-secret-4711", "userinfo-secret-77", "query-secret-1234", "fragment-secret-99", "API_KEY"]) {
      expect(memory).not.toContain(secret);
    }
    // Both targets are remembered all the same.
    expect(memory).toContain("legacy");
    expect((client as unknown as { eras: { size: number } }).eras.size).toBe(2);
  });

  it("knows a URL by its origin and path: another token reaches the same server, which is not probed again", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const http = track(await startRawHttp());
    const first = await client.connect("a", { url: `${http.url}?token=one` });
    await first.close();
    const before = http.requests.length;
    const second = await client.connect("b", { url: `${http.url}?token=two` });
    const methods = http.requests.slice(before).map((request) => (request.json as RpcMessage | undefined)?.method);
    // Remembered as legacy: straight to initialize, no server/discover.
    expect(methods).toContain("initialize");
    expect(methods).not.toContain("server/discover");
    await second.close();
  });

  it("remembers at most 1 000 targets", () => {
    const client = new Client({ name: "host", version: "1", logger: capturingLogger() });
    const memory = (client as unknown as { eras: { set(key: string, era: string): void; size: number } }).eras;
    for (let i = 0; i <= 1_000; i++) memory.set(`target-${i}`, "legacy");
    expect(memory.size).toBe(1_000);
  });
});
