// Sequential tools/call over Streamable HTTP (modern era, 2026-07-28) against a bare node:http
// server in its own process (raw-http-server.mjs: JSON replies, never an event stream). No
// session: the `_meta` envelope and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers on
// every request. Every client keeps its connection alive between calls; the raw loop is
// node:http with a keep-alive agent.
import { connectChecked, sequentialCalls } from "../lib/calls.mjs";
import { measure } from "../lib/measure.mjs";
import { rawHttpServer } from "../lib/targets.mjs";

const NAME = "sequential tools/call over Streamable HTTP (modern)";
const TARGET = {
  all: [
    { vs: "raw", min: 0.9 },
    { vs: "sdk", min: 2.5 },
  ],
  text: "≥ 0.9× the bare loop and ≥ 2.5× the official client",
};

export default {
  id: "http-sequential-modern",
  name: NAME,
  rows: [{ key: "rate", name: NAME, unit: "calls/s", better: "higher", target: TARGET }],
  defaults: { rounds: 9, calls: 1_000, warmup: 2_000 },

  async open(client) {
    const server = await rawHttpServer("modern");
    return connectChecked(client, server.target, { era: "modern" }, undefined, server);
  },

  warmup: (connection, { warmup }) => sequentialCalls(connection, warmup),

  async sample(connection, { calls }) {
    const { seconds } = await measure(() => sequentialCalls(connection, calls));
    return { rate: calls / seconds };
  },

  close: (connection) => connection.close(),
};
