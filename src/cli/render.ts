/**
 * Results as a person reads them: server text cleaned, binary content described rather than
 * dumped, a tool's own error marked. (`--format json` prints the results as they came instead.)
 */
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from "../node.js";
import type { Output } from "./output.js";
import { shown, shownLine } from "./output.js";

type Block = { type?: unknown; [key: string]: unknown };

/** One content block of a tool result or a prompt message. */
export function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return shown(block.text);
    case "image":
    case "audio":
      return `[${block.type}: ${shownLine(block.mimeType, 80)}, ${typeof block.data === "string" ? Math.floor((block.data.length * 3) / 4) : 0} bytes]`;
    case "resource_link":
      return `→ ${shownLine(block.uri, 500)}${typeof block.name === "string" ? ` (${shownLine(block.name, 100)})` : ""}`;
    case "resource": {
      const resource = (block.resource ?? {}) as Block;
      const head = `[resource ${shownLine(resource.uri, 500)}]`;
      return typeof resource.text === "string" ? `${head}\n${shown(resource.text)}` : head;
    }
    default:
      return `[${shownLine(block.type, 40)} content]`;
  }
}

export function printToolResult(out: Output, result: CallToolResult): void {
  const c = out.out;
  if (result.isError === true) out.line(c.red(c.bold("the tool reported an error:")));
  for (const block of result.content as Block[]) out.line(result.isError === true ? c.red(blockText(block)) : blockText(block));
  const textless = !(result.content as Block[]).some((block) => block.type === "text");
  if (result.structuredContent !== undefined && textless) out.line(shown(JSON.stringify(result.structuredContent, null, 2)));
}

export function printResource(out: Output, result: ReadResourceResult): void {
  for (const content of result.contents as Block[]) {
    if (result.contents.length > 1) out.line(out.out.dim(`— ${shownLine(content.uri, 500)}`));
    if (typeof content.text === "string") out.line(shown(content.text));
    else out.line(`[${shownLine(content.mimeType ?? "binary", 80)}, ${typeof content.blob === "string" ? Math.floor((content.blob.length * 3) / 4) : 0} bytes]`);
  }
}

export function printPrompt(out: Output, result: GetPromptResult): void {
  if (typeof result.description === "string") out.line(out.out.dim(shown(result.description)));
  for (const message of result.messages) out.line(`${out.out.bold(shownLine(message.role, 20))}: ${blockText(message.content)}`);
}

export type Listed = Tool | Resource | ResourceTemplate | Prompt;

/** A list, one item a line: name (or URI) and the one-line description. */
export function printList(out: Output, kind: string, items: readonly Listed[], serverId?: string): void {
  const c = out.out;
  if (items.length === 0) {
    out.line(c.dim(`no ${kind}${serverId === undefined ? "" : ` on ${serverId}`}`));
    return;
  }
  const labels = items.map((item) => shownLine("uriTemplate" in item ? item.uriTemplate : "uri" in item ? item.uri : item.name, 120));
  const width = Math.min(40, Math.max(...labels.map((label) => label.length)));
  items.forEach((item, i) => {
    const description = typeof item.description === "string" ? shownLine(item.description.split("\n")[0], 120) : "";
    out.line(`  ${c.bold(labels[i]!.padEnd(width))}  ${c.dim(description)}`);
  });
}

/** A tool: its description and each argument. */
export function printTool(out: Output, tool: Tool): void {
  const c = out.out;
  out.line(c.bold(shownLine(tool.name, 120)) + (typeof tool.title === "string" ? ` — ${shownLine(tool.title, 120)}` : ""));
  if (typeof tool.description === "string") out.line(shown(tool.description, 4_000));
  const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) out.line(c.dim("  no arguments"));
  for (const [name, property] of properties) {
    const type = Array.isArray(property.enum) ? property.enum.slice(0, 50).map((value) => shownLine(JSON.stringify(value), 60)).join(" | ") : shownLine(typeof property.type === "string" ? property.type : JSON.stringify(property.type ?? "any"), 60);
    const description = typeof property.description === "string" ? `  ${c.dim(shownLine(property.description, 200))}` : "";
    out.line(`  ${shownLine(name, 64)}${required.has(name) ? "" : "?"}: ${type}${property.default === undefined ? "" : ` = ${shownLine(JSON.stringify(property.default), 60)}`}${description}`);
  }
  if (tool.execution?.taskSupport !== undefined && tool.execution.taskSupport !== "forbidden") out.line(c.dim(`  runs as a task: ${shownLine(tool.execution.taskSupport, 40)}`));
}
