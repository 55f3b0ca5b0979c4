// `conduit`'s one-shot commands as a script runs them: child processes without a terminal,
// against real servers (the bundled examples, the official test server, server-everything, an
// OAuth-protected one), checking stdout, stderr and the exit code of each kind of failure.
// Runs the built command (dist/cli/bin.js): `npm test` builds first.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, OFFICIAL_SERVER } from "../helpers/official.js";
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

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error("dist/cli/bin.js is missing: run `npm run build` (npm test does)");
});

describe("conduit one-shot", () => {
  it("prints its help with the table of exit codes", async () => {
    const { code, stdout } = await conduit(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Exit codes:/);
    for (const row of [/ 0 {2}ok/, / 1 {2}tool error/, / 2 {2}usage/, / 3 {2}unreachable/, / 4 {2}auth/, / 5 {2}protocol/, / 6 {2}timeout/, / 7 {2}refused/, / 8 {2}input needed/]) expect(stdout).toMatch(row);
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
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "shadowed-by-the-users" }, local: { command: node, args: [NOTES, "--token", "${PROJECT_TOKEN}"] } } }));
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
});
