// `node cold-start.mjs <client> <command> [args…]`: a host's first moments: import the client,
// spawn and connect to the stdio server, make the first call. It prints {"ready"} once the
// call's answer is in (the parent times spawn → that line), then closes and exits.
import { performance } from "node:perf_hooks";
import { connectStdio, firstText } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";

const name = clientArg();
const [command, ...args] = process.argv.slice(3);
const started = performance.now(); // ms since this process started
const connection = await connectStdio(name, { command, args });
const connected = performance.now();
const text = firstText(await connection.call("echo", { text: "first call" }));
if (text !== "first call") throw new Error(`unexpected echo: ${text}`);
const answered = performance.now();
emit({ ready: true, startMs: started, connectMs: connected - started, callMs: answered - connected });
await connection.close();
