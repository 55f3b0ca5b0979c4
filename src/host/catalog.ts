/**
 * One catalog across the client's ready servers: every tool, resource and prompt with the id of
 * its server and, for tools, a `qualifiedName` unique across servers and valid for every major
 * model API (`^[a-zA-Z0-9_-]{1,64}$`). The name is `<serverId>_<name>` with other characters
 * made `_`; one too long, or that would clash with another, ends in a short hash of the server
 * id and the name, so that it is stable across runs and never merged with another tool.
 *
 * Lists are cached per server and dropped when the server says they changed
 * (`notifications/*\/list_changed`, which `watch` asks for in the modern era), or on request
 * (`refresh`).
 */
import { ClientError } from "../util/errors.js";
import type { CallOptions, ServerHandle } from "../server.js";
import type { CallToolResult, Prompt, Resource, Tool } from "../protocol/types/index.js";

export type CatalogTool = Tool & { readonly serverId: string; readonly qualifiedName: string };
export type CatalogResource = Resource & { readonly serverId: string };
export type CatalogPrompt = Prompt & { readonly serverId: string };

export interface CatalogOptions {
  /** List afresh, whatever is cached. */
  refresh?: boolean | undefined;
}

/** What the catalog needs of its client. */
export interface CatalogSource {
  servers(): ServerHandle[];
  onNotification(listener: (notification: { serverId: string; method: string }) => void): () => void;
}

type Kind = "tools" | "resources" | "prompts";
const CHANGED: Readonly<Record<string, Kind>> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;
const HASH_CHARS = 8;

export class Catalog {
  private readonly cache = new Map<string, Partial<Record<Kind, Promise<unknown[]>>>>();
  /** The last listing's tools, by qualified name, for `callTool`. */
  private routes = new Map<string, { serverId: string; name: string }>();

  constructor(private readonly source: CatalogSource) {
    source.onNotification(({ serverId, method }) => {
      const kind = CHANGED[method];
      if (kind !== undefined) delete this.cache.get(serverId)?.[kind];
    });
  }

  async tools(options: CatalogOptions = {}): Promise<CatalogTool[]> {
    const lists = await this.gather("tools", options, (server) => server.listTools());
    const taken = new Set<string>();
    const routes = new Map<string, { serverId: string; name: string }>();
    const tools: CatalogTool[] = [];
    for (const { serverId, items } of lists) {
      for (const tool of items as Tool[]) {
        const qualifiedName = qualify(serverId, tool.name, taken);
        taken.add(qualifiedName);
        routes.set(qualifiedName, { serverId, name: tool.name });
        tools.push({ ...tool, serverId, qualifiedName });
      }
    }
    this.routes = routes;
    return tools;
  }

  async resources(options: CatalogOptions = {}): Promise<CatalogResource[]> {
    const lists = await this.gather("resources", options, (server) => server.listResources());
    return lists.flatMap(({ serverId, items }) => (items as Resource[]).map((resource) => ({ ...resource, serverId })));
  }

  async prompts(options: CatalogOptions = {}): Promise<CatalogPrompt[]> {
    const lists = await this.gather("prompts", options, (server) => server.listPrompts());
    return lists.flatMap(({ serverId, items }) => (items as Prompt[]).map((prompt) => ({ ...prompt, serverId })));
  }

  /** Calls a tool by its qualified name, on its server. */
  async callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    let route = this.routes.get(qualifiedName);
    if (route === undefined) {
      await this.tools();
      route = this.routes.get(qualifiedName);
    }
    if (route === undefined) throw new ClientError("usage", `no tool of the catalog is named ${JSON.stringify(qualifiedName).slice(0, 100)}`);
    const server = this.source.servers().find((candidate) => candidate.id === route.serverId);
    if (server === undefined) throw new ClientError("closed", `the server of ${qualifiedName} ("${route.serverId}") is not ready`, { serverId: route.serverId });
    return server.callTool(route.name, args, options);
  }

  /** Each ready server's list of `kind`, cached; a server whose list fails is left out (and its cache dropped). */
  private async gather(kind: Kind, options: CatalogOptions, list: (server: ServerHandle) => Promise<unknown[]>): Promise<Array<{ serverId: string; items: unknown[] }>> {
    const servers = this.source.servers().filter((server) => offers(server, kind));
    const ready = new Set(servers.map((server) => server.id));
    for (const id of this.cache.keys()) if (!ready.has(id)) this.cache.delete(id);
    const lists = await Promise.all(
      servers.map(async (server) => {
        let entry = this.cache.get(server.id);
        if (entry === undefined) this.cache.set(server.id, (entry = {}));
        if (options.refresh === true || entry[kind] === undefined) entry[kind] = list(server);
        const pending = entry[kind];
        try {
          return { serverId: server.id, items: await pending };
        } catch {
          if (entry[kind] === pending) delete entry[kind];
          return { serverId: server.id, items: [] as unknown[] };
        }
      }),
    );
    return lists;
  }
}

function offers(server: ServerHandle, kind: Kind): boolean {
  return server.serverCapabilities[kind] !== undefined;
}

/** `<serverId>_<name>`, valid for model APIs; shortened with a stable hash when too long or taken. */
export function qualify(serverId: string, name: string, taken: ReadonlySet<string>): string {
  const plain = `${serverId}_${name}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (VALID.test(plain) && !taken.has(plain)) return plain;
  const hash = fnv1a(`${serverId}\u0000${name}`).toString(16).padStart(HASH_CHARS, "0");
  return `${plain.slice(0, 64 - HASH_CHARS - 1)}_${hash}`;
}

/** FNV-1a, 32 bits: a short hash that stays the same from run to run. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
