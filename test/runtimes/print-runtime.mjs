// Prints the runtime running it ("deno 2.9.6", "bun 1.4.5", "node 20.20.2"): what
// runtime.probe.ts reads from a child spawned with `process.execPath`.
const deno = globalThis.Deno;
console.log(process.versions.bun !== undefined ? `bun ${process.versions.bun}` : deno !== undefined ? `deno ${deno.version.deno}` : `node ${process.versions.node}`);
