// `node import.mjs <conduit|sdk>`: how long importing the library's main entry takes in a
// fresh process (Node's own start-up is not counted: it is the same for every library).
import { performance } from "node:perf_hooks";
import { clientArg, emit } from "./emit.mjs";

const ENTRY = { conduit: "conduit-mcp", sdk: "@modelcontextprotocol/client" };

const name = clientArg(["conduit", "sdk"]);
const t0 = performance.now();
await import(ENTRY[name]);
emit({ ms: performance.now() - t0 });
