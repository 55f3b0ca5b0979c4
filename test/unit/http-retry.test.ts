// sendAgain's rules that a real server cannot show deterministically: a request answered on
// another stream while its POST waited out a Retry-After is not sent again, and the count of
// retries is the message's, across every path that sends it again (the ticket carries it).
import { describe, expect, it } from "vitest";
import { CancelledExchange, Ticket, type Exchange, type ExchangeRequest, type ExchangeResponse } from "../../src/transport/http-exchange.js";
import { MAX_RETRIES, sendAgain } from "../../src/transport/http-retry.js";

function response(status: number, headers: Record<string, string> = {}): ExchangeResponse {
  const body = new TextEncoder().encode(status === 200 ? "{}" : "slow down");
  return {
    status,
    header: (name) => headers[name.toLowerCase()],
    consume: (onChunk) => {
      onChunk(body);
      return Promise.resolve();
    },
    discard: () => {},
  };
}

/** An exchange that answers with `replies` in turn, counting what was sent. */
function exchange(...replies: ExchangeResponse[]): Exchange & { sent: number } {
  const fake = {
    sent: 0,
    send: (_request: ExchangeRequest) => {
      fake.sent += 1;
      return Promise.resolve(replies.shift() ?? response(200));
    },
  };
  return fake;
}

const request = (ticket: Ticket): ExchangeRequest => ({ method: "POST", url: new URL("http://127.0.0.1:1/mcp"), headers: {}, body: "{}", ticket });

describe("sendAgain", () => {
  it("sends a 503 with Retry-After: 0 again, and returns what comes back", async () => {
    const ticket = new Ticket();
    const backend = exchange(response(200));
    expect((await sendAgain(backend, request(ticket), response(503, { "retry-after": "0" }), ticket)).status).toBe(200);
    expect(backend.sent).toBe(1);
    expect(ticket.retries).toBe(1);
  });

  it("does not send a request answered while it waited (over HTTP+SSE the answer comes on the stream)", async () => {
    const ticket = new Ticket();
    const backend = exchange(response(200));
    const retried = sendAgain(backend, request(ticket), response(503, { "retry-after": "0" }), ticket);
    ticket.answered = true;
    await expect(retried).rejects.toBeInstanceOf(CancelledExchange);
    expect(backend.sent).toBe(0);
  });

  it(`counts the retries on the ticket: a message sent again ${MAX_RETRIES} times elsewhere is not sent again`, async () => {
    const ticket = new Ticket();
    ticket.retries = MAX_RETRIES;
    const backend = exchange();
    await expect(sendAgain(backend, request(ticket), response(429, { "retry-after": "0" }), ticket)).rejects.toMatchObject({
      kind: "transport",
      message: expect.stringContaining(`the same after ${MAX_RETRIES} retries: not sent again`),
    });
    expect(backend.sent).toBe(0);
  });
});
