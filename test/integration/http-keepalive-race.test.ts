// The keep-alive race over Streamable HTTP, with restarts on: a server that destroys a pooled
// socket at the moment the client reuses it (on the request's headers, before its body is read).
// A reset socket is not a dead server: the request that met it fails alone with the reason (or,
// when it was still being written and so cannot have been read whole, is sent again once on a
// socket of its own), the connection stays ready, the other calls in flight complete, and
// nothing is executed twice. Before, the first reset ended the connection: every call in flight
// failed with it and the server was restarted.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { Client, ClientError, type ServerHandle, type ServerStateChange } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { NEXT, startRawHttp, type JsonObject, type RawHttpServer } from "../helpers/raw-http.js";

/**
 * A body far larger than what the loopback's kernel buffers take in (some 4 MiB here): when the
 * server destroys the socket on the request's headers, most of it is still in the client's hands.
 */
const UNFINISHED = "x".repeat(16 * 1024 * 1024);

interface Race {
  raw: RawHttpServer;
  /** While true, a request that arrives on a socket which carried one before is killed. */
  armed: boolean;
  /** Requests killed as they arrived. */
  kills: number;
  /** Requests on a socket of their own (`Connection: close`): the client sent them again. */
  resent: number;
  /** How many times the server ran each `echo` call, by its `n`. */
  executions: Map<number, number>;
}

async function raceServer(): Promise<Race> {
  const raw = track(await startRawHttp());
  const race: Race = { raw, armed: false, kills: 0, resent: 0, executions: new Map() };
  const carried = new WeakMap<Socket, number>();
  const killed = new WeakSet<IncomingMessage>();
  raw.httpServer.prependListener("request", (req: IncomingMessage) => {
    const before = carried.get(req.socket) ?? 0;
    carried.set(req.socket, before + 1);
    if (req.headers.connection === "close") race.resent += 1;
    if (!race.armed || before === 0) return;
    race.kills += 1;
    killed.add(req);
    req.socket.destroy();
  });
  // A killed request is never run: the scripted server still sees it arrive (with what came).
  raw.route((_req, res) => (killed.has(res.req) ? undefined : NEXT));
  raw.handle("tools/call", (message) => {
    const params = message.params as { name: string; arguments: { n: number } };
    if (params.name === "hold") return undefined;
    const n = params.arguments.n;
    race.executions.set(n, (race.executions.get(n) ?? 0) + 1);
    return { content: [{ type: "text", text: String(n) }] };
  });
  raw.handle("ping", () => ({}));
  return race;
}

function states(client: Client): ServerStateChange["state"][] {
  const seen: ServerStateChange["state"][] = [];
  client.onServerState((change) => void seen.push(change.state));
  return seen;
}

/** Connects with restarts on and waits until the handshake's requests are over. */
async function connect(race: Race, target: Parameters<Client["connect"]>[1]): Promise<{ client: Client; server: ServerHandle; seen: ServerStateChange["state"][] }> {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
  const seen = states(client);
  const server = await client.connect("web", target, { restart: { backoff: { initial: 20, max: 100 } } });
  await race.raw.nextRequest("notifications/initialized");
  await server.ping();
  return { client, server, seen };
}

type Outcome = { n: number; big: boolean; ok: true } | { n: number; big: boolean; ok: false; error: unknown };

function call(server: ServerHandle, n: number, big: boolean): Promise<Outcome> {
  const args: JsonObject = big ? { n, pad: UNFINISHED } : { n };
  return server.callTool("echo", args).then(
    (result) => {
      expect(result.content).toEqual([{ type: "text", text: String(n) }]);
      return { n, big, ok: true };
    },
    (error: unknown) => ({ n, big, ok: false, error }),
  );
}

describe("a pooled socket the server destroys as the client reuses it", () => {
  it("fails only the request that met it, sends again one that cannot have been read, and keeps the connection and the other calls", async () => {
    const race = await raceServer();
    const { server, seen } = await connect(race, { url: race.raw.url });
    // A call in flight all along, its POST waiting for its answer on a socket of its own.
    const held = server.callTool("hold", {}).then(
      (result) => result,
      (error: unknown) => error,
    );
    const parked = await race.raw.nextPending((m) => (m.params as { name?: unknown } | undefined)?.name === "hold");
    race.armed = true;

    const outcomes: Outcome[] = [];
    // One after another: a call after a failed one is on a new socket, after an answered one on
    // its pooled socket; so small and large calls each meet the race.
    const order = [false, true, true, false, false];
    for (const [i, big] of order.entries()) outcomes.push(await call(server, i, big));
    // All at once, twice: the first batch on what the pool holds and new sockets, the second
    // on the first's sockets.
    for (const base of [100, 200]) {
      outcomes.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => call(server, base + i, base === 200 && i === 3)))));
    }

    parked.respond({ content: [{ type: "text", text: "held" }] });
    expect(await held).toEqual({ content: [{ type: "text", text: "held" }] });
    race.armed = false;
    await server.ping();

    const failed = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    for (const { error } of failed) {
      expect(error).toBeInstanceOf(ClientError);
      expect(error).toMatchObject({ kind: "transport", serverId: "web", message: expect.stringMatching(/\((the connection was reset, ECONNRESET|broken pipe, EPIPE)\)$/) });
    }
    // A call still being written when its socket broke went again and was answered.
    expect(outcomes.filter((o) => o.big && !o.ok)).toEqual([]);
    // The race was met, by calls of both kinds.
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(race.resent).toBeGreaterThanOrEqual(1);
    expect(race.kills).toBe(failed.length + race.resent);
    // Nothing ran twice; what succeeded ran once, what failed never did.
    for (const o of outcomes) expect(race.executions.get(o.n) ?? 0, `call ${o.n}`).toBe(o.ok ? 1 : 0);

    expect(server.state).toBe("ready");
    expect(seen).not.toContain("restarting");
  });

  it("with an injected fetch, fails only the request that met it, and sends nothing again", async () => {
    const race = await raceServer();
    const { server, seen } = await connect(race, { url: race.raw.url, fetch: globalThis.fetch });
    // A call in flight all along, its POST waiting for its answer on a socket of its own.
    const held = server.callTool("hold", {}).then(
      (result) => result,
      (error: unknown) => error,
    );
    const parked = await race.raw.nextPending((m) => (m.params as { name?: unknown } | undefined)?.name === "hold");
    race.armed = true;

    // Which request undici puts on a pooled socket is its own choice: call until two met the race.
    const outcomes: Outcome[] = [];
    for (let n = 0; outcomes.filter((o) => !o.ok).length < 2 && n < 40; n++) outcomes.push(await call(server, n, n % 4 === 3));
    const failed = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    expect(failed).toHaveLength(2);
    for (const { error } of failed) {
      expect(error).toMatchObject({ kind: "transport", serverId: "web", message: expect.stringMatching(/\((the server closed the connection, UND_ERR_SOCKET|the connection was reset, ECONNRESET)\)$/) });
    }

    parked.respond({ content: [{ type: "text", text: "held" }] });
    expect(await held).toEqual({ content: [{ type: "text", text: "held" }] });
    race.armed = false;
    await server.ping();
    expect(race.resent).toBe(0);
    expect(race.kills).toBe(failed.length);
    for (const o of outcomes) expect(race.executions.get(o.n) ?? 0, `call ${o.n}`).toBe(o.ok ? 1 : 0);
    expect(server.state).toBe("ready");
    expect(seen).not.toContain("restarting");
  });
});
