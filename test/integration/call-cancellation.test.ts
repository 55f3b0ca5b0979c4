// A call cancelled while its first event-stream reply is being opened (the response's headers
// have arrived, its body has not been read) settles with "cancelled" and leaves nothing behind:
// the server sees the stream go, and a close that follows resolves.
//
// The cancel has to land in that narrow window. With an injected fetch, the test's own fetch
// aborts the call right as the headers arrive. With node:http, the test listens on Node's own
// `http.client.response.finish` diagnostics channel, which fires as the headers are parsed,
// before the client's listener runs: real sockets, the client's code untouched.
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { Client, type HttpTarget } from "../../src/node.js";
import { onMethod } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp, startSse } from "../helpers/raw-http.js";
import { deferred, withTimeout } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const BACKENDS = ["node:http", "fetch"] as const;

describe.each(BACKENDS)("a call cancelled as its event-stream reply opens, over %s", (backend) => {
  it("settles with cancelled, its stream is let go, and close() resolves", async () => {
    const srv = track(await startRawHttp());
    const streamClosed = deferred<void>();
    srv.route(
      onMethod("tools/call", (_req, res) => {
        // Headers only: the body never comes.
        startSse(res);
        res.once("close", () => streamClosed.resolve());
      }),
    );
    const controller = new AbortController();
    let armed = false;
    const cancelOnHeaders = (contentType: string | null | undefined): void => {
      if (!armed || !String(contentType).startsWith("text/event-stream")) return;
      armed = false;
      controller.abort(new Error("the user gave up"));
    };
    const target: HttpTarget = { url: srv.url };
    if (backend === "fetch") {
      target.fetch = async (input, init) => {
        const response = await fetch(input, init);
        cancelOnHeaders(response.headers.get("content-type"));
        return response;
      };
    } else {
      const onResponse = (message: unknown): void => cancelOnHeaders((message as { response: IncomingMessage }).response.headers["content-type"]);
      diagnostics.subscribe("http.client.response.finish", onResponse);
      track({ close: () => Promise.resolve(void diagnostics.unsubscribe("http.client.response.finish", onResponse)) });
    }
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("web", target);
    armed = true;
    const outcome = await server.callTool("slow", {}, { signal: controller.signal }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    expect(armed).toBe(false);
    expect(outcome).toMatchObject({ kind: "cancelled" });
    await withTimeout(streamClosed.promise, 5000, "the server to see the stream go");
    await withTimeout(server.close(), 5000, "close() after the cancelled call");
    expect(server.state).toBe("closed");
  });
});
