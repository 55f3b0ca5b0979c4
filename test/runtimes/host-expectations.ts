// The lines scenarios.mjs prints when the built package works on the runtime as on Node: the
// root import is the Node entry (one Client with `conduit-mcp/node`, its Node-only exports
// there), stdio servers it spawns answer and are gone after close, and Streamable HTTP works in
// both eras with the Handler answering.
import { expect } from "vitest";

const elicited = (era: string) => ({ action: "accept", content: { name: `${era} Please tell us about yourself`, age: 1, subscribe: true } });

export const NODE_ENTRY_SCENARIOS = ["entry", "stdio-root", "stdio-node", "http-modern", "http-legacy"] as const;

export const NODE_ENTRY_LINES = [
  { scenario: "entry", sameClient: true, rootFileStore: "function", rootLoopbackRedirect: "function" },
  { scenario: "stdio-root", era: "modern", listsEcho: true, echo: "over stdio", elicited: elicited("modern"), serverAliveAfterClose: false },
  { scenario: "stdio-node", era: "legacy", listsEcho: true, echo: "over stdio", elicited: elicited("legacy"), serverAliveAfterClose: false },
  { scenario: "http-modern", era: "modern", add: { sum: 42 }, sampled: "sampled: hi" },
  { scenario: "http-legacy", era: "legacy", add: { sum: 42 }, sampled: "sampled: hi" },
];

/** How the web entry refuses a stdio server, at once: no process is started where none can be. */
export const STDIO_REFUSAL = { name: "ClientError", kind: "usage", message: expect.stringContaining("conduit-mcp/node") as unknown };

/** The web entry loaded by its file: no Node-only export, no stdio, HTTP over the runtime's fetch. */
export const WEB_ENTRY_LINE = { scenario: "web", fileStore: "undefined", stdio: STDIO_REFUSAL, era: "modern", add: { sum: 42 }, sampled: "sampled: hi" };
