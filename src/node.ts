/**
 * The Node entry: everything of the web entry (`index.ts`), and what needs Node — stdio servers
 * and their process groups, the `node:http` backend (the default here, for its speed),
 * `fileStore`, `loopbackRedirect`, config files. Bun and Deno run it too. The package's root
 * resolves here under the `node` export condition, so `import { Client } from "conduit-mcp"`
 * on Node has every feature; `conduit-mcp/node` names it outright.
 */
import { installNodeRuntime } from "./node/runtime.js";

installNodeRuntime();

export * from "./index.js";
export { fileStore } from "./node/file-store.js";
export { loopbackRedirect, type LoopbackRedirect, type LoopbackOptions } from "./node/loopback.js";
