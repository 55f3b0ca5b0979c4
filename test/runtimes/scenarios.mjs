// What a Deno or a Bun host does with the built package, run by that runtime from a folder
// whose node_modules/conduit-mcp is the package (package-link.ts), so that the runtime's own
// resolution picks the export condition. The servers come from the test, in the environment
// variable CONDUIT_SCENARIO (JSON: node, official, http). Each scenario prints one
// JSON line, {"scenario": name, ...what it saw} or {"scenario": name, "error": ...}; the test
// compares the lines with what it expects, exactly.
const config = JSON.parse(process.env.CONDUIT_SCENARIO ?? "{}");

const text = (result) => result.content.map((part) => part.text).join("");

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const handler = {
  handleElicitation: (params, ctx) => ({ action: "accept", content: { name: `${ctx.era} ${params.message}`, age: 1, subscribe: true } }),
  handleSampling: (params) => ({ role: "assistant", content: { type: "text", text: `sampled: ${params.messages[0].content.text}` }, model: "m" }),
};

/** Over stdio: a server spawned by the runtime, listed, called, and closed (its process gone). */
async function stdio(Client, era) {
  const client = new Client({ name: "runtime-host", version: "1.0.0", handler });
  const server = await client.connect("official", { command: config.node, args: [config.official, "stdio", "--era", era] });
  const listsEcho = (await server.listTools()).some((tool) => tool.name === "echo");
  const echo = text(await server.callTool("echo", { text: "over stdio" }));
  const elicited = JSON.parse(text(await server.callTool("elicit-form")));
  const pid = Number(text(await server.callTool("pid")));
  await client.close();
  return { era: server.era, listsEcho, echo, elicited, serverAliveAfterClose: alive(pid) };
}

/** How a stdio connect is refused: where nothing starts processes, a typed error at once. */
async function stdioRefusal(Client) {
  const client = new Client({ name: "runtime-host", version: "1.0.0" });
  try {
    await client.connect("local", { command: config.node, args: [config.official, "stdio"] });
    return "connected";
  } catch (error) {
    return { name: error?.name, kind: error?.kind, message: String(error?.message) };
  } finally {
    await client.close();
  }
}

/** Over Streamable HTTP, in the era asked for: a call, and a sampling answered by the Handler. */
async function http(Client, protocolVersion) {
  const client = new Client({ name: "runtime-host", version: "1.0.0", handler });
  try {
    const server = await client.connect("official", { url: config.http }, protocolVersion === undefined ? {} : { protocolVersion });
    const add = (await server.callTool("add", { a: 20, b: 22 })).structuredContent;
    const sampled = text(await server.callTool("sample", { prompt: "hi" }));
    return { era: server.era, add, sampled };
  } finally {
    await client.close();
  }
}

const scenarios = {
  // The root as this runtime resolves it is the Node entry: one module graph with the subpath.
  async entry() {
    const root = await import("conduit-mcp");
    const node = await import("conduit-mcp/node");
    return { sameClient: root.Client === node.Client, rootFileStore: typeof root.fileStore, rootLoopbackRedirect: typeof root.loopbackRedirect };
  },
  "stdio-root": async () => stdio((await import("conduit-mcp")).Client, "both"),
  "stdio-node": async () => stdio((await import("conduit-mcp/node")).Client, "legacy"),
  "http-modern": async () => http((await import("conduit-mcp")).Client),
  "http-legacy": async () => http((await import("conduit-mcp")).Client, "2025-11-25"),
  // The root run with --conditions=browser is the web entry, as a browser or a Worker gets it:
  // no Node-only export, no stdio, and HTTP over this runtime's fetch.
  async web() {
    const web = await import("conduit-mcp");
    return { fileStore: typeof web.fileStore, stdio: await stdioRefusal(web.Client), ...(await http(web.Client)) };
  },
};

for (const name of process.argv.slice(2)) {
  let line;
  try {
    line = { scenario: name, ...(await scenarios[name]()) };
  } catch (error) {
    line = { scenario: name, error: { name: error?.name, kind: error?.kind, message: String(error?.message ?? error) } };
  }
  console.log(JSON.stringify(line));
}
