// Servers of the skills extension (SEP-2640) for the hostile battery: the scripted raw server
// over stdio (test/helpers/raw-stdio.ts) or over Streamable HTTP (test/helpers/raw-http.ts),
// 2025-11-25, serving what the test gives it — listing pages, entries for skills/get, and the
// files resources/read returns — so that a test can make every one of them lie.
import { createHash } from "node:crypto";
import { Client, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { startRawHttp, type RawHttpServer } from "../helpers/raw-http.js";
import { startRawStdio, type JsonObject, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

export type Transport = "stdio" | "Streamable HTTP";
export const TRANSPORTS: readonly Transport[] = ["stdio", "Streamable HTTP"];

const EXTENSION = "io.modelcontextprotocol/skills";
const CAPABILITIES = { resources: {}, extensions: { [EXTENSION]: {} } };

export const digestOf = (bytes: string | Buffer): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
export const fileEntry = (uri: string, text: string): JsonObject => ({ uri, digest: digestOf(text), size: Buffer.byteLength(text) });

/** A SKILL.md of `yaml` front matter (written with its line breaks) and a short body. */
export const skillMd = (yaml: string): string => `---\n${yaml}---\n# Body\n`;

/** The entry of a skill `name` whose only file is its SKILL.md `text`. */
export function entryFor(name: string, frontmatter: JsonObject, text: string): JsonObject {
  const uri = `skill://${name}/SKILL.md`;
  return { uri, frontmatter, resources: [fileEntry(uri, text)] };
}

export interface Script {
  /** The pages of skills/list (the cursor of page i is "p<i>"); a function for pages without end. */
  pages?: unknown[][] | ((page: number) => { skills: unknown[]; nextCursor?: string });
  /** What resources/read returns, by URI: a text, or a result of its own. */
  files?: Record<string, string | JsonObject>;
  /** What skills/get answers, by URI. */
  got?: Record<string, unknown>;
}

export interface SkillServer {
  readonly server: ServerHandle;
  readonly client: Client;
  readonly logger: CapturingLogger;
  readonly raw: RawStdioServer | undefined;
  readonly http: RawHttpServer | undefined;
  /** The URIs the server was asked to read, once what the client sent before has arrived. */
  readonly reads: () => Promise<string[]>;
}

type Handler = (message: RpcMessage) => JsonObject | { error: { code: number; message: string } };

function handlers(script: Script): Record<string, Handler> {
  const pages = script.pages ?? [[]];
  return {
    "skills/list": (m) => {
      const cursor = m.params?.["cursor"];
      const at = typeof cursor === "string" && cursor.startsWith("p") ? Number(cursor.slice(1)) : 0;
      if (typeof pages === "function") return pages(at);
      return { skills: pages[at] ?? [], ...(at + 1 < pages.length ? { nextCursor: `p${at + 1}` } : {}) };
    },
    "skills/get": (m) => {
      const uri = m.params?.["uri"] as string;
      const got = script.got ?? {};
      return Object.hasOwn(got, uri) ? { skill: got[uri] as JsonObject } : { error: { code: -32602, message: `no skill ${uri}` } };
    },
    "resources/read": (m) => {
      const uri = m.params?.["uri"] as string;
      const file = script.files?.[uri];
      if (file === undefined) return { error: { code: -32002, message: `no resource ${uri}` } };
      return typeof file === "string" ? { contents: [{ uri, mimeType: "text/markdown", text: file }] } : file;
    },
    "resources/list": () => ({ resources: [] }),
    ping: () => ({}),
  };
}

/** A skills server over `transport`, connected from a new Client; its options go to `connect`. */
export async function skillServer(transport: Transport, script: Script = {}, options: { maxMessageBytes?: number } = {}): Promise<SkillServer> {
  const logger = capturingLogger();
  const client = track(new Client({ name: "skills-host", version: "1", logger }));
  const connect = { protocolVersion: "2025-11-25" as const, ...options };
  if (transport === "stdio") {
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: "2025-11-25", capabilities: CAPABILITIES });
    for (const [method, fn] of Object.entries(handlers(script))) raw.handle(method, fn);
    const server = await client.connect("skills", raw.target, connect);
    // One pipe keeps the order: what the client wrote before a round trip has arrived after it.
    const reads = async () => {
      await server.ping();
      return (raw.messages as RpcMessage[]).filter((m) => m.method === "resources/read").map((m) => m.params?.["uri"] as string);
    };
    return { server, client, logger, raw, http: undefined, reads };
  }
  const http = track(await startRawHttp({ capabilities: CAPABILITIES }));
  for (const [method, fn] of Object.entries(handlers(script))) http.handle(method, fn);
  const server = await client.connect("skills", { url: http.url }, connect);
  // Each request is its own POST, recorded when it arrives: a read sent has been recorded once
  // its call settled, which the callers wait for.
  const reads = () => Promise.resolve(http.requests.map((r) => r.json as RpcMessage | undefined).filter((m) => m?.method === "resources/read").map((m) => m?.params?.["uri"] as string));
  return { server, client, logger, raw: undefined, http, reads };
}

/** What `promise` rejected with (it must reject). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value: unknown) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error,
  );
}
