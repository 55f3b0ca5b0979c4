// A browser app's use of the package, type-checked as its bundler's project would be: module
// resolution "bundler" (no `node` condition, so the web entry's declarations), the DOM's types
// and no @types/node. It is type-checked only; the browser tests run the code.
import * as Conduit from "conduit-mcp";
import { Client, ClientError, memoryStore, type Handler } from "conduit-mcp";
import { mountApp, type AppPortConnector, type MountedApp } from "conduit-mcp/apps-bridge";

const handler: Handler = {
  handleElicitation: () => ({ action: "decline" }),
};

export async function connectFromPage(url: string): Promise<string[]> {
  const client = new Client({ name: "page", version: "1.0.0", handler });
  try {
    const server = await client.connect("remote", { url, auth: undefined });
    const tools = await server.listTools();
    return tools.map((tool) => tool.name);
  } catch (error) {
    if (error instanceof ClientError) return [error.kind];
    throw error;
  } finally {
    await client.close();
  }
}

export const store = memoryStore();

// The web entry's declarations have none of the Node entry's parts.
// @ts-expect-error fileStore is the Node entry's
export const noFileStore: unknown = Conduit.fileStore;

// An MCP App's view mounted in the page through the sandbox proxy, with the host's session.
export function mountView(container: HTMLElement, html: string, csp: string, connect: AppPortConnector): Promise<MountedApp> {
  return mountApp({ container, sandboxUrl: "https://sandbox.example/proxy.html", resource: { html, csp }, connect, autoSize: "both" });
}
