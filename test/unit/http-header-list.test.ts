import { describe, expect, it } from "vitest";
import { headerList } from "../../src/node/http-agents.js";

const url = new URL("http://127.0.0.1:8123/mcp");

describe("headerList", () => {
  it("carries the URL's host, the shared headers, this request's own and the body's length", () => {
    const headers = Object.freeze({ accept: "application/json", "mcp-protocol-version": "2026-07-28" });
    const list = headerList({ method: "POST", url, headers, extra: { "mcp-method": "tools/call" }, body: "{\"é\":1}" });
    expect(list).toEqual(["host", "127.0.0.1:8123", "accept", "application/json", "mcp-protocol-version", "2026-07-28", "mcp-method", "tools/call", "content-length", "8"]);
  });

  it("reuses the shared part without letting one request's headers reach the next", () => {
    const headers = Object.freeze({ accept: "text/event-stream" });
    headerList({ method: "GET", url, headers, extra: { "last-event-id": "7" } });
    expect(headerList({ method: "GET", url, headers })).toEqual(["host", "127.0.0.1:8123", "accept", "text/event-stream"]);
  });

  it("lets a request's own header replace a shared one of the same name, as a merged object did", () => {
    const headers = Object.freeze({ authorization: "Bearer old", "content-length": "1" });
    const list = headerList({ method: "POST", url, headers, extra: { authorization: "Bearer new" }, body: "abc" });
    expect(list).toEqual(["host", "127.0.0.1:8123", "authorization", "Bearer new", "content-length", "3"]);
  });

  it("carries each request's own URL's host, when one headers object goes to another URL (a redirect)", () => {
    const headers = Object.freeze({ accept: "application/json" });
    expect(headerList({ method: "POST", url, headers })).toEqual(["host", "127.0.0.1:8123", "accept", "application/json"]);
    const moved = new URL("http://[::1]:9000/elsewhere");
    expect(headerList({ method: "POST", url: moved, headers })).toEqual(["host", "[::1]:9000", "accept", "application/json"]);
    expect(headerList({ method: "POST", url, headers })).toEqual(["host", "127.0.0.1:8123", "accept", "application/json"]);
  });

  it("keeps a Host the host set itself", () => {
    const list = headerList({ method: "DELETE", url, headers: Object.freeze({ host: "proxy.example" }) });
    expect(list).toEqual(["host", "proxy.example"]);
  });
});
