// A minimal legacy MCP server over stdio for the heavy scenarios: one huge tool result
// (big-result) and a flood of log notifications during calls (log-flood). Hand-written like
// raw-stdio-server.mjs, so that what is measured is the client, not this program.
//
// Tools:
//   echo   { text }   → the text back
//   prepare { bytes } → builds the blob of that size ahead, so that no call times its building
//   blob   { bytes }  → one text content of exactly `bytes` ASCII characters (built once per size)
//   flood  { lines }  → answers at once, then writes `lines` notifications/message as fast as the
//                       pipe takes them
//   status {}         → text: how many flood lines are not yet written ("0" once the flood is over)
//   notify { count, kind } → writes `count` notifications first, as fast as the pipe takes them,
//                       then answers "done": kind "log" (notifications/message) or "progress"
//                       (notifications/progress for the request's _meta.progressToken, progress
//                       1…count of total count)
//
// It exits when stdin ends, so it never outlives the process that spawned it.

const VERSIONS = new Set(["2025-11-25", "2025-06-18"]);
const BATCH_LINES = 64;

let floodLeft = 0;
const blobs = new Map();

/**
 * `bytes` characters of text that look like a file or a log: printable ASCII, a line break
 * every 100 characters and a few quotes, so the JSON has escapes to undo, as real results do.
 */
function blobJson(bytes) {
  let json = blobs.get(bytes);
  if (json !== undefined) return json;
  const line = (i) => `${String(i).padStart(8, "0")} ${i % 5 === 0 ? '"quoted" ' : "plain -- "}the quick brown fox jumps over the lazy dog 0123456789 abcdefghij ABCDEFGHIJ`;
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = `${line(i).padEnd(99, ".").slice(0, 99)}\n`;
    parts.push(text);
    size += text.length;
  }
  const text = parts.join("").slice(0, bytes);
  json = JSON.stringify({ content: [{ type: "text", text }] });
  blobs.set(bytes, json);
  return json;
}

function logLine(i) {
  return `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood line ${i}: handled GET /items/${i % 977} in ${i % 13} ms (cache ${i % 3 === 0 ? "miss" : "hit"})"}}\n`;
}

// Batches built ahead and cycled, so that writing costs this process next to nothing and the
// flood runs as fast as the client reads it: the client is what is measured.
const BATCHES = Array.from({ length: 16 }, (_, b) => {
  let out = "";
  for (let i = 0; i < BATCH_LINES; i++) out += logLine(b * BATCH_LINES + i);
  return out;
});

async function flood(lines) {
  floodLeft = lines;
  let batch = 0;
  while (floodLeft > 0) {
    const n = Math.min(BATCH_LINES, floodLeft);
    const out = n === BATCH_LINES ? BATCHES[batch++ % BATCHES.length] : BATCHES[0].split("\n").slice(0, n).join("\n") + "\n";
    floodLeft -= n;
    // Yield after every batch so that requests are read and answered while the flood runs:
    // an answer waits only behind the lines already written, as with any busy server.
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once("drain", resolve));
    else await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `count` notifications of `kind`, then the answer to request `id`; batches as for the flood. */
async function notify(id, { count, kind }, token) {
  const tokenJson = JSON.stringify(token ?? null);
  const line =
    kind === "progress"
      ? (i) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${tokenJson},"progress":${i},"total":${count},"message":"step ${i}"}}\n`
      : (i) => logLine(i);
  for (let i = 1; i <= count; ) {
    let out = "";
    for (const end = Math.min(count, i + BATCH_LINES - 1); i <= end; i++) out += line(i);
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(text("done"))}}\n`);
}

const text = (value) => ({ content: [{ type: "text", text: value }] });

function tool(msg) {
  const args = msg.params?.arguments ?? {};
  switch (msg.params?.name) {
    case "echo":
      return JSON.stringify(text(args.text));
    case "prepare":
      blobJson(args.bytes);
      return JSON.stringify(text("ready"));
    case "blob":
      return blobJson(args.bytes);
    case "flood":
      setImmediate(() => void flood(args.lines));
      return JSON.stringify(text("started"));
    case "status":
      return JSON.stringify(text(String(floodLeft)));
    default:
      return undefined;
  }
}

/** The result of a request as JSON text, or undefined for an unknown method. */
function answer(msg) {
  switch (msg.method) {
    case "initialize": {
      const asked = msg.params?.protocolVersion;
      return JSON.stringify({
        protocolVersion: VERSIONS.has(asked) ? asked : "2025-11-25",
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: "stress-server", version: "1.0.0" },
      });
    }
    case "tools/call":
      return tool(msg);
    case "tools/list":
      return JSON.stringify({ tools: ["echo", "prepare", "blob", "flood", "status", "notify"].map((name) => ({ name, inputSchema: { type: "object" } })) });
    case "ping":
    case "logging/setLevel":
      return "{}";
    default:
      return undefined;
  }
}

function reply(msg) {
  const result = answer(msg);
  const id = JSON.stringify(msg.id);
  if (result !== undefined) return `{"jsonrpc":"2.0","id":${id},"result":${result}}\n`;
  // -32601 also answers a modern client's `server/discover` probe: "legacy server".
  return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}\n`;
}

let rest = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  for (const line of lines) {
    if (line === "") continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined || msg.method === undefined) continue; // notifications, responses
    if (msg.method === "tools/call" && msg.params?.name === "notify") {
      void notify(msg.id, msg.params.arguments ?? {}, msg.params._meta?.progressToken);
      continue;
    }
    process.stdout.write(reply(msg));
  }
});
process.stdin.on("end", () => process.exit(0));
