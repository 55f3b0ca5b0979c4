// A redirect to another origin is not followed, by either HTTP backend: the host's headers (an
// API key, say) and the request's body must not reach a server the host never named. The
// failure names the URL that redirected. Two raw servers on two ports are two origins.
import { describe, expect, it } from "vitest";
import { Client, type HttpTarget } from "../../src/node.js";
import { failure, onMethod } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";

const BACKENDS = ["fetch", "node:http"] as const;

describe.each(BACKENDS)("a 307 to another origin, over %s", (backend) => {
  function target(url: string): HttpTarget {
    return { url, headers: { "x-api-key": "key-for-the-first-origin" }, ...(backend === "fetch" ? { fetch: globalThis.fetch } : {}) };
  }

  it("is not followed while connecting", async () => {
    const elsewhere = track(await startRawHttp());
    const redirecting = track(await startRawHttp());
    redirecting.route((_req, res) => {
      res.writeHead(307, { location: elsewhere.url }).end();
    });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await failure(client.connect("r", target(redirecting.url)));
    expect(error.message).toContain(redirecting.url);
    expect(elsewhere.requests).toEqual([]);
  });

  it("is not followed by a call", async () => {
    const elsewhere = track(await startRawHttp());
    const redirecting = track(await startRawHttp());
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("r", target(redirecting.url));
    redirecting.route(onMethod("tools/call", (_req, res) => res.writeHead(307, { location: elsewhere.url }).end()));
    const error = await failure(server.callTool("transfer", { amount: 100 }));
    expect(error.message).toContain(redirecting.url);
    expect(elsewhere.requests).toEqual([]);
  });
});
