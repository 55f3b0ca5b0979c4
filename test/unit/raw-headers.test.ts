import http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHeader } from "../../src/node/raw-headers.js";

// Names Node treats each its own way (kept once, cookies, set-cookie, joined), and two of the
// same length as content-type, in several cases each.
const NAMES = ["content-type", "Content-Type", "CONTENT-TYPE", "retry-after", "Location", "www-authenticate", "WWW-Authenticate", "mcp-session-id", "Set-Cookie", "cookie", "x-content-typ", "content-typex", "x-joined-twice", "Date"];
const VALUES = fc.stringMatching(/^[!-~]([ -~]{0,12}[!-~])?$/);

/** A server that answers each request with the header lines it was asked to send, as they are. */
let server: http.Server;
let url: string;
const agent = new http.Agent({ keepAlive: true });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      res.writeHead(200, JSON.parse(body) as [string, string][]);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function answered(lines: [string, string][]): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res));
    });
    req.on("error", reject);
    req.end(JSON.stringify(lines));
  });
}

/** What the transport read before: Node's `headers` object, an array `, `-joined. */
function fromHeaders(res: http.IncomingMessage, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

describe("rawHeader", () => {
  it("reads every header as Node's IncomingMessage.headers does: first kept, cookies and the rest joined, any case", async () => {
    const lines = fc.array(fc.tuple(fc.constantFrom(...NAMES), VALUES), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(lines, async (sent) => {
        const res = await answered(sent);
        for (const name of NAMES) expect(rawHeader(res.rawHeaders, name)).toBe(fromHeaders(res, name));
      }),
      { numRuns: 150 },
    );
  });

  it("is undefined for a header not sent, and ignores a list cut short", () => {
    expect(rawHeader(["Content-Type", "application/json"], "mcp-session-id")).toBeUndefined();
    expect(rawHeader(["Content-Type"], "content-type")).toBeUndefined();
    expect(rawHeader(["content-type", "text/event-stream", "Content-Type", "application/json"], "CONTENT-TYPE")).toBe("text/event-stream");
  });
});
