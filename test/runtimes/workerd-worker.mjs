// The Worker of workerd.test.ts: it imports Conduit's web entry as a Worker's bundler resolves
// it (conditions workerd, worker, browser) and, for each request from the test, connects to the
// MCP server the request names, lists, calls a tool and asks the server for an elicitation and
// a sampling that its Handler answers, then answers with what it saw as JSON. Client per
// request: a Worker may not use one request's I/O in another.
import { Client } from "conduit-mcp";

/** What this Worker can reach of Node: nothing, with no compatibility flag. */
async function nodeFacts() {
  let nodeEvents;
  try {
    await import(/* the name is built so that the bundler leaves it alone */ ["node", "events"].join(":"));
    nodeEvents = "loaded";
  } catch (error) {
    nodeEvents = String(error);
  }
  return { process: typeof globalThis.process, Buffer: typeof globalThis.Buffer, nodeEvents };
}

function handler(seen) {
  return {
    handleElicitation(params, ctx) {
      seen.push({ kind: "elicitation", era: ctx.era, serverId: ctx.serverId, message: params.message });
      return { action: "accept", content: { name: "Worker", age: 7, subscribe: false } };
    },
    handleSampling(params, ctx) {
      seen.push({ kind: "sampling", era: ctx.era, text: params.messages[0].content.text });
      return { role: "assistant", content: { type: "text", text: "sampled in a Worker" }, model: "worker-model" };
    },
  };
}

/** Where nothing starts processes, a stdio server is refused at once with a typed error. */
async function stdioRefusal() {
  const client = new Client({ name: "worker-host", version: "1.0.0" });
  try {
    await client.connect("local", { command: "node", args: ["server.js"] });
    return "connected";
  } catch (error) {
    return { name: error?.name, kind: error?.kind, message: String(error?.message) };
  } finally {
    await client.close();
  }
}

const text = (result) => result.content.map((part) => part.text).join("");

async function scenario({ url, protocolVersion }) {
  const seen = [];
  const client = new Client({ name: "worker-host", version: "1.0.0", handler: handler(seen) });
  try {
    const server = await client.connect("official", { url }, protocolVersion === undefined ? {} : { protocolVersion });
    const tools = (await server.listTools()).map((tool) => tool.name);
    const add = await server.callTool("add", { a: 2, b: 3 });
    const elicited = JSON.parse(text(await server.callTool("elicit-form")));
    const sampled = text(await server.callTool("sample", { prompt: "hello from the test" }));
    return {
      era: server.era,
      protocolVersion: server.protocolVersion,
      listsEcho: tools.includes("echo"),
      add: add.structuredContent,
      elicited,
      sampled,
      seen,
    };
  } finally {
    await client.close();
  }
}

export default {
  async fetch(request) {
    try {
      const body = await request.json();
      return Response.json({ node: await nodeFacts(), stdio: await stdioRefusal(), result: await scenario(body) });
    } catch (error) {
      return Response.json({ error: { name: error?.name, kind: error?.kind, message: String(error?.message ?? error) } }, { status: 500 });
    }
  },
};
