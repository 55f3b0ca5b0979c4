// The list_changed storm of the HTTP protocol-abuse battery, over each way a server tells of
// list changes: the legacy GET stream, a 2026-07-28 `subscriptions/listen` stream (which the
// catalog opens itself), and the one stream of HTTP+SSE. The Handler's hook holds, so that what
// reaches the hooks is the one running and the queue's bound.
import { expect, vi } from "vitest";
import { Client, type Handler, type ServerHandle } from "../../src/node.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { deferred } from "../helpers/raw-stdio.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { oldHttp, streamable, syncGet, syncOld } from "./protocol-abuse-http-setup.js";

export const STORM = 10_000;
export const QUEUED = 1000; // maxQueuedNotifications' default
const oneTool = { tools: [{ name: "t", inputSchema: { type: "object" } }] };
const changed = (meta?: Record<string, unknown>): string =>
  `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed", ...(meta === undefined ? {} : { params: { _meta: meta } }) })}\n\n`;

export interface Hooks {
  handler: Handler;
  /** List changes the hook was called with. */
  seen: () => number;
  release: () => void;
}

/** A Handler whose notification hook holds until released, counting what it saw. */
export function hooks(): Hooks {
  let seen = 0;
  const released = deferred<void>();
  const handler: Handler = {
    handleNotification: async (method) => {
      if (method === "notifications/tools/list_changed") seen += 1;
      await released.promise;
    },
  };
  return { handler, seen: () => seen, release: () => released.resolve() };
}

export interface Storm {
  client: Client;
  server: ServerHandle;
  /** Sends `n` list changes and resolves once the client read them. */
  storm: (n: number) => Promise<void>;
  listings: () => number;
}

export async function legacyStorm({ handler }: Hooks): Promise<Storm> {
  const { raw, client, server, stream } = await streamable({ handler });
  let listings = 0;
  raw.handle("tools/list", () => ((listings += 1), oneTool));
  return {
    client,
    server,
    storm: async (n) => {
      stream.write(changed().repeat(n));
      await syncGet(raw, stream);
    },
    listings: () => listings,
  };
}

/** 2026-07-28: the catalog asks for list changes with `subscriptions/listen`, whose stream carries them. */
export async function modernStorm({ handler, seen }: Hooks): Promise<Storm> {
  const raw = track(await startRawHttp({ session: false }));
  raw.handle("server/discover", () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: { listChanged: true } } }));
  let listings = 0;
  raw.handle("tools/list", () => ((listings += 1), { ...oneTool, ttlMs: 60_000 }));
  const client = track(new Client({ name: "h", version: "0", logger: capturingLogger(), handler }));
  const server = await client.connect("modern", { url: raw.url });
  const listening = raw.nextPending("subscriptions/listen");
  let sent = 0;
  return {
    client,
    server,
    // A modern stream has no round trip: what the hook saw, then what was dropped, shows it was read.
    storm: async (n) => {
      const listen = await listening;
      const tag = { "io.modelcontextprotocol/subscriptionId": listen.id };
      if (sent === 0) listen.write({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: tag } });
      listen.res.write(changed(tag).repeat(n));
      sent += n;
      const dropped = Math.max(0, sent - 1 - QUEUED);
      await vi.waitFor(() => expect([seen(), client.droppedNotifications]).toEqual([1, dropped]));
    },
    listings: () => listings,
  };
}

export async function oldStorm({ handler }: Hooks): Promise<Storm> {
  const { raw, client, server } = await oldHttp({ handler });
  let listings = 0;
  raw.handle("tools/list", () => ((listings += 1), oneTool));
  return {
    client,
    server,
    storm: async (n) => {
      raw.sendRaw(changed().repeat(n));
      await syncOld(raw);
    },
    listings: () => listings,
  };
}
