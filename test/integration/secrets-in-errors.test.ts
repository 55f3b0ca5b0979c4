// What errors and log entries say about a server: enough to find it, nothing that should not be
// repeated. An error page is quoted by a bounded excerpt, not whole; a URL's user name, password
// and credential-looking query values, and the arguments of a stdio command line that hold a
// secret (a value also given in `env`, a `--token=...`), are redacted.
import { describe, expect, it } from "vitest";
import { Client, ClientError } from "../../src/node.js";
import { failure, sendStatus } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { RELAY_PATH, startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** Every message of an error and its chain of causes. */
function messages(error: unknown): string[] {
  const found: string[] = [];
  for (let e = error; e instanceof Error && found.length < 10; e = e.cause) found.push(e.message);
  return found;
}

/** How many characters of `page`, from its start, `message` quotes. */
function quotedLength(message: string, page: string): number {
  const at = message.indexOf(page.slice(0, 20));
  if (at === -1) return 0;
  let n = 0;
  while (n < page.length && message[at + n] === page[n]) n += 1;
  return n;
}

describe("an HTTP error page", () => {
  it.each(["node:http", "fetch"])("is quoted by at most a bounded excerpt, in the error and in its cause (%s)", async (backend) => {
    const srv = track(await startRawHttp());
    // About 40 kB: big, yet small enough to be read whole for the JSON-RPC error it might hold.
    const page = `<!doctype html><html><body>${"<p>Not here, and a long story about it.</p>\n".repeat(900)}</body></html>`;
    srv.route((_req, res) => sendStatus(res, 404, "text/html", page));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await failure(client.connect("web", { url: srv.url, ...(backend === "fetch" ? { fetch: globalThis.fetch } : {}) }));
    const said = messages(error);
    expect(said.length).toBeGreaterThan(0);
    for (const message of said) expect(quotedLength(message, page)).toBeLessThanOrEqual(300);
    // Nor is the page kept anywhere in the error: every string of it and of its causes is short.
    const strings: string[] = [];
    for (let at: unknown = error; typeof at === "object" && at !== null; at = (at as { cause?: unknown }).cause) {
      for (const value of Object.values(at)) if (typeof value === "string") strings.push(value);
    }
    expect(strings.length).toBeGreaterThan(0);
    for (const text of strings) expect(text.length).toBeLessThan(1000);
  });
});

describe("a URL with credentials in it", () => {
  it("is redacted in error messages and log entries", async () => {
    const srv = track(await startRawHttp());
    srv.route((_req, res) => sendStatus(res, 500, "text/plain", "internal trouble"));
    const url = new URL(srv.url);
    url.username = "ada";
    url.password = "pw-hunter2";
    url.search = "?token=tok-SECRET-1&key=key-SECRET-2&region=eu";
    const logger = capturingLogger();
    const client = track(new Client({ name: "h", version: "0", logger }));
    const error = await failure(client.connect("web", { url: url.href }));
    const said = JSON.stringify(messages(error)) + JSON.stringify(logger.entries);
    expect(error.message).toContain(url.host);
    for (const secret of ["pw-hunter2", "tok-SECRET-1", "key-SECRET-2"]) expect(said).not.toContain(secret);
  });
});

describe("a stdio command line with secrets in its arguments", () => {
  it("is redacted in error messages and log entries", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const logger = capturingLogger();
    const client = track(new Client({ name: "h", version: "0", logger }));
    const port = raw.target.args.at(-1)!;
    // The relay reads only its first argument; the rest ride along as a server's flags would.
    const target = {
      command: process.execPath,
      args: [RELAY_PATH, port, "--token=tok-ARG-SECRET", "env-SECRET-value-1234"],
      env: { API_KEY: "env-SECRET-value-1234" },
    };
    const server = await client.connect("s", target);
    await raw.exit(3);
    const ended = await server.closed;
    expect(ended).toBeInstanceOf(ClientError);
    expect(ended!.message).toContain("code 3");
    const said = JSON.stringify(messages(ended)) + JSON.stringify(logger.entries);
    for (const secret of ["tok-ARG-SECRET", "env-SECRET-value-1234"]) expect(said).not.toContain(secret);
  });
});
