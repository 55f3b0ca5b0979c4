// The exchange that authorizes requests: the token goes to the resource's origin alone, and a
// server that refuses every token ends a request after a few rounds.
import { describe, expect, it } from "vitest";
import { authorizingExchange, type Authorizer } from "../../src/transport/http-authorizer.js";
import type { Exchange, ExchangeRequest, ExchangeResponse } from "../../src/transport/http-exchange.js";

function answering(status: number, seen: ExchangeRequest[]): Exchange {
  return {
    send: (request) => {
      seen.push(request);
      const response: ExchangeResponse = { status, header: () => undefined, consume: () => Promise.resolve(), discard: () => {} };
      return Promise.resolve(response);
    },
  };
}

const authorizer = (challenges: { count: number }): Authorizer => ({
  authorize: () => Promise.resolve({ authorization: "Bearer t" }),
  challenged: () => (challenges.count++, Promise.resolve(true)),
  accepted: () => {},
  close: () => {},
});

describe("authorizingExchange", () => {
  it("adds the authorization to requests to the resource's origin only", async () => {
    const seen: ExchangeRequest[] = [];
    const exchange = authorizingExchange(answering(200, seen), "https://mcp.example.com", authorizer({ count: 0 }));
    await exchange.send({ method: "POST", url: new URL("https://mcp.example.com/mcp"), headers: {} });
    await exchange.send({ method: "POST", url: new URL("https://elsewhere.example.com/mcp"), headers: {} });
    expect(seen.map((r) => r.extra?.authorization)).toEqual(["Bearer t", undefined]);
  });

  it("lets a 401 stand after a few rounds, however often the authorizer says to try again", async () => {
    const seen: ExchangeRequest[] = [];
    const challenges = { count: 0 };
    const exchange = authorizingExchange(answering(401, seen), "https://mcp.example.com", authorizer(challenges));
    const response = await exchange.send({ method: "POST", url: new URL("https://mcp.example.com/mcp"), headers: {} });
    expect(response.status).toBe(401);
    expect(challenges.count).toBe(4);
    expect(seen).toHaveLength(5);
  });
});
