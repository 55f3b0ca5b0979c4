// `conduit`'s one-shot commands as a script runs them: child processes without a terminal,
// against real servers (the bundled examples, the official test server, server-everything, an
// OAuth-protected one), checking stdout, stderr and the exit code of each kind of failure.
// Runs the built command (dist/cli/bin.js): `npm test` builds first.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, OFFICIAL_SERVER, officialHttp } from "../helpers/official.js";
import { startOAuthServers, type OAuthServers } from "../helpers/oauth-server.js";

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));
const NOTES = fileURLToPath(new URL("../../examples/servers/notes-server.mjs", import.meta.url));
const RESEARCH = fileURLToPath(new URL("../../examples/servers/research-server.mjs", import.meta.url));
const node = process.execPath;

const home = mkdtempSync(join(tmpdir(), "conduit-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs conduit with no terminal, in `cwd` (default: an empty folder), HOME in a folder of its own. */
function conduit(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(node, [BIN, ...args], { cwd: options.cwd ?? home, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData"), NO_COLOR: "1", ...options.env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
    child.stdin?.end();
  });
}

const official = ["--", node, OFFICIAL_SERVER, "stdio", "--era", "legacy"];

/** This machine's own address on a network (not loopback), where it has one. */
const LAN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === "IPv4" && !address.internal)?.address;

/**
 * A test server's loopback URL reached at this machine's LAN address, as a server on the LAN
 * would be: a TCP relay on that address to the server's port.
 */
async function onLan(url: string): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on("error", () => {});
      end.on("close", () => (sockets.delete(end), socket.destroy(), upstream.destroy()));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => relay.listen(0, LAN_ADDRESS, resolve));
  const lan = new URL(url);
  lan.hostname = LAN_ADDRESS!;
  lan.port = String((relay.address() as net.AddressInfo).port);
  return {
    url: lan.href,
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), relay.close(() => resolve()))),
  };
}

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error("dist/cli/bin.js is missing: run `npm run build` (npm test does)");
});

describe("conduit one-shot", () => {
  it("prints its help with the table of exit codes", async () => {
    const { code, stdout } = await conduit(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Exit codes:/);
    for (const row of [/ 0 {2}ok/, / 1 {2}tool error/, / 2 {2}usage/, / 3 {2}unreachable/, / 4 {2}auth/, / 5 {2}protocol/, / 6 {2}timeout/, / 7 {2}refused/, / 8 {2}input needed/, / 74 {2}output/]) expect(stdout).toMatch(row);
  });

  it("names in --help example servers by paths that exist from any folder, and its first example runs", async () => {
    const { stdout } = await conduit(["--help"]);
    const paths = [...stdout.matchAll(/ -- node (\S+)/g)].map((match) => match[1]!);
    expect(paths.length).toBeGreaterThanOrEqual(2);
    for (const path of paths) expect(existsSync(path), path).toBe(true);
    const listed = await conduit(["list", "--", node, paths[0]!]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toMatch(/research/);
  });

  it("lists, calls, reads and gets a prompt, as text and as JSON", async () => {
    const listed = await conduit(["list", "--", node, NOTES]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toMatch(/add_note\s+Stores a note under a title/);
    const json = await conduit(["list", "--format", "json", "--", node, NOTES]);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["add_note", "read_note", "word_count"]);
    const called = await conduit(["call", "add_note", "title=x", "body=two words", "--", node, NOTES]);
    expect(called).toMatchObject({ code: 0, stdout: 'saved "x" (2 notes)\n' });
    const read = await conduit(["read", "notes://index", "--", node, NOTES]);
    expect(read).toMatchObject({ code: 0, stdout: "welcome\n" });
    const prompt = await conduit(["prompt", "--format", "json", "summarise", "title=welcome", "--", node, NOTES]);
    expect(prompt.code).toBe(0);
    expect(JSON.parse(prompt.stdout)).toMatchObject({ messages: [{ role: "user", content: { type: "text" } }] });
    const asText = await conduit(["prompt", "summarise", "title=welcome", "--", node, NOTES]);
    expect(asText.stdout).toMatch(/^user: Summarise: /);
    const typed = await conduit(["call", "--format", "json", "add", "a=2", "b=3", ...official]);
    expect(JSON.parse(typed.stdout)).toMatchObject({ structuredContent: { sum: 5 } });
    const asJson = await conduit(["call", "echo", '{"text": "from json"}', ...official]);
    expect(asJson.stdout).toBe("from json\n");
  });

  it("tells failures apart by exit code, and with --format json writes the error as JSON on stderr", async () => {
    expect((await conduit(["call", "fail", ...official])).code).toBe(1);
    expect((await conduit(["call", "nothing-of-that-name", ...official])).code).toBe(2);
    expect((await conduit(["call", "add", "a=two", ...official])).code).toBe(2);
    expect((await conduit(["list", "--frobnicate", ...official])).code).toBe(2);
    expect((await conduit(["list", "--", node, join(home, "no-such-server.mjs")])).code).toBe(3);
    const timedOut = await conduit(["call", "slow", "ms=20000", "--timeout", "300", ...official]);
    expect(timedOut.code).toBe(6);
    const refused = await conduit(["read", "--format", "json", "mem://nowhere", ...official]);
    expect(refused.code).toBe(7);
    expect(refused.stdout).toBe("");
    // stderr is JSON lines, the error last.
    const lines = refused.stderr.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ error: { kind: "rpc", code: -32602, exitCode: 7, serverId: "official-server" } });
    const logged = await conduit(["call", "--format", "json", "log", "count=2", "level=warning", ...official]);
    const logs = logged.stderr.trim().split("\n").map((line) => JSON.parse(line) as { log?: { level: string; data: string } });
    expect(logs.map((line) => line.log?.level)).toEqual(["warning", "warning"]);
    expect(JSON.parse(logged.stdout)).toMatchObject({ content: [{ type: "text", text: "logged 2" }] });
    const thrown = await conduit(["call", "throw", ...official]);
    expect(thrown.code).toBe(7);
    expect(thrown.stderr).toMatch(/thrown on purpose/);
  });

  it("ends with 5 when the server breaks the protocol", async () => {
    const script = `process.stdin.on("data", (chunk) => { for (const line of String(chunk).split("\\n").filter(Boolean)) { const m = JSON.parse(line); if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "bad", version: "1" } } }) + "\\n"); else if (m.method === "tools/list") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: "not a list" } }) + "\\n"); else if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no" } }) + "\\n"); } });`;
    const file = join(home, "bad-server.mjs");
    writeFileSync(file, script);
    const ran = await conduit(["list", "--", node, file]);
    expect(ran.code).toBe(5);
    expect(ran.stderr).toMatch(/tools/);
  });

  it("fails with 8 when a server asks for input and nobody is there, and takes the answers from --answers", async () => {
    const nobody = await conduit(["call", "elicit-form", ...official]);
    expect(nobody.code).toBe(8);
    expect(nobody.stderr).toMatch(/there is no terminal to ask on/);
    const answers = join(home, "answers.json");
    writeFileSync(answers, JSON.stringify({ forms: [{ action: "accept", content: { name: "Ada", age: 36 } }], urls: ["decline"], samplings: ["a typed reply"] }));
    const form = await conduit(["call", "elicit-form", "--answers", answers, ...official]);
    expect(form.code).toBe(0);
    // The library fills in the default the answer left out (subscribe).
    expect(JSON.parse(form.stdout)).toEqual({ action: "accept", content: { name: "Ada", age: 36, subscribe: true } });
    const url = await conduit(["call", "elicit-url", "--answers", answers, ...official]);
    expect(JSON.parse(url.stdout)).toEqual({ action: "decline" });
    const sampled = await conduit(["call", "sample", "prompt=hi", "--answers", answers, ...official]);
    expect(sampled).toMatchObject({ code: 0, stdout: "a typed reply\n" });
    // A broken answers file is named, its text (answers may be secrets) never repeated.
    writeFileSync(answers, '{"forms": [{"action": "accept", "content": {"password": "hunter2-SECRET"}}] oops');
    const broken = await conduit(["call", "elicit-form", "--answers", answers, ...official]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/is not JSON \(a syntax error at position \d+/);
    expect(broken.stderr).not.toContain("hunter2");
    // An answer that breaks the form's schema is refused by the library's checks, not sent.
    writeFileSync(answers, JSON.stringify({ forms: [{ action: "accept", content: { age: -1 } }] }));
    expect((await conduit(["call", "elicit-form", "--answers", answers, ...official])).code).not.toBe(0);
  });

  it("answers sampling with --sampling-command, and shares --root directories", async () => {
    const everything = ["--", node, EVERYTHING_SERVER, "stdio"];
    const sampled = await conduit(["call", "trigger-sampling-request", "prompt=hi", "--sampling-command", `${node} -e "process.stdin.resume(); process.stdin.on('end', () => console.log('from the command'))"`, ...everything]);
    expect(sampled.code).toBe(0);
    expect(sampled.stdout).toMatch(/"text": "from the command"/);
    const declined = await conduit(["call", "trigger-sampling-request", "prompt=hi", "--sampling-command", `${node} -e "process.exit(3)"`, ...everything]);
    expect(declined.stdout + declined.stderr).toMatch(/declined/);
    const roots = await conduit(["call", "get-roots-list", "--root", home, ...everything]);
    expect(roots.code).toBe(0);
    expect(roots.stdout).toContain(`file://${home}`);
    const sum = await conduit(["call", "get-sum", "a=2", "b=3", ...everything]);
    expect(sum.stdout).toBe("The sum of 2 and 3 is 5.\n");
  });

  it("follows a tool that runs as a task to its end, its input from --answers", async () => {
    const answers = join(home, "task-answers.json");
    writeFileSync(answers, JSON.stringify({ forms: [{ action: "accept", content: { angle: "history" } }] }));
    const ran = await conduit(["call", "research", "topic=tides", "--answers", answers, "--", node, RESEARCH]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/task \S+: working/);
    expect(ran.stdout).toMatch(/tides/);
  });

  it("finds servers in the usual config places (the user's winning a name), names them redacted with `servers`, and calls them by name", async () => {
    const project = mkdtempSync(join(home, "project-"));
    // A folder's config cannot take the name of one of the user's servers.
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "shadowed-by-the-users" }, local: { command: node, args: [NOTES, "--token", "${PROJECT_TOKEN}"], env: { PROJECT_TOKEN: "${PROJECT_TOKEN}" } } } }));
    mkdirSync(join(home, ".cursor"), { recursive: true });
    writeFileSync(join(home, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { notes: { command: node, args: [NOTES] }, remote: { url: "https://mcp.example.com/mcp?api_key=${PROJECT_TOKEN}" } } }));
    const env = { PROJECT_TOKEN: "tok-VERY-SECRET" };
    const listed = await conduit(["servers", "--format", "json"], { cwd: project, env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "notes", source: join(home, ".cursor", "mcp.json"), type: "stdio", target: `${node} ${NOTES}` },
      { name: "remote", source: join(home, ".cursor", "mcp.json"), type: "http", target: "https://mcp.example.com/mcp?api_key=***" },
      { name: "local", source: join(project, ".mcp.json"), type: "stdio", target: `${node} ${NOTES} --token ***` },
    ]);
    const asText = await conduit(["servers"], { cwd: project, env });
    expect(asText.stdout + asText.stderr).not.toContain("VERY-SECRET");
    const called = await conduit(["call", "notes", "word_count"], { cwd: project, env });
    expect(called.code).toBe(0);
    const unknown = await conduit(["call", "nope", "word_count"], { cwd: project, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no server named "nope"; configured: notes, remote, local/);
    const config = join(home, "given.json");
    writeFileSync(config, JSON.stringify({ servers: { vs: { type: "stdio", command: node, args: [NOTES] } } }));
    expect((await conduit(["call", "--config", config, "vs", "word_count"])).code).toBe(0);
  });
});

describe("conduit against a server behind OAuth", () => {
  let servers: OAuthServers;
  beforeAll(async () => {
    servers = await startOAuthServers();
  });
  afterAll(() => servers.close());

  it("ends with 4 when the server needs an authorization and there is no terminal to show it on", async () => {
    const ran = await conduit(["list", servers.resourceUrl]);
    expect(ran.code).toBe(4);
    expect(ran.stderr).toMatch(/needs an authorization/);
    expect(servers.authorizations).toHaveLength(0);
  });

  // A machine with no network interface but loopback has no LAN address to try this on.
  it.skipIf(LAN_ADDRESS === undefined)("ends with 4, saying why, when a plain-http server off loopback asks for an authorization (OAuth would send its tokens in the clear)", async () => {
    // Servers of its own: the tracker closes what a test started once it ends.
    const own = await startOAuthServers();
    const lan = await onLan(own.resourceUrl);
    try {
      const ran = await conduit(["list", lan.url]);
      expect(ran.code).toBe(4);
      expect(ran.stderr).toMatch(/an MCP server that asks for OAuth must be an https URL \(or on loopback\): http:\/\/\d+\.\d+\.\d+\.\d+:\d+\/mcp/);
      expect(own.authorizations).toHaveLength(0);
    } finally {
      await lan.close();
    }
  });
});

describe("conduit as a new user meets it", () => {
  it.skipIf(LAN_ADDRESS === undefined)("reaches a plain-http server that needs no OAuth on an address that is not loopback", async () => {
    const server = await officialHttp("legacy");
    const lan = await onLan(server.url);
    try {
      // OAuth, which would need https there, runs only when a server asks; this one asks for
      // none and is reached as it is.
      const ran = await conduit(["list", lan.url]);
      expect(ran.stderr).toBe("");
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/echo\s+Echoes the text back/);
    } finally {
      await lan.close();
      await server.close();
    }
  });

  it("ends quietly, with the command's own code, when the reader closes stdout early (conduit list … | head -1)", async () => {
    const ran = await new Promise<Ran>((resolve) => {
      const child = spawn(node, [BIN, "list", "--", node, NOTES], { cwd: home, env: { ...process.env, HOME: home, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
      // The reading end is gone before conduit writes a line: each write meets EPIPE.
      child.stdout.destroy();
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (text: string) => (stderr += text));
      child.once("close", (code) => resolve({ code, stdout: "", stderr }));
    });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
  });

  it("fails a server whose config names an unset variable alone, saying which and why; the config's others are used", async () => {
    const config = join(home, "one-unset.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: node, args: [NOTES] }, github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${env:CONDUIT_TEST_UNSET_TOKEN}" } } } }));
    expect((await conduit(["call", "--config", config, "notes", "word_count"])).code).toBe(0);
    const github = await conduit(["call", "--config", config, "github", "search_repositories", "query=x"]);
    expect(github.code).toBe(2);
    expect(github.stderr).toContain('server "github" in the config: "env.GITHUB_PERSONAL_ACCESS_TOKEN" names the environment variable CONDUIT_TEST_UNSET_TOKEN, which is not set');
    const listed = await conduit(["servers", "--config", config, "--format", "json"]);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "notes", source: config, type: "stdio", target: `${node} ${NOTES}` },
      { name: "github", source: config, error: expect.stringContaining("CONDUIT_TEST_UNSET_TOKEN, which is not set") },
    ]);
  });

  it("redacts in `conduit servers` what a command line or URL hides secrets in: -e NAME=value, env NAME=value, a short flag's secret, a URL's fragment", async () => {
    const config = join(home, "secrets.json");
    const servers = {
      docker: { command: "docker", args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=github_pat_11AAAAAAA0123456789", "ghcr.io/github/github-mcp-server"] },
      env: { command: "env", args: ["BRAVE_API_KEY=BSAkeyvalue0123456789xyz", "npx", "-y", "@brave/brave-search-mcp-server"] },
      short: { command: "npx", args: ["-y", "some-mcp", "-k", "8f14e45fceea167a5a36dedd4bea2543", "-p", "3000"] },
      linked: { url: "https://mcp.example.com/mcp#access_token=frag-SECRET-1" },
    };
    writeFileSync(config, JSON.stringify({ mcpServers: servers }));
    const listed = await conduit(["servers", "--config", config, "--format", "json"]);
    expect((JSON.parse(listed.stdout) as Array<{ target: string }>).map((server) => server.target)).toEqual([
      "docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN=*** ghcr.io/github/github-mcp-server",
      "env BRAVE_API_KEY=*** npx -y @brave/brave-search-mcp-server",
      "npx -y some-mcp -k *** -p 3000",
      "https://mcp.example.com/mcp#***",
    ]);
    const asText = await conduit(["servers", "--config", config]);
    for (const secret of ["github_pat_11AAAAAAA0123456789", "BSAkeyvalue0123456789xyz", "8f14e45fceea167a5a36dedd4bea2543", "frag-SECRET-1"]) expect(asText.stdout + asText.stderr).not.toContain(secret);
  });

  it("lets a project's config read only the variables its servers list, or --allow-env names", async () => {
    const project = mkdtempSync(join(home, "cloned-"));
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { collect: { url: "https://collect.example/mcp?k=${env:CONDUIT_TEST_CLOUD_KEY}" }, listed: { command: node, args: [NOTES], env: { CONDUIT_TEST_CLOUD_KEY: "${CONDUIT_TEST_CLOUD_KEY}" } } } }));
    const env = { CONDUIT_TEST_CLOUD_KEY: "cloud-VERY-SECRET" };
    const listed = await conduit(["servers", "--format", "json"], { cwd: project, env });
    const shown = JSON.parse(listed.stdout) as Array<{ name: string; error?: string }>;
    expect(shown.find((server) => server.name === "collect")?.error).toContain("names the environment variable CONDUIT_TEST_CLOUD_KEY, which a project's config may read only when the server lists it");
    expect(listed.stdout).not.toContain("VERY-SECRET");
    expect((await conduit(["call", "listed", "word_count"], { cwd: project, env })).code).toBe(0);
    const allowed = await conduit(["servers", "--format", "json", "--allow-env", "CONDUIT_TEST_CLOUD_KEY"], { cwd: project, env });
    expect((JSON.parse(allowed.stdout) as Array<{ name: string; target?: string }>).find((server) => server.name === "collect")?.target).toBe("https://collect.example/mcp?k=***");
  });

  it("reads Claude Code's servers for this folder (its local scope) and VS Code's user mcp.json", async () => {
    const user = mkdtempSync(join(tmpdir(), "conduit-user-"));
    const folder = mkdtempSync(join(user, "app-"));
    try {
      writeFileSync(join(user, ".claude.json"), JSON.stringify({ mcpServers: { everywhere: { command: node, args: [NOTES] } }, projects: { [folder]: { mcpServers: { local: { command: node, args: [NOTES, "--local"] } } }, "/elsewhere": { mcpServers: { other: { command: "x" } } } } }));
      mkdirSync(join(user, ".config", "Code", "User"), { recursive: true });
      writeFileSync(join(user, ".config", "Code", "User", "mcp.json"), JSON.stringify({ inputs: [{ type: "promptString", id: "key", description: "API key", password: true }], servers: { vs: { type: "stdio", command: node, args: [NOTES] }, asks: { type: "http", url: "https://x.example/mcp", headers: { Authorization: "Bearer ${input:key}" } } } }));
      const env = { HOME: user, XDG_CONFIG_HOME: join(user, ".config") };
      const listed = await conduit(["servers", "--format", "json"], { cwd: folder, env });
      const shown = JSON.parse(listed.stdout) as Array<{ name: string; source: string; error?: string }>;
      expect(shown.map((server) => [server.name, server.source])).toEqual([
        ["local", join(user, ".claude.json")],
        ["everywhere", join(user, ".claude.json")],
        ["vs", join(user, ".config", "Code", "User", "mcp.json")],
        ["asks", join(user, ".config", "Code", "User", "mcp.json")],
      ]);
      expect(shown[3]!.error).toContain("names ${input:key} (API key), an input only VS Code can ask for");
      expect((await conduit(["call", "vs", "word_count"], { cwd: folder, env })).code).toBe(0);
    } finally {
      rmSync(user, { recursive: true, force: true });
    }
  });

  it("ends a server that ignores the end of its input with SIGTERM to its group once the result is written", async () => {
    const marker = join(home, "stubborn-ended");
    const stubborn = join(home, "stubborn-server.mjs");
    writeFileSync(stubborn, STUBBORN_SERVER);
    const ran = await conduit(["list", "--", node, stubborn, marker]);
    expect(ran).toMatchObject({ code: 0, stderr: "" });
    expect(ran.stdout).toMatch(/^ {2}only\b/);
    // SIGTERM comes as stdin ends: which of the two the server hears first is its own affair.
    expect(readFileSync(marker, "utf8")).toContain("SIGTERM\n");
  });
});

/** A stdio server that keeps running when its stdin ends, and writes down how it was ended. */
const STUBBORN_SERVER = `
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
const marker = process.argv[2];
setInterval(() => {}, 1 << 30);
process.on("SIGTERM", () => { appendFileSync(marker, "SIGTERM\\n"); process.exit(0); });
const lines = createInterface({ input: process.stdin });
lines.on("close", () => appendFileSync(marker, "stdin ended\\n"));
lines.on("line", (line) => {
  const m = JSON.parse(line);
  const answer = (body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...body }) + "\\n");
  if (m.method === "initialize") answer({ result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "stubborn", version: "1" } } });
  else if (m.method === "tools/list") answer({ result: { tools: [{ name: "only", inputSchema: { type: "object" } }] } });
  else if (m.id !== undefined) answer({ error: { code: -32601, message: "no such method" } });
});
`;
