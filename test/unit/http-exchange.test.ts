// The node:http exchange on a real socket: a response whose ticket was cancelled before its body
// was consumed (the call was given up while its reply was being opened) still lets `consume()`
// settle, however late it is called. A consume that waits for events already past would hang
// the reader of that reply for ever.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { HttpAgents, Ticket } from "../../src/transport/http-exchange.js";
import { deferred, withTimeout } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** A server whose every reply is an event stream that sends its headers and nothing more. */
async function silentStream(): Promise<{ url: URL; requestClosed: Promise<void> }> {
  const closed = deferred<void>();
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.flushHeaders();
    req.once("close", () => closed.resolve());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  track({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), requestClosed: closed.promise };
}

describe("node:http exchange", () => {
  it("lets consume() settle on a response whose ticket was cancelled before it was consumed", async () => {
    const { url, requestClosed } = await silentStream();
    const agents = new HttpAgents();
    track({ close: () => Promise.resolve(agents.destroy()) });
    const ticket = new Ticket();
    const response = await agents.exchange.send({ method: "POST", url, headers: { "content-type": "application/json" }, body: "{}", ticket });
    expect(response.status).toBe(200);
    ticket.cancel();
    // The server saw the connection go: the client's side of it is long closed by now.
    await requestClosed;
    // Settling either way is what is asked: the reader learns the body will not come.
    const settled = response.consume(() => {}).then(
      () => true,
      () => true,
    );
    expect(await withTimeout(settled, 5000, "consume() to settle")).toBe(true);
  });
});
