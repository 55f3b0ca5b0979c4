// A stand-in for an MCP App view and its server, to drive an `AppSession` message by message:
// what the session sent is recorded, and the view's side speaks the spec's JSON-RPC.
import { type CallToolResult, type ReadResourceResult, type Tool } from "../../src/index.js";
import { AppSession, type AppServer, type AppSessionOptions } from "../../src/apps/index.js";
import { capturingLogger, type CapturingLogger } from "./logger.js";

export const APP_ONLY: Tool = { name: "refresh", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://demo/view.html", visibility: ["app"] } } };
export const MODEL_ONLY: Tool = { name: "secret", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["model"] } } };
export const BOTH: Tool = { name: "greet", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://demo/view.html" } } };

export interface FakeServer extends AppServer {
  calls: { name: string; args: Record<string, unknown> | undefined; signal: AbortSignal | undefined }[];
  reads: string[];
  listings: number;
}

/** The policy's view of a server: its list and its answers (the session's integration test uses a real one). */
export function fakeServer(tools: Tool[] = [APP_ONLY, MODEL_ONLY, BOTH], answer?: (name: string) => Promise<CallToolResult>): FakeServer {
  const server: FakeServer = {
    id: "demo",
    origin: undefined,
    serverCapabilities: { tools: {}, resources: {} },
    calls: [],
    reads: [],
    listings: 0,
    listTools: () => {
      server.listings += 1;
      return Promise.resolve(tools);
    },
    callTool: ((name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }) => {
      server.calls.push({ name, args, signal: options?.signal });
      return answer?.(name) ?? Promise.resolve({ content: [{ type: "text", text: `called ${name}` }] });
    }),
    readResource: (uri: string) => {
      server.reads.push(uri);
      return Promise.resolve<ReadResourceResult>({ contents: [{ uri, mimeType: "text/html;profile=mcp-app", text: "<p>hi</p>" }] });
    },
  };
  return server;
}

export interface Harness {
  session: AppSession;
  server: FakeServer;
  sent: Record<string, unknown>[];
  logger: CapturingLogger;
  /** Sends a request from the view; returns its id. */
  request(method: string, params?: Record<string, unknown>): number;
  notify(method: string, params?: Record<string, unknown>): void;
  /** The reply to request `id`, once it came. */
  reply(id: number): Record<string, unknown> | undefined;
  /** Waits until the reply to `id` came (the session answers some requests after awaits). */
  replied(id: number): Promise<Record<string, unknown>>;
  /** ui/initialize and ui/notifications/initialized, as the official App sends them. */
  start(appCapabilities?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export function harness(options: Partial<AppSessionOptions> = {}): Harness {
  const sent: Record<string, unknown>[] = [];
  const logger = capturingLogger();
  const server = (options.server as FakeServer | undefined) ?? fakeServer();
  const session = new AppSession({ server, tool: BOTH, send: (message) => sent.push(message as Record<string, unknown>), logger, ...options });
  let nextId = 1;
  const reply = (id: number) => sent.find((message) => message.id === id && (message.result !== undefined || message.error !== undefined));
  const h: Harness = {
    session,
    server,
    sent,
    logger,
    request(method, params) {
      const id = nextId++;
      session.receive(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
      return id;
    },
    notify(method, params) {
      session.receive(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    },
    reply,
    async replied(id) {
      for (let turn = 0; turn < 1000; turn++) {
        const found = reply(id);
        if (found !== undefined) return found;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      throw new Error(`no reply to request ${id}`);
    },
    async start(appCapabilities = {}) {
      const id = h.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "view", version: "1.0.0" }, appCapabilities });
      const answer = await h.replied(id);
      h.notify("ui/notifications/initialized", {});
      return answer;
    },
  };
  return h;
}

export function errorOf(message: Record<string, unknown> | undefined): { code: number; message: string } | undefined {
  return message?.error as { code: number; message: string } | undefined;
}
