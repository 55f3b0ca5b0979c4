/**
 * What Node (and Bun and Deno, which run the Node entry) adds to the web-standard core: stdio
 * servers, the `node:http` backend, and the small hooks of `util/runtime.ts`. The Node entry
 * installs them as it loads (a call, not a bare import, which a bundler may drop: the package
 * says its modules have no side effects but for that entry).
 */
import { setMaxListeners } from "node:events";
import { StringDecoder } from "node:string_decoder";
import { installRuntime } from "../platform.js";
import { installLowRuntime } from "../util/runtime.js";
import { HttpAgents } from "./http-agents.js";
import { StdioTransport } from "./stdio.js";

export function installNodeRuntime(): void {
  installRuntime({
    stdio: (target, options) => new StdioTransport(target, options),
    // The proxy variables as they are when the client is made (`HTTPS_PROXY`, `NO_PROXY`, …).
    httpBackend: () => new HttpAgents(process.env),
  });
  installLowRuntime({
    unboundListeners: (signal) => setMaxListeners(0, signal),
    utf8Stream: () => new StringDecoder("utf8"),
    env: () => process.env,
    // Loaded when a config file is first read, not with the library.
    readTextFile: async (path) => (await import("node:fs/promises")).readFile(path, "utf8"),
    pkcs8FromPem: async (pem) => {
      const { createPrivateKey } = await import("node:crypto");
      return createPrivateKey(pem).export({ format: "der", type: "pkcs8" });
    },
  });
}
