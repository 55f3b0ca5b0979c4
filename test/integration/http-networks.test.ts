// The networks people work in (issue 25), on Node's backend: a company proxy (a loopback CONNECT
// proxy that counts its tunnels and checks its credentials), a server whose certificate a private
// CA signed (test/fixtures/tls/, a TLS front of the official server), and a local server behind
// a Unix domain socket (server-everything's HTTP mode, reached through a socket that forwards to
// it). Every server is a real process, every hop a real socket.
import { once } from "node:events";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { connect as netConnect, createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientError } from "../../src/node.js";
import { bypasses, proxyFromEnvironment } from "../../src/node/http-route.js";
import { everythingHttp, officialHttp, type HttpServerProcess } from "../helpers/official.js";

const run = promisify(execFile);
const TLS = (name: string): string => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url), "utf8");

interface Proxy {
  url: string;
  tunnels: string[];
  auth: (string | undefined)[];
  close(): Promise<void>;
}

/** A CONNECT proxy on loopback: each tunnel it opens is counted, with the credentials it was given. */
async function connectProxy(options: { require?: string } = {}): Promise<Proxy> {
  const tunnels: string[] = [];
  const auth: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const server: HttpServer = createHttpServer((_request, response) => response.writeHead(405).end());
  server.on("connect", (request, client: Socket, head: Buffer) => {
    sockets.add(client);
    const given = request.headers["proxy-authorization"];
    auth.push(given);
    if (options.require !== undefined && given !== `Basic ${Buffer.from(options.require).toString("base64")}`) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n");
      return;
    }
    tunnels.push(request.url ?? "");
    const [host, port] = (request.url ?? "").split(/:(?=\d+$)/);
    const upstream = netConnect(Number(port), host ?? "", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    auth,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Forwards every connection to `port` on loopback: a TLS front (with `tls`) or a Unix socket's. */
async function forwarder(listen: (server: NetServer) => void, port: number, tls?: { key: string; cert: string }): Promise<{ server: NetServer; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const onSocket = (socket: Socket): void => {
    const upstream = netConnect(port, "127.0.0.1");
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  };
  const server = tls === undefined ? createNetServer(onSocket) : createTlsServer(tls, onSocket);
  server.on("tlsClientError", () => undefined);
  listen(server);
  await once(server, "listening");
  return {
    server,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let official: HttpServerProcess;
let officialPort: number;

beforeAll(async () => {
  official = await officialHttp("legacy");
  officialPort = Number(new URL(official.url).port);
});

afterAll(async () => {
  await official.close();
});

async function echoThrough(client: Client, id: string, target: Parameters<Client["connect"]>[1]): Promise<unknown> {
  const server = await client.connect(id, target);
  const result = await server.callTool("echo", { text: id });
  return result.content;
}

describe("an HTTP proxy", () => {
  it("tunnels every request of a target that names it, with the proxy's credentials sent to the proxy alone", async () => {
    const proxy = await connectProxy({ require: "me:s3cret word" });
    const client = new Client({ name: "behind-proxy", version: "1.0.0" });
    try {
      const proxied = `http://me:${encodeURIComponent("s3cret word")}@${proxy.url.slice("http://".length)}`;
      expect(await echoThrough(client, "proxied", { url: official.url, proxy: proxied })).toEqual([{ type: "text", text: "proxied" }]);
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(new Set(proxy.tunnels)).toEqual(new Set([`127.0.0.1:${officialPort}`]));
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it("follows HTTP_PROXY and NO_PROXY as the environment says when the client is made, and proxy: false goes direct", async () => {
    const proxy = await connectProxy();
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = proxy.url;
    delete process.env.NO_PROXY;
    const viaEnvironment = new Client({ name: "env-proxy", version: "1.0.0" });
    process.env.NO_PROXY = "localhost,127.0.0.1";
    const bypassing = new Client({ name: "no-proxy", version: "1.0.0" });
    try {
      await echoThrough(viaEnvironment, "env", { url: official.url });
      const afterEnv = proxy.tunnels.length;
      expect(afterEnv).toBeGreaterThan(0);
      await echoThrough(bypassing, "bypassed", { url: official.url });
      await echoThrough(viaEnvironment, "direct", { url: official.url, proxy: false });
      expect(proxy.tunnels.length).toBe(afterEnv);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await viaEnvironment.close();
      await bypassing.close();
      await proxy.close();
    }
  });

  it("fails with a transport error naming the proxy's origin, never its password, when it refuses or is not there", async () => {
    const proxy = await connectProxy({ require: "me:right" });
    const client = new Client({ name: "refused", version: "1.0.0" });
    try {
      const refused = await client.connect("refused", { url: official.url, proxy: `http://me:wrong-pass@${proxy.url.slice(7)}` }, { probeTimeout: 2_000 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ClientError);
      expect(JSON.stringify({ message: (refused as Error).message, cause: String((refused as Error).cause) })).not.toContain("wrong-pass");
      expect((refused as Error).message).toMatch(/407|proxy/);
      await proxy.close();
      const gone = await client.connect("gone", { url: official.url, proxy: `http://me:wrong-pass@${proxy.url.slice(7)}` }).catch((error: unknown) => error);
      expect(gone).toMatchObject({ kind: "transport" });
      expect(`${(gone as Error).message} ${String((gone as Error).cause)}`).not.toContain("wrong-pass");
    } finally {
      await client.close();
    }
  });

  it("reads NO_PROXY the usual way", () => {
    const url = (text: string): URL => new URL(text);
    expect(bypasses(url("https://api.example.com/mcp"), "example.com")).toBe(true);
    expect(bypasses(url("https://api.example.com/mcp"), ".example.com")).toBe(true);
    expect(bypasses(url("https://example.com/mcp"), "*.example.com")).toBe(true);
    expect(bypasses(url("https://notexample.com/mcp"), "example.com")).toBe(false);
    expect(bypasses(url("http://10.0.0.1:8080/mcp"), "10.0.0.1:8080")).toBe(true);
    expect(bypasses(url("http://10.0.0.1:9090/mcp"), "10.0.0.1:8080")).toBe(false);
    expect(bypasses(url("http://[::1]:3000/mcp"), "[::1]")).toBe(true);
    expect(bypasses(url("https://anything.test/"), "*")).toBe(true);
    expect(bypasses(url("https://API.Example.COM/"), " foo.org , EXAMPLE.com ")).toBe(true);
    expect(proxyFromEnvironment(url("https://a.test/"), { HTTPS_PROXY: "http://p:1", https_proxy: "http://lower:2" })).toBe("http://lower:2");
    expect(proxyFromEnvironment(url("http://a.test/"), { HTTPS_PROXY: "http://p:1" })).toBeUndefined();
    expect(proxyFromEnvironment(url("https://a.test/"), { HTTPS_PROXY: "http://p:1", NO_PROXY: "a.test" })).toBeUndefined();
  });
});

describe("a server with a certificate of a private CA", () => {
  it("is trusted with `ca`, refused without it, and reached through a proxy tunnel too", async () => {
    const front = await forwarder((server) => server.listen(0, "127.0.0.1"), officialPort, { key: TLS("server-key.pem"), cert: TLS("server.pem") });
    const { port } = front.server.address() as { port: number };
    const url = `https://127.0.0.1:${port}/mcp`;
    const proxy = await connectProxy();
    const client = new Client({ name: "private-ca", version: "1.0.0" });
    try {
      const untrusted = await client.connect("untrusted", { url }).catch((error: unknown) => error);
      expect(untrusted).toBeInstanceOf(ClientError);
      expect(await echoThrough(client, "trusted", { url, ca: TLS("ca.pem") })).toEqual([{ type: "text", text: "trusted" }]);
      expect(await echoThrough(client, "tunnelled", { url, ca: [TLS("ca.pem")], proxy: proxy.url })).toEqual([{ type: "text", text: "tunnelled" }]);
      expect(proxy.tunnels).toContain(`127.0.0.1:${port}`);
    } finally {
      await client.close();
      await proxy.close();
      await front.close();
    }
  });
});

describe("NODE_EXTRA_CA_CERTS", () => {
  const HOST = fileURLToPath(new URL("../fixtures/tls-host.mjs", import.meta.url));
  const CA_FILE = fileURLToPath(new URL("../fixtures/tls/ca.pem", import.meta.url));

  /** The host fixture's outcome, in a fresh process with the environment given. */
  async function hostSees(url: string, env: Record<string, string | undefined>, flag?: string): Promise<{ content?: unknown; error?: { kind: string; message: string } }> {
    const { NODE_EXTRA_CA_CERTS: _unset, ...inherited } = process.env;
    const { stdout } = await run(process.execPath, [HOST, url, ...(flag === undefined ? [] : [flag])], { env: { ...inherited, ...env } });
    return JSON.parse(stdout.trim()) as { content?: unknown; error?: { kind: string; message: string } };
  }

  it("is trusted by a host process that sets it, with no `ca` and beside a `ca` that did not sign the server", async () => {
    const front = await forwarder((server) => server.listen(0, "127.0.0.1"), officialPort, { key: TLS("server-key.pem"), cert: TLS("server.pem") });
    const { port } = front.server.address() as { port: number };
    const url = `https://127.0.0.1:${port}/mcp`;
    const echoed = [{ type: "text", text: "through the CA" }];
    try {
      expect((await hostSees(url, {})).error?.kind).toBe("transport");
      expect(await hostSees(url, { NODE_EXTRA_CA_CERTS: CA_FILE })).toEqual({ content: echoed });
      // A `ca` of its own would make Node trust that alone: the extra file is still added.
      expect((await hostSees(url, {}, "--other-ca")).error?.kind).toBe("transport");
      expect(await hostSees(url, { NODE_EXTRA_CA_CERTS: CA_FILE }, "--other-ca")).toEqual({ content: echoed });
    } finally {
      await front.close();
    }
  });
});

describe("a local server over a Unix domain socket", () => {
  it("reaches server-everything's HTTP mode through a socket path, the URL giving the path", async () => {
    if (process.platform === "win32") return;
    const everything = await everythingHttp();
    const dir = mkdtempSync(join(tmpdir(), "conduit-socket-"));
    const path = join(dir, "mcp.sock");
    const front = await forwarder((server) => server.listen(path), Number(new URL(everything.url).port));
    const client = new Client({ name: "over-socket", version: "1.0.0" });
    try {
      const server = await client.connect("everything", { url: "http://localhost/mcp", socketPath: path });
      const result = await server.callTool("echo", { message: "over a socket" });
      expect(JSON.stringify(result.content)).toContain("over a socket");
    } finally {
      await client.close();
      await front.close();
      await everything.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses proxy, ca and socketPath with a fetch of the host's own, and checks their shapes", async () => {
    const client = new Client({ name: "checks", version: "1.0.0" });
    try {
      await expect(client.connect("f", { url: official.url, socketPath: "/tmp/x.sock", fetch: (input, init) => fetch(input, init) })).rejects.toMatchObject({ kind: "usage" });
      await expect(client.connect("p", { url: official.url, proxy: "socks5://me:pw@host:1" })).rejects.toThrow(/`proxy` must be an http: or https: URL/);
      await expect(client.connect("p", { url: official.url, proxy: "socks5://me:pw@host:1" })).rejects.not.toThrow(/pw/);
      await expect(client.connect("c", { url: official.url, ca: [42] as unknown as string[] })).rejects.toThrow(/`ca` must be PEM/);
    } finally {
      await client.close();
    }
  });
});
