// The library on its own (`node examples/library-tour.mjs`, after `npm run build`): connect to the
// bundled notes server over stdio, show what it offers, call a tool; then run the bundled
// research server's tool as a task, which asks a question while it runs.
import { fileURLToPath } from "node:url";
import { Client, ClientError, isTask } from "conduit-mcp";

const serverScript = fileURLToPath(new URL("./servers/notes-server.mjs", import.meta.url));
const researchScript = fileURLToPath(new URL("./servers/research-server.mjs", import.meta.url));

// The one Handler answers what servers ask; here it takes the first choice a form offers.
const handler = {
  handleElicitation: (params, ctx) => {
    const [name, field] = Object.entries(params.requestedSchema.properties)[0];
    console.log(`  ${ctx.serverId} asks: ${params.message} → ${field.enum[0]}`);
    return { action: "accept", content: { [name]: field.enum[0] } };
  },
};
const client = new Client({ name: "conduit-tour", version: "0.1.0", handler });
try {
  const notes = await client.connect("notes", { command: process.execPath, args: [serverScript] });
  console.log(`connected to ${notes.serverInfo.name} ${notes.serverInfo.version}: protocol ${notes.protocolVersion} (${notes.era} era)`);
  if (notes.instructions) console.log(`instructions: ${notes.instructions}`);

  const tools = await notes.listTools();
  console.log(`\ntools (${tools.length}):`);
  for (const tool of tools) console.log(`  ${tool.name.padEnd(12)} ${tool.description ?? ""}`);

  const resources = await notes.listResources();
  console.log(`\nresources (${resources.length}):`);
  for (const resource of resources) console.log(`  ${resource.uri}`);

  const prompts = await notes.listPrompts();
  console.log(`\nprompts (${prompts.length}):`);
  for (const prompt of prompts) console.log(`  ${prompt.name.padEnd(12)} ${prompt.description ?? ""}`);

  console.log("\ncalling add_note and word_count:");
  const saved = await notes.callTool("add_note", { title: "tour", body: "Every call goes through one typed client." });
  console.log(`  ${saved.content[0].text}`);
  const counted = await notes.callTool("word_count");
  console.log(`  ${counted.content[0].text}; structured: ${JSON.stringify(counted.structuredContent)}`);

  const index = await notes.readResource("notes://index");
  console.log(`\nnotes://index:\n  ${index.contents[0].text.split("\n").join("\n  ")}`);

  const research = await client.connect("research", { command: process.execPath, args: [researchScript] });
  console.log(`\nresearch (protocol ${research.protocolVersion}): a tool that runs as a task`);
  const outcome = await research.callTool("research", { topic: "tides" }, { task: true });
  if (isTask(outcome)) {
    console.log(`  task ${outcome.taskId}: ${outcome.status}`);
    const result = await research.awaitTask(outcome, { onStatus: (task) => console.log(`  ${task.status}: ${task.statusMessage ?? ""}`) });
    console.log(`  ${result.content[0].text}`);
  } else console.log(`  ${outcome.content[0].text}`);
} catch (error) {
  if (error instanceof ClientError) console.error(`failed (${error.kind}): ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
} finally {
  await client.close();
}
