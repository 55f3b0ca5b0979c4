// Self-test of the raw scripted-server fixtures, without the client library:
// the test plays the client itself (spawning the relay / calling fetch).
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive, startRawStdio, withTimeout } from "../helpers/raw-stdio.js";
import type { RawStdioServer } from "../helpers/raw-stdio.js";
import { NEXT, formatSse, startRawHttp, viaSse } from "../helpers/raw-http.js";
import type { RawHttpServer } from "../helpers/raw-http.js";

// ---------------------------------------------------------------------------
// stdio relay
// ---------------------------------------------------------------------------

interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** Everything the relay wrote on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout satisfies `pred` (rejects if the child exits first or on timeout). */
  waitStdout(pred: (text: string) => boolean, what: string): Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function startRelay(): Promise<{ srv: RawStdioServer; relay: Spawned }> {
  const srv = await startRawStdio();
  cleanups.push(() => srv.close());
  const relay = spawnRelay(srv);
  await srv.connected;
  return { srv, relay };
}

function spawnRelay(srv: RawStdioServer): Spawned {
  const child = spawn(srv.target.command, srv.target.args, { stdio: "pipe" });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exit.catch(() => {});
  });
  const chunks: string[] = [];
  let err = "";
  const watchers = new Set<() => void>();
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (c: string) => {
    chunks.push(c);
    for (const w of watchers) w();
  });
  child.stderr.on("data", (c: string) => (err += c));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const stdout = () => {
    // Collapse to one string lazily: big payloads arrive in many chunks.
    if (chunks.length > 1) chunks.splice(0, chunks.length, chunks.join(""));
    return chunks[0] ?? "";
  };
  const waitStdout = (pred: (text: string) => boolean, what: string) =>
    withTimeout(
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const text = stdout();
          if (pred(text)) {
            watchers.delete(check);
            resolve(text);
          }
        };
        watchers.add(check);
        void exit.then(() => {
          check();
          if (watchers.delete(check)) reject(new Error(`relay exited before stdout had ${what}`));
        });
        check();
      }),
      20_000,
      what,
    );
  return { child, stdout, stderr: () => err, waitStdout, exit };
}

describe("raw stdio relay", () => {
  it("reports hello with the relay pid and builds the target", async () => {
    const { srv, relay } = await startRelay();
    expect(srv.pid).toBe(relay.child.pid);
    expect(srv.target.command).toBe(process.execPath);
    expect(srv.target.args[0]).toMatch(/raw-relay\.mjs$/);
  });

  it("splits client writes into raw lines and parsed messages, in order", async () => {
    const { srv, relay } = await startRelay();
    relay.child.stdin.write('{"jsonrpc":"2.0","method":"a"}\nnot json\n{"jsonrpc":"2.0",');
    relay.child.stdin.write('"method":"b"}\n{"jsonrpc":"2.0","method":"ü"}\r\n');

    expect((await srv.next()).method).toBe("a");
    expect((await srv.next()).method).toBe("b");
    expect((await srv.next()).method).toBe("ü");
    expect(srv.lines).toEqual([
      '{"jsonrpc":"2.0","method":"a"}',
      "not json",
      '{"jsonrpc":"2.0","method":"b"}',
      '{"jsonrpc":"2.0","method":"ü"}\r',
    ]);
    expect(srv.messages).toHaveLength(3);
  });

  it("next() returns already-received matches first and times out listing what arrived", async () => {
    const { srv, relay } = await startRelay();
    relay.child.stdin.write('{"id":1,"method":"x"}\n{"id":2,"method":"y"}\n');
    expect((await srv.next("y")).id).toBe(2);
    expect((await srv.next((m) => m.id === 1)).method).toBe("x");
    await expect(srv.next("never", 100)).rejects.toThrow(/timed out after 100 ms[\s\S]*"method":"y"/);
  });

  it("writes stdout in exactly the order the test issued the commands", async () => {
    const { srv, relay } = await startRelay();
    const acks = [srv.send({ n: 1 }), srv.sendRaw("partial-"), srv.sendRaw("line\n"), srv.send({ n: 2 })];
    const results = await Promise.all(acks);
    expect(results.every((a) => a.ok)).toBe(true);
    const text = await relay.waitStdout((t) => t.endsWith('{"n":2}\n'), "both messages");
    expect(text).toBe('{"n":1}\npartial-line\n{"n":2}\n');
  });

  it("answers requests through responders and leaves unanswered ones to the test", async () => {
    const { srv, relay } = await startRelay();
    srv.autoInitialize();
    srv.handle("tools/list", () => ({ error: { code: -32601, message: "nope" } }));
    srv.handle("tools/call", () => undefined);
    relay.child.stdin.write(
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18" } }) +
        "\n" +
        JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }) +
        "\n" +
        JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "t" } }) +
        "\n",
    );
    const text = await relay.waitStdout((t) => t.split("\n").length === 3, "two responses");
    const [init, list] = text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(init).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: {
          tools: {},
          resources: { subscribe: true, listChanged: true },
          prompts: {},
          logging: {},
          completions: {},
        },
        serverInfo: { name: "raw", version: "0" },
      },
    });
    expect(list).toEqual({ jsonrpc: "2.0", id: 8, error: { code: -32601, message: "nope" } });
    // Auto-answered requests are consumed; the unanswered one is next.
    const call = await srv.next();
    expect(call).toMatchObject({ id: 9, method: "tools/call", params: { name: "t" } });
    expect(srv.messages).toHaveLength(3);
  });

  it("emits a 10 MB response line generated in the relay", async () => {
    const { srv, relay } = await startRelay();
    const bytes = 10 * 1024 * 1024;
    const ack = await srv.sendBig({ id: "big", bytes });
    expect(ack.ok).toBe(true);
    const text = await relay.waitStdout((t) => t.endsWith("\n"), "the big line");
    expect(ack.bytes).toBe(text.length);
    const parsed = JSON.parse(text) as { id: string; result: { content: Array<{ type: string; text: string }> } };
    expect(parsed.id).toBe("big");
    expect(parsed.result.content[0]?.text.length).toBe(bytes);
  });

  it("emits raw non-JSON filler without newline, then continues in order", async () => {
    const { srv, relay } = await startRelay();
    const big = srv.sendBig({ bytes: 3 * 1024 * 1024 + 5, raw: true, newline: false });
    const tail = srv.sendRaw("\n{}\n");
    expect((await big).bytes).toBe(3 * 1024 * 1024 + 5);
    await tail;
    const text = await relay.waitStdout((t) => t.endsWith("{}\n"), "filler then {}");
    expect(text.length).toBe(3 * 1024 * 1024 + 5 + 4);
    expect(/^x+\n\{\}\n$/.test(text)).toBe(true);
  });

  it("writes stderr and exits with the requested code after flushing stdout", async () => {
    const { srv, relay } = await startRelay();
    await srv.stderr("something broke\n");
    void srv.sendRaw("last words\n");
    await srv.exit(3);
    expect(await relay.exit).toEqual({ code: 3, signal: null });
    expect(relay.stdout()).toBe("last words\n");
    expect(relay.stderr()).toBe("something broke\n");
    await expect(srv.stdinEnded).rejects.toThrow(/relay exited/);
  });

  it("exits 0 when stdin ends (well-behaved default)", async () => {
    const { srv, relay } = await startRelay();
    relay.child.stdin.end('{"tail":true}');
    await srv.stdinEnded;
    expect(await relay.exit).toEqual({ code: 0, signal: null });
    await srv.exited;
    expect(srv.lines).toEqual(['{"tail":true}']); // unterminated last line still recorded
  });

  it("stays alive after stdin end when asked to", async () => {
    const { srv, relay } = await startRelay();
    await srv.stayAfterStdinEnd();
    relay.child.stdin.end();
    await srv.stdinEnded;
    await srv.sendRaw("still here\n");
    await relay.waitStdout((t) => t === "still here\n", "output after stdin end");
    expect(relay.child.exitCode).toBeNull();
  });

  it("ignores SIGTERM when asked (SIGKILL still works)", async () => {
    const { srv, relay } = await startRelay();
    await srv.ignoreSigterm();
    relay.child.kill("SIGTERM");
    await withTimeout(
      (async () => {
        while (srv.signals.length === 0) await new Promise((r) => setTimeout(r, 10));
      })(),
      5000,
      "SIGTERM report",
    );
    expect(srv.signals).toEqual(["SIGTERM"]);
    relay.child.stdin.end();
    await srv.stdinEnded;
    // Still alive and scriptable after SIGTERM and stdin end.
    expect((await srv.sendRaw("alive\n")).ok).toBe(true);
    relay.child.kill("SIGKILL");
    expect(await relay.exit).toEqual({ code: null, signal: "SIGKILL" });
    await srv.exited;
  });

  it("kills itself with a signal on command", async () => {
    const { srv, relay } = await startRelay();
    await srv.kill("SIGKILL");
    expect(await relay.exit).toEqual({ code: null, signal: "SIGKILL" });
    await srv.exited;
    // Writes after the relay is gone report failure instead of throwing.
    expect(await srv.send({})).toMatchObject({ ok: false });
  });

  it("spawns a grandchild and close() leaves neither it nor the relay running", async () => {
    const { srv, relay } = await startRelay();
    const grandchild = await srv.spawnGrandchild();
    expect(grandchild).not.toBe(relay.child.pid);
    expect(isProcessAlive(grandchild)).toBe(true);
    await srv.close();
    await srv.close(); // idempotent
    expect(isProcessAlive(grandchild)).toBe(false);
    await relay.exit;
    await expect(srv.next(undefined, 50)).rejects.toThrow(/helper closed/);
  });

  it("close() kills a grandchild left behind by a SIGKILLed relay", async () => {
    const { srv, relay } = await startRelay();
    const grandchild = await srv.spawnGrandchild();
    relay.child.kill("SIGKILL");
    await relay.exit;
    await srv.exited;
    expect(isProcessAlive(grandchild)).toBe(true); // orphaned, still running
    await srv.close();
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it("close() before any relay connected settles everything", async () => {
    const srv = await startRawStdio();
    await srv.close();
    await expect(srv.connected).rejects.toThrow(/closed/);
    await srv.exited;
    expect(await srv.send({})).toMatchObject({ ok: false });
  });
});

// ---------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------

async function startHttp(options: Parameters<typeof startRawHttp>[0] = {}): Promise<RawHttpServer> {
  const srv = await startRawHttp(options);
  cleanups.push(() => srv.close());
  return srv;
}

function post(srv: RawHttpServer, body: unknown, session?: string): Promise<Response> {
  return fetch(srv.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify(body),
  });
}

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
});

describe("raw http server", () => {
  it("initializes with a session id and echoes the requested version", async () => {
    const srv = await startHttp();
    const res = await post(srv, initialize(1));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("mcp-session-id")).toBe("s-1");
    expect(await res.json()).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18", serverInfo: { name: "raw" } } });
    const recorded = await srv.nextRequest("initialize");
    expect(recorded.headers["content-type"]).toBe("application/json");
    expect(recorded.json).toMatchObject({ method: "initialize" });
  });

  it("honours options.protocolVersion and session: false", async () => {
    const srv = await startHttp({ protocolVersion: "2024-11-05", session: false });
    const res = await post(srv, initialize(1));
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(await res.json()).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
    expect((await post(srv, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  });

  it("enforces sessions: 202 for notifications, 400 without id, 404 for unknown id", async () => {
    const srv = await startHttp();
    await (await post(srv, initialize(1))).text();
    const note = { jsonrpc: "2.0", method: "notifications/initialized" };
    const ok = await post(srv, note, "s-1");
    expect(ok.status).toBe(202);
    expect(await ok.text()).toBe("");
    expect((await post(srv, note)).status).toBe(400);
    expect((await post(srv, note, "s-9")).status).toBe(404);
  });

  it("answers through responders as JSON, as SSE on request, and errors", async () => {
    const srv = await startHttp();
    srv.handle("tools/list", () => ({ tools: [] }));
    srv.handle("tools/call", () =>
      viaSse({ content: [] }, { before: [{ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }] }),
    );
    srv.handle("prompts/get", () => ({ error: { code: -32602, message: "bad" } }));
    await (await post(srv, initialize(1))).text();

    const list = await post(srv, { jsonrpc: "2.0", id: 2, method: "tools/list" }, "s-1");
    expect(await list.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { tools: [] } });

    const call = await post(srv, { jsonrpc: "2.0", id: 3, method: "tools/call" }, "s-1");
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    expect(await call.text()).toBe(
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n' +
        'data: {"jsonrpc":"2.0","id":3,"result":{"content":[]}}\n\n',
    );

    const err = await post(srv, { jsonrpc: "2.0", id: 4, method: "prompts/get" }, "s-1");
    expect(await err.json()).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32602, message: "bad" } });
  });

  it("uses SSE with event ids when options.sse and options.eventIds are set", async () => {
    const srv = await startHttp({ sse: true, eventIds: true });
    const res = await post(srv, initialize(1));
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("mcp-session-id")).toBe("s-1");
    const text = await res.text();
    expect(text).toMatch(/^id: 1\ndata: \{"jsonrpc":"2.0","id":1,"result":\{.*\}\}\n\n$/);
  });

  it("parks unanswered requests for the test to stream and answer by hand", async () => {
    const srv = await startHttp();
    await (await post(srv, initialize(1))).text();
    const response = post(srv, { jsonrpc: "2.0", id: "c", method: "tools/call" }, "s-1");
    const pending = await srv.nextPending("tools/call");
    expect(srv.pendingResponses).toHaveLength(1);
    pending.write({ jsonrpc: "2.0", method: "notifications/progress" }, { id: "e1" });
    pending.respond({ content: [{ type: "text", text: "done" }] });
    const text = await (await response).text();
    expect(text).toBe(
      'id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n' +
        'data: {"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"done"}]}}\n\n',
    );
    await pending.closed;
    expect(srv.pendingResponses).toHaveLength(0);
  });

  it("expires a session once with an empty 404 and mints a new id on re-initialize", async () => {
    const srv = await startHttp();
    await (await post(srv, initialize(1))).text();
    srv.handle("ping", () => ({}));
    srv.expireSession();
    const gone = await post(srv, { jsonrpc: "2.0", id: 2, method: "ping" }, "s-1");
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("");
    const again = await post(srv, initialize(3));
    expect(again.headers.get("mcp-session-id")).toBe("s-2");
    await again.text();
    expect(srv.sessionId).toBe("s-2");
    expect((await post(srv, { jsonrpc: "2.0", id: 4, method: "ping" }, "s-2")).status).toBe(200);
  });

  it("serves GET 405 by default, DELETE 200, and records both", async () => {
    const srv = await startHttp();
    await (await post(srv, initialize(1))).text();
    const get = await fetch(srv.url, { headers: { accept: "text/event-stream", "mcp-session-id": "s-1" } });
    expect(get.status).toBe(405);
    const del = await fetch(srv.url, { method: "DELETE", headers: { "mcp-session-id": "s-1" } });
    expect(del.status).toBe(200);
    expect((await srv.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-1");
    expect(srv.requests.map((r) => r.method)).toEqual(["POST", "GET", "DELETE"]);
  });

  it("streams server messages on an opened GET stream", async () => {
    const srv = await startHttp({ getStream: true, session: false });
    const res = await fetch(srv.url, { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    await srv.nextGetStream();
    expect(srv.pushGet({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, { id: "7" })).toBe(1);
    if (!res.body) throw new Error("GET stream has no body");
    const reader = res.body.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe(
      'id: 7\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n',
    );
    await srv.close(); // destroys the open stream
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();
  });

  it("tries routes most recent first and lets NEXT fall through", async () => {
    const srv = await startHttp({ session: false });
    const seen: string[] = [];
    srv.route((_req, res) => {
      seen.push("older");
      res.writeHead(418).end();
    });
    srv.route(() => {
      seen.push("newer");
      return NEXT;
    });
    expect((await post(srv, initialize(1))).status).toBe(418);
    expect(seen).toEqual(["newer", "older"]);
  });

  it("frames SSE fields, multi-line data and comments", () => {
    expect(formatSse({ comment: "hi", id: "1", event: "message", retry: 50, data: "a\nb" })).toBe(
      ": hi\nid: 1\nevent: message\nretry: 50\ndata: a\ndata: b\n\n",
    );
    expect(formatSse({ data: { x: 1 } })).toBe('data: {"x":1}\n\n');
  });

  it("close() destroys open sockets so parked requests fail", async () => {
    const srv = await startHttp({ session: false });
    const response = post(srv, { jsonrpc: "2.0", id: 1, method: "tools/call" });
    await srv.nextPending();
    await srv.close();
    await expect(response).rejects.toThrow();
    await expect(srv.nextRequest("nothing", 50)).rejects.toThrow(/server closed/);
  });
});
