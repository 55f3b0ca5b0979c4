// A legacy Streamable HTTP server (2025-11-25) that floods its client with requests on the
// standalone GET stream, in a process of its own, so that what it holds does not weigh on the
// memory the test measures. It counts the client's answers to the flood instead of keeping them.
//
//   node flood-http-server.mjs      (prints its port on the first line of stdout)
//
// MCP on /mcp: initialize, ping, notifications (202), the GET stream, and the answers to the
// flood: counted and accepted (202) while reading, held unanswered (the socket open, no reply)
// while not. Control on /control, JSON in and out:
//   POST /control/flood   {count, method, prefix,  resolves once all were written to the stream
//                          params, notify}          (notify: notifications, without ids)
//   POST /control/reading {on}                      on: answers every held POST with 202
//   GET  /control/tally?atLeast=N&timeoutMs=T       the counts once N answers came (or at T),
//                                                   and how many POSTs are held unanswered
//   GET  /control/held?atLeast=N&timeoutMs=T        once N POSTs are held unanswered (or at T)
//   GET  /control/stream                            resolves once the GET stream is open
import http from "node:http";

/** @type {import("node:http").ServerResponse | undefined} */
let stream;
/** @type {Array<() => void>} */
let streamWaiters = [];
let reading = true;
/** @type {Array<{ res: import("node:http").ServerResponse, message: unknown }>} */
let held = [];
const tally = { answers: 0, results: 0, errors: /** @type {Record<string, number>} */ ({}) };
/** @type {Array<{ atLeast: number, res: import("node:http").ServerResponse, timer: NodeJS.Timeout }>} */
let tallyWaiters = [];
/** @type {Array<{ atLeast: number, res: import("node:http").ServerResponse, timer: NodeJS.Timeout }>} */
let heldWaiters = [];

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const body = Buffer.concat(chunks).toString("utf8");
    if (url.pathname.startsWith("/control/")) return control(url, body, res);
    if (url.pathname !== "/mcp") return end(res, 404);
    if (req.method === "GET") return openStream(res);
    if (req.method === "DELETE") return end(res, 200);
    if (req.method === "POST") return mcp(body, res);
    end(res, 405);
  });
});

/** @param {import("node:http").ServerResponse} res @param {number} status @param {unknown} [json] @param {Record<string, string>} [headers] */
function end(res, status, json, headers = {}) {
  if (json === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(json));
}

/** @param {string} body @param {import("node:http").ServerResponse} res */
function mcp(body, res) {
  let message;
  try {
    message = JSON.parse(body);
  } catch {
    return end(res, 400);
  }
  if (typeof message.method === "string" && message.id !== undefined) {
    if (message.method === "initialize") {
      const result = { protocolVersion: "2025-11-25", capabilities: { tools: {}, logging: {}, resources: { subscribe: true } }, serverInfo: { name: "flood-http", version: "0" } };
      return end(res, 200, { jsonrpc: "2.0", id: message.id, result }, { "mcp-session-id": "flood-session" });
    }
    if (message.method === "ping") return end(res, 200, { jsonrpc: "2.0", id: message.id, result: {} });
    return end(res, 200, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  }
  if (typeof message.method === "string") return end(res, 202);
  // An answer to one of our requests.
  if (!reading) {
    held.push({ res, message });
    heldWaiters = heldWaiters.filter((waiter) => {
      if (held.length < waiter.atLeast) return true;
      clearTimeout(waiter.timer);
      end(waiter.res, 200, { held: held.length });
      return false;
    });
    return;
  }
  count(message);
  end(res, 202);
}

/** @param {any} message */
function count(message) {
  tally.answers += 1;
  if (message.error !== undefined) {
    const code = String(message.error?.code);
    tally.errors[code] = (tally.errors[code] ?? 0) + 1;
  } else tally.results += 1;
  tallyWaiters = tallyWaiters.filter((waiter) => {
    if (tally.answers < waiter.atLeast) return true;
    clearTimeout(waiter.timer);
    end(waiter.res, 200, { ...tally, held: held.length });
    return false;
  });
}

/** @param {import("node:http").ServerResponse} res */
function openStream(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  stream = res;
  res.on("close", () => {
    if (stream === res) stream = undefined;
  });
  for (const waiter of streamWaiters.splice(0)) waiter();
}

/** @param {URL} url @param {string} body @param {import("node:http").ServerResponse} res */
async function control(url, body, res) {
  const args = body === "" ? {} : JSON.parse(body);
  switch (url.pathname) {
    case "/control/stream":
      if (stream === undefined) await new Promise((resolve) => streamWaiters.push(resolve));
      return end(res, 200, {});
    case "/control/flood":
      return end(res, 200, await flood(Number(args.count), String(args.method ?? "ping"), String(args.prefix ?? "flood-"), args.params, args.notify === true));
    case "/control/reading":
      reading = args.on === true;
      if (reading) {
        for (const waiting of held.splice(0)) {
          count(waiting.message);
          end(waiting.res, 202);
        }
      }
      return end(res, 200, {});
    case "/control/held": {
      const atLeast = Number(url.searchParams.get("atLeast") ?? 0);
      const timeoutMs = Number(url.searchParams.get("timeoutMs") ?? 10_000);
      if (held.length >= atLeast) return end(res, 200, { held: held.length });
      const waiter = { atLeast, res, timer: setTimeout(() => {
        heldWaiters = heldWaiters.filter((w) => w !== waiter);
        end(res, 200, { held: held.length });
      }, timeoutMs) };
      heldWaiters.push(waiter);
      return;
    }
    case "/control/tally": {
      const atLeast = Number(url.searchParams.get("atLeast") ?? 0);
      const timeoutMs = Number(url.searchParams.get("timeoutMs") ?? 10_000);
      if (tally.answers >= atLeast) return end(res, 200, { ...tally, held: held.length });
      const waiter = { atLeast, res, timer: setTimeout(() => {
        tallyWaiters = tallyWaiters.filter((w) => w !== waiter);
        end(res, 200, { ...tally, held: held.length });
      }, timeoutMs) };
      tallyWaiters.push(waiter);
      return;
    }
    default:
      return end(res, 404);
  }
}

/**
 * Writes `count` requests (or notifications) on the stream, 1 024 events to a write, as fast as
 * the client reads.
 * @param {number} count @param {string} method @param {string} prefix @param {unknown} params @param {boolean} notify
 */
async function flood(count, method, prefix, params, notify) {
  const tail = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
  const target = stream;
  if (target === undefined) return { ok: false, error: "no stream" };
  let written = 0;
  while (written < count) {
    let chunk = "";
    const end = Math.min(count, written + 1024);
    for (let i = written; i < end; i++) {
      const id = notify ? "" : `"id":${JSON.stringify(prefix + i)},`;
      chunk += `data: {"jsonrpc":"2.0",${id}"method":${JSON.stringify(method)}${tail}}\n\n`;
    }
    written = end;
    if (!target.write(chunk)) await drained(target);
    if (target.destroyed) return { ok: false, written };
  }
  return { ok: true, written };
}

/** @param {import("node:http").ServerResponse} res */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve(undefined);
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
// Without the test there is nobody to flood: leave with it.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
