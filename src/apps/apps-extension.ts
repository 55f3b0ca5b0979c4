/**
 * The MCP Apps extension as a host declares it (apps.mdx 2026-01-26, "Client capabilities"):
 * `io.modelcontextprotocol/ui` with the MIME types of the views it renders, for the client's
 * `extensions` option. A server may then list tools made for its views alone, which the catalog
 * and the adapters keep from the model.
 */
import { APPS_EXTENSION, APP_MIME_TYPE } from "./apps-tool-meta.js";

/** The settings of the apps extension: the views the host renders. */
// A type, not an interface: it must be assignable to the JSON objects the option takes.
export type AppsExtensionSettings = { mimeTypes: string[] };

/**
 * `{ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } }`, a fresh
 * object each time, to give as `extensions` or spread into it beside others:
 * `new Client({ name, version, extensions: appsExtension() })`.
 */
export function appsExtension(): { [APPS_EXTENSION]: AppsExtensionSettings } {
  return { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } };
}
