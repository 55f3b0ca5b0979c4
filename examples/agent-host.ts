// The README's host in a dozen lines: a config file, connectAll with restarts, the catalog
// handed to a model API, every tool call routed back. Type-checked by `npm test` (it needs an
// OpenAI key to run: `OPENAI_API_KEY=… node --experimental-strip-types examples/agent-host.ts`
// on Node 22.6+, with ./mcp.json beside it).
import OpenAI from "openai";
import { Client } from "conduit-mcp";
import { toOpenAIChatTools, toOpenAIChatToolMessage } from "conduit-mcp/adapters";

const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connectAll("./mcp.json", { restart: true });        // crashed servers come back
const { tools, skipped, parseArguments } = toOpenAIChatTools(await client.tools(), { strict: true });
for (const { qualifiedName, reason } of skipped) console.warn(`left out ${qualifiedName}: ${reason}`);
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What is on my calendar today?" }];
for (let turn = 0; turn < 8; turn++) {
  const { message } = (await new OpenAI().chat.completions.create({ model: "gpt-5", messages, tools })).choices[0]!;
  messages.push(message);
  if (!message.tool_calls?.length) break;
  for (const call of message.tool_calls) {
    if (call.type !== "function") continue;
    const result = await client.callTool(call.function.name, parseArguments(call.function.name, call.function.arguments));
    messages.push(toOpenAIChatToolMessage(call.id, result));
  }
}
console.log(messages.at(-1));
await client.close();
