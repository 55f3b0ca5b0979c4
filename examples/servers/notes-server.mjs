#!/usr/bin/env node
// A small MCP server for the examples: a notebook with a few tools, one resource and one
// prompt, on the official server library. It speaks both protocol eras over stdio.
import * as z from "zod";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const notes = new Map([["welcome", "Conduit connects hosts to MCP servers."]]);

function createNotesServer() {
  const server = new McpServer(
    { name: "notes", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: "A tiny notebook." },
  );
  const text = (value) => ({ content: [{ type: "text", text: value }] });

  server.registerTool(
    "add_note",
    { description: "Stores a note under a title", inputSchema: z.object({ title: z.string(), body: z.string() }) },
    async ({ title, body }) => {
      notes.set(title, body);
      return text(`saved "${title}" (${notes.size} notes)`);
    },
  );
  server.registerTool(
    "read_note",
    { description: "Reads a note by title", inputSchema: z.object({ title: z.string() }) },
    async ({ title }) => (notes.has(title) ? text(notes.get(title)) : { ...text(`no note "${title}"`), isError: true }),
  );
  server.registerTool(
    "word_count",
    {
      description: "Counts the words of every note",
      inputSchema: z.object({}),
      outputSchema: z.object({ words: z.number() }),
    },
    async () => {
      const words = [...notes.values()].join(" ").split(/\s+/).filter(Boolean).length;
      return { ...text(`${words} words`), structuredContent: { words } };
    },
  );
  server.registerResource("index", "notes://index", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: [...notes.keys()].join("\n") }],
  }));
  server.registerPrompt(
    "summarise",
    { description: "Asks for a summary of one note", argsSchema: z.object({ title: z.string() }) },
    ({ title }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Summarise: ${notes.get(title) ?? "(missing)"}` } }],
    }),
  );
  return server;
}

serveStdio(createNotesServer);
