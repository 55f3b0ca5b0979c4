#!/usr/bin/env node
// A trip planner: a small MCP server that shows every feature a host has to handle, built on the
// official server library (@modelcontextprotocol/server). Connect Conduit's terminal host to it
// and try the tools one by one; examples/demo-server.md says what each one shows.
//
//   node examples/demo-server.mjs                      stdio, both protocol eras
//   node examples/demo-server.mjs --era legacy         only 2025-11-25 (initialize, server requests)
//   node examples/demo-server.mjs --era modern         only 2026-07-28 (server/discover, input_required)
//   node examples/demo-server.mjs --http [--port N]    Streamable HTTP on 127.0.0.1
//
// On stdio, stdout carries nothing but MCP; over HTTP it carries one line, {"url": "..."}, once
// the server listens. Everything meant for a person goes to stderr.
//
// One factory, createTripServer(), defines the tools once for both eras. A tool that needs
// something from the user returns `inputRequired(...)`: a 2026-07-28 client gets
// `resultType: "input_required"` and calls again with the answers (MRTR); on a 2025-era
// connection the library turns the same return into a real server-to-client request and calls
// the tool again with the answer. The only era-specific code is the tasks part (see "Tasks").
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import * as z from "zod";
import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  ResourceNotFoundError,
  ResourceTemplate,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  completable,
  createMcpHandler,
  hostHeaderValidationResponse,
  inputRequired,
  inputResponse,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
} from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";

// ---- command line ---------------------------------------------------------------------------

const USAGE = "usage: node examples/demo-server.mjs [--era legacy|modern|both] [--http [--port N]]";

function readOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        era: { type: "string", default: "both" },
        http: { type: "boolean", default: false },
        port: { type: "string", default: "0" },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    fail(error.message);
  }
  if (parsed.help) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!["legacy", "modern", "both"].includes(parsed.era)) fail(`--era must be legacy, modern or both, not ${JSON.stringify(parsed.era)}`);
  const port = Number(parsed.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${JSON.stringify(parsed.port)}`);
  return { era: parsed.era, http: parsed.http, port };
}

function fail(message) {
  process.stderr.write(`demo-server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const options = readOptions();
const say = (message) => process.stderr.write(`[demo-server] ${message}\n`);

// ---- the trip data --------------------------------------------------------------------------

const CITIES = {
  kyoto: "Kyoto: temples, tea houses and the bamboo grove of Arashiyama.",
  lima: "Lima: ceviche by the Pacific and the old town's balconies.",
  lisbon: "Lisbon: yellow trams, custard tarts and fado at night.",
  london: "London: museums for free, markets and the river walk.",
  oslo: "Oslo: the opera roof, fjord ferries and the Viking ships.",
  reykjavik: "Reykjavik: hot springs, lava fields and the northern lights.",
};
const cityNames = (prefix = "") => Object.keys(CITIES).filter((name) => name.startsWith(prefix.toLowerCase()));

const SUITCASE = ["passport", "tickets", "charger", "toothbrush", "sunglasses", "map", "camera", "socks", "umbrella", "snacks"];
const SEASONS = ["spring", "summer", "autumn", "winter"];

const README = `# Trip planner

A demo MCP server: each tool shows one thing an MCP host must handle.

- book: a form with a secret field (elicitation, form mode)
- pay: a link to visit (elicitation, URL mode)
- suggest: a model completion (sampling)
- roots: the folders your host shares (roots)
- pack: progress notifications
- log: log messages at every level from debug to error
- plan: a task that asks a question while it runs (tasks)
- unlock: adds a tool (tools/list_changed)

Also: the template trip://city/{name} (with completion), and the prompt "itinerary".
`;

const text = (value) => ({ content: [{ type: "text", text: value }] });

/** Sleeps, and wakes early (returning false) when the signal aborts. */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

// ---- the booking form -----------------------------------------------------------------------

// One zod schema is both the form the client shows (the library turns it into the flat JSON
// Schema of elicitation) and the check of the answer, which comes from the client and is
// untrusted. The field named "password" is one a careful host masks: Conduit flags fields whose
// name, title or description suggest a secret as `sensitiveSuspected`.
const BookingForm = z.object({
  name: z.string().min(1).meta({ title: "Traveller name", description: "As written in the passport" }),
  cabin: z.enum(["economy", "premium", "business"]).default("economy").meta({ title: "Cabin", description: "Where to sit" }),
  seats: z.number().int().min(1).max(6).default(1).meta({ title: "Seats", description: "How many seats, 1 to 6" }),
  newsletter: z.boolean().default(false).meta({ title: "Newsletter", description: "Send me travel deals" }),
  password: z.string().min(1).meta({ title: "Account password", description: "The password of your travel account" }),
});

// ---- tasks ----------------------------------------------------------------------------------
//
// `plan` runs as a task: it answers at once with a task id, works in the background, asks the
// user a question halfway, and the client polls until it ends. The official library 2.4.0 has
// no task runtime (no task store, and `registerTool` drops `execution`), but it lets a server
// add the task methods with `setRequestHandler(method, { params }, handler)`. The two eras put
// tasks on the wire differently:
//
// - 2025-11-25: the tool says `execution.taskSupport: "required"` and the server declares
//   `capabilities.tasks`; the client polls `tasks/get` and, once the task needs input or has
//   ended, calls `tasks/result`, which blocks until the end. While it blocks, the server sends
//   its question as an `elicitation/create` request tagged with the task's id.
// - 2026-07-28 (the io.modelcontextprotocol/tasks extension): the server decides to make a task
//   (`resultType: "task"`); `tasks/get` carries the question in `inputRequests` and, at the end,
//   the result; the client answers with `tasks/update`.

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
// Long enough to watch the status change at a terminal; DEMO_STEP_MS makes it faster (tests).
const TASK_STEP_MS = Number(process.env.DEMO_STEP_MS ?? 400);
if (!Number.isInteger(TASK_STEP_MS) || TASK_STEP_MS < 0 || TASK_STEP_MS > 60_000) fail("DEMO_STEP_MS must be a number of milliseconds");
const TASK_POLL_MS = Math.max(10, Math.round(TASK_STEP_MS / 2));
const TASK_TTL_MS = 10 * 60_000;

/** Every task of this process. A real server would keep them per user, and in a store. */
const tasks = new Map();
let lastTaskNumber = 0;

/** The question `plan` asks, in the same shape for both eras. */
const seasonQuestion = (destination) =>
  inputRequired.elicit({
    message: `Which season would you like to visit ${destination} in?`,
    requestedSchema: {
      type: "object",
      properties: { season: { type: "string", title: "Season", enum: SEASONS, default: "spring" } },
      required: ["season"],
    },
  });

const seasonOf = (answer) => (answer?.action === "accept" && SEASONS.includes(answer.content?.season) ? answer.content.season : undefined);

const itinerary = (destination, season) =>
  season === undefined
    ? `Your trip to ${destination}: three days, season still open. Enjoy!`
    : `Your trip to ${destination} in ${season}: three days, flights and a hotel by the old town. Enjoy!`;

/** Starts the work of `plan` and returns the task at once. */
function startPlanTask(destination, era) {
  const now = new Date().toISOString();
  const task = {
    taskId: `plan-${++lastTaskNumber}`,
    era,
    status: "working",
    statusMessage: "checking flights",
    createdAt: now,
    lastUpdatedAt: now,
    stop: new AbortController(),
  };
  task.ended = new Promise((resolve) => (task.end = resolve));
  // 2025-11-25: the question waits for a `tasks/result` request to travel with.
  task.resultAsked = new Promise((resolve) => (task.carrier = resolve));
  tasks.set(task.taskId, task);
  // Past its time to live a task is gone, and so is its work if it still waits for an answer.
  setTimeout(() => {
    cancelTask(task);
    tasks.delete(task.taskId);
  }, TASK_TTL_MS).unref();
  void runPlan(task, destination);
  return task;
}

function setStatus(task, status, statusMessage) {
  task.status = status;
  task.statusMessage = statusMessage;
  task.lastUpdatedAt = new Date().toISOString();
  if (status === "completed" || status === "failed" || status === "cancelled") task.end();
}

async function runPlan(task, destination) {
  if (!(await sleep(TASK_STEP_MS, task.stop.signal))) return;
  setStatus(task, "input_required", "waiting for the season");
  const answer = await askDuringTask(task, seasonQuestion(destination));
  if (task.status === "cancelled") return;
  setStatus(task, "working", "building the itinerary");
  if (!(await sleep(TASK_STEP_MS, task.stop.signal))) return;
  task.result = text(itinerary(destination, seasonOf(answer)));
  setStatus(task, "completed", "done");
}

/** Asks the user while the task runs; resolves with the answer, or undefined when cancelled. */
async function askDuringTask(task, question) {
  if (task.era === "modern") {
    // Shown on every tasks/get until tasks/update answers it.
    task.inputRequests = { season: question };
    const answer = await new Promise((resolve) => (task.answer = resolve));
    task.inputRequests = undefined;
    return answer;
  }
  const carrier = await Promise.race([task.resultAsked, task.ended]);
  if (carrier === undefined) return undefined;
  try {
    return await carrier.mcpReq.elicitInput({ ...question.params, _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } } });
  } catch (error) {
    // The client refused to ask, or went away: the plan goes on without an answer.
    say(`plan: the question of task ${task.taskId} got no answer (${error.message})`);
    return undefined;
  }
}

/** The task as each era's `tasks/get` shows it. */
function taskOnWire(task) {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = task;
  if (task.era === "legacy") return { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl: TASK_TTL_MS, pollInterval: TASK_POLL_MS };
  const shown = { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs: TASK_TTL_MS, pollIntervalMs: TASK_POLL_MS };
  if (task.inputRequests !== undefined) shown.inputRequests = task.inputRequests;
  if (status === "completed") shown.result = task.result;
  return shown;
}

function findTask(taskId, era) {
  const task = tasks.get(taskId);
  if (task === undefined || task.era !== era) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
  return task;
}

function cancelTask(task) {
  if (task.status === "completed" || task.status === "failed" || task.status === "cancelled") return;
  setStatus(task, "cancelled", "cancelled by the client");
  task.stop.abort();
  task.answer?.(undefined);
}

/** Whether this client can follow a task; one that cannot gets the same question inline. */
function followsTasks(era, server, ctx) {
  if (era === "modern") return ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY]?.extensions?.[TASKS_EXTENSION] !== undefined;
  // A 2025 connection has one version for its life, agreed in initialize (older ones have no tasks).
  return server.server.getNegotiatedProtocolVersion() === "2025-11-25";
}

function registerTaskMethods(server, era) {
  const byId = z.looseObject({ taskId: z.string() });
  server.server.setRequestHandler("tasks/get", { params: byId }, async ({ taskId }) => taskOnWire(findTask(taskId, era)));
  server.server.setRequestHandler("tasks/cancel", { params: byId }, async ({ taskId }) => {
    const task = findTask(taskId, era);
    if (era === "legacy" && task.status !== "working" && task.status !== "input_required") {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} has already ended`);
    }
    cancelTask(task);
    return era === "legacy" ? taskOnWire(task) : {};
  });
  if (era === "modern") {
    // The library lifts `inputResponses` out of the params into ctx, as for a retried tools/call.
    server.server.setRequestHandler("tasks/update", { params: byId }, async ({ taskId }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "season");
      if (answer.kind === "elicit") findTask(taskId, era).answer?.(answer);
      return {};
    });
    return;
  }
  server.server.setRequestHandler("tasks/result", { params: byId }, async ({ taskId }, ctx) => {
    const task = findTask(taskId, era);
    task.carrier(ctx);
    await task.ended;
    if (task.status !== "completed") throw new ProtocolError(ProtocolErrorCode.InternalError, `Task ${taskId} ended ${task.status}`);
    return { ...task.result, _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
  });
  server.server.setRequestHandler("tasks/list", { params: z.looseObject({}) }, async () => ({
    tasks: [...tasks.values()].filter((task) => task.era === era).map(taskOnWire),
  }));
}

// ---- the server -----------------------------------------------------------------------------

/** Set once `unlock` ran: every server instance made afterwards has the `souvenir` tool too. */
let souvenirUnlocked = false;
/** The modern HTTP handler: its `notify` reaches the clients listening for list changes. */
let modernHttp;

function registerSouvenir(server) {
  return server.registerTool(
    "souvenir",
    { description: "Suggests a souvenir to bring home (added at runtime by unlock)", inputSchema: z.object({}) },
    async () => text("A tin of sardines from Lisbon, wrapped in a map."),
  );
}

/** @param {{ era?: "legacy" | "modern" }} context what the serving entry says the instance speaks */
function createTripServer(context) {
  const era = context?.era ?? "legacy";
  const server = new McpServer(
    { name: "trip-planner", title: "Trip planner (Conduit demo)", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: {},
        prompts: {},
        logging: {},
        // Tasks are declared where each era declares them (see "Tasks" above).
        ...(era === "legacy"
          ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
          : { extensions: { [TASKS_EXTENSION]: {} } }),
      },
      instructions: "A trip planner that shows every MCP feature. Start with `book`, then try the other tools.",
    },
  );
  server.server.onerror = (error) => say(`error: ${error.message}`);

  // 1. A form with a secret field.
  server.registerTool(
    "book",
    {
      description: "Books seats on a trip: asks for a form with a secret field (elicitation, form mode)",
      inputSchema: z.object({ destination: z.string().optional().describe("Where to go (default Lisbon)") }),
    },
    async ({ destination = "Lisbon" }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "booking");
      if (answer.kind !== "elicit") {
        const form = inputRequired.elicit({ message: `Booking a trip to ${destination}: who is travelling?`, requestedSchema: BookingForm });
        return inputRequired({ inputRequests: { booking: form } });
      }
      if (answer.action === "decline") return text("Booking declined: nothing was booked.");
      if (answer.action === "cancel") return text("Booking cancelled: nothing was booked.");
      const booking = acceptedContent(ctx.mcpReq.inputResponses, "booking", BookingForm);
      if (booking === undefined) return { ...text("The booking form came back incomplete: nothing was booked."), isError: true };
      // The password is used (here: measured), never repeated: results end up in logs and chats.
      const seats = booking.seats === 1 ? "1 seat" : `${booking.seats} seats`;
      return text(
        `Booked ${seats} in ${booking.cabin} to ${destination} for ${booking.name}. ` +
          `Newsletter: ${booking.newsletter ? "yes" : "no"}. Password received (${booking.password.length} characters, not shown).`,
      );
    },
  );

  // 2. A page to visit.
  server.registerTool(
    "pay",
    {
      description: "Asks you to open a payment page (elicitation, URL mode); nothing is charged",
      inputSchema: z.object({ amount: z.number().int().min(1).optional().describe("Amount in euros (default 120)") }),
    },
    async ({ amount = 120 }, ctx) => {
      const url = `https://example.com/pay?trip=lisbon&amount=${amount}`;
      const answer = inputResponse(ctx.mcpReq.inputResponses, "payment");
      if (answer.kind !== "elicit") {
        const visit = inputRequired.elicitUrl({ message: `Open the payment page to pay ${amount} EUR for your trip.`, url });
        return inputRequired({ inputRequests: { payment: visit } });
      }
      if (answer.action === "accept") return text(`Accepted: you agreed to open ${url} (a demo: nothing is charged).`);
      return text(`${answer.action === "decline" ? "Declined" : "Cancelled"}: the payment page was not opened.`);
    },
  );

  // 3. A model completion, through the host (which may show it to the user first).
  server.registerTool(
    "suggest",
    {
      description: "Asks the host's model for an idea of what to do in a city (sampling)",
      inputSchema: z.object({ city: z.string().optional().describe("The city (default Lisbon)") }),
    },
    async ({ city = "Lisbon" }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "idea");
      if (answer.kind !== "sampling") {
        const ask = inputRequired.createMessage({
          systemPrompt: "You are a friendly travel guide. Answer in one short sentence.",
          messages: [{ role: "user", content: { type: "text", text: `Suggest one thing to do in ${city}.` } }],
          maxTokens: 200,
        });
        return inputRequired({ inputRequests: { idea: ask } });
      }
      const blocks = Array.isArray(answer.result.content) ? answer.result.content : [answer.result.content];
      return text(blocks.filter((block) => block?.type === "text").map((block) => block.text).join(""));
    },
  );

  // 4. The folders the host shares.
  server.registerTool(
    "roots",
    { description: "Lists the folders your host shares with this server (roots)", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (answer.kind !== "roots") return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      if (answer.roots.length === 0) return text("Your host shares no folders.");
      const lines = answer.roots.map((root) => `- ${root.name === undefined ? "" : `${root.name}: `}${root.uri}`);
      return text(`Your host shares ${answer.roots.length === 1 ? "1 folder" : `${answer.roots.length} folders`}:\n${lines.join("\n")}`);
    },
  );

  // 5. Progress, while a long call runs.
  server.registerTool(
    "pack",
    {
      description: "Packs the suitcase item by item, reporting progress",
      inputSchema: z.object({
        items: z.number().int().min(1).max(SUITCASE.length).optional().describe(`How many items to pack, 1 to ${SUITCASE.length} (default ${SUITCASE.length})`),
        delayMs: z.number().int().min(0).max(5000).optional().describe("Milliseconds per item (default 200)"),
      }),
    },
    async ({ items = SUITCASE.length, delayMs = 200 }, ctx) => {
      // Progress goes only to a client that asked for it, by sending a progress token.
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= items; i++) {
        if (!(await sleep(delayMs, ctx.mcpReq.signal))) return text(`Stopped after ${i - 1} items.`);
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: items, message: `packed the ${SUITCASE[i - 1]}` },
          });
        }
      }
      return text(`Packed ${items === 1 ? "1 item" : `${items} items`}: ${SUITCASE.slice(0, items).join(", ")}.`);
    },
  );

  // 6. Log messages. A 2026-07-28 client gets them only when its request names a log level.
  server.registerTool(
    "log",
    { description: "Writes the travel log: one message at each level from debug to error", inputSchema: z.object({}) },
    async (_args, ctx) => {
      await ctx.mcpReq.log("debug", "checked 42 flight offers", "trip-planner");
      await ctx.mcpReq.log("info", "found a hotel by the old town", "trip-planner");
      await ctx.mcpReq.log("notice", "the museum is closed on Mondays", "trip-planner");
      await ctx.mcpReq.log("warning", "rain is likely on day 2", "trip-planner");
      await ctx.mcpReq.log("error", "the night train is sold out", "trip-planner");
      return text("Wrote 5 log messages, from debug to error.");
    },
  );

  // 7. A task that asks a question while it runs.
  const plan = server.registerTool(
    "plan",
    {
      description: "Plans a trip as a task; asks which season while it runs (tasks)",
      inputSchema: z.object({ destination: z.string().optional().describe("Where to go (default Lisbon)") }),
    },
    async ({ destination = "Lisbon" }, ctx) => {
      if (!followsTasks(era, server, ctx)) {
        // A client without tasks gets the same question inline, and the plan at once.
        const answer = inputResponse(ctx.mcpReq.inputResponses, "season");
        if (answer.kind !== "elicit") return inputRequired({ inputRequests: { season: seasonQuestion(destination) } });
        return text(itinerary(destination, seasonOf(answer)));
      }
      const task = startPlanTask(destination, era);
      if (era === "modern") return { resultType: "task", ...taskOnWire(task) };
      // The 2025 library checks every tools/call result as a CallToolResult, so the task comes with
      // a line of content (which a client that knows tasks shows nowhere).
      return { ...text(`Planning your trip to ${destination} as task ${task.taskId}.`), task: taskOnWire(task) };
    },
  );
  // registerTool takes no `execution`; the registered tool keeps one, and tools/list shows it in 2025.
  plan.execution = { taskSupport: "required" };
  registerTaskMethods(server, era);

  // 8. A tool that adds a tool: the client hears notifications/tools/list_changed.
  let souvenir = souvenirUnlocked ? registerSouvenir(server) : undefined;
  server.registerTool(
    "unlock",
    { description: "Adds the souvenir tool (the client is told the tool list changed)", inputSchema: z.object({}) },
    async () => {
      if (souvenir !== undefined) return text("The souvenir tool is already there.");
      souvenirUnlocked = true;
      // On a connected instance registerTool sends the list change itself (2025: to the client;
      // 2026 stdio: to its subscriptions/listen stream). 2026 HTTP instances live for one request,
      // so the change goes through the HTTP handler to every listening client instead.
      souvenir = registerSouvenir(server);
      if (era === "modern") modernHttp?.notify.toolsChanged();
      return text("Unlocked: the souvenir tool is now in the tool list.");
    },
  );

  // Resources: a readme, and a template of cities whose name completes.
  server.registerResource(
    "readme",
    "trip://readme",
    { title: "About the trip planner", description: "What each tool of this demo shows", mimeType: "text/markdown" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: README }] }),
  );
  server.registerResource(
    "city",
    new ResourceTemplate("trip://city/{name}", { list: undefined, complete: { name: (value) => cityNames(value ?? "") } }),
    { title: "City guide", description: "A one-line guide to a city (kyoto, lima, lisbon, london, oslo, reykjavik)", mimeType: "text/plain" },
    async (uri, { name }) => {
      const guide = CITIES[String(name).toLowerCase()];
      if (guide === undefined) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: guide }] };
    },
  );

  // A prompt whose argument completes.
  server.registerPrompt(
    "itinerary",
    {
      title: "Itinerary",
      description: "Asks for a three-day itinerary for a city",
      argsSchema: z.object({ city: completable(z.string().describe("The city to visit"), (value) => cityNames(value ?? "")) }),
    },
    async ({ city }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Plan a three-day itinerary for ${city}, with one museum and one market.` } }],
    }),
  );

  return server;
}

// ---- stdio ----------------------------------------------------------------------------------

async function serveOnStdio() {
  if (options.era === "legacy") {
    // A plain 2025-era server: it knows no server/discover, so a client falls back to initialize.
    const server = createTripServer({ era: "legacy" });
    server.server.onclose = () => process.exit(0);
    await server.connect(new StdioServerTransport());
  } else {
    // serveStdio picks the era from the first message: initialize makes a 2025 instance,
    // server/discover (or any request with the 2026 _meta envelope) a 2026 one.
    serveStdio(createTripServer, { legacy: options.era === "modern" ? "reject" : "serve", onerror: (error) => say(`error: ${error.message}`) });
    process.stdin.on("end", () => setTimeout(() => process.exit(0), 50).unref());
  }
  say(`serving on stdio (era ${options.era})`);
}

// ---- Streamable HTTP ------------------------------------------------------------------------

/** 2025-era Streamable HTTP: a session per initialize, with its own server instance. */
function legacySessions() {
  const sessions = new Map();
  const refuse = (status, code, message) =>
    Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
  return async (request, body) => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return refuse(404, -32001, "Session not found");
      return transport.handleRequest(request, body === undefined ? undefined : { parsedBody: body });
    }
    const initializes = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (request.method !== "POST" || !initializes) return refuse(400, -32000, "Bad Request: No valid session ID provided");
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
      onsessionclosed: (id) => sessions.delete(id),
    });
    transport.onclose = () => sessions.delete(transport.sessionId);
    await createTripServer({ era: "legacy" }).connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };
}

/** The Node request as a web Request, and its JSON body (undefined when there is none or it is not JSON). */
async function webRequest(req, signal) {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(key, one);
  }
  const chunks = [];
  if (req.method === "POST") for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  let body;
  try {
    body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined;
  } catch {
    body = undefined;
  }
  const request = new Request(url, { method: req.method, headers, body: req.method === "POST" ? raw : undefined, signal });
  return { request, body };
}

/** Streams a web Response into the Node response (SSE included). */
async function writeResponse(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return res.end();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away
  }
  res.end();
}

function serveOnHttp() {
  const legacy = options.era === "modern" ? undefined : legacySessions();
  // 2025-era traffic never reaches the 2026 handler: it goes to the sessions above, or (era modern)
  // is refused with -32022, which names the version this server speaks.
  modernHttp = options.era === "legacy" ? undefined : createMcpHandler(createTripServer, { legacy: "reject", onerror: (error) => say(`error: ${error.message}`) });

  const httpServer = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => res.writableFinished || abort.abort());
    try {
      if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not Found: the MCP endpoint is /mcp");
        return;
      }
      const { request, body } = await webRequest(req, abort.signal);
      // Only loopback names: a web page cannot reach this server through DNS rebinding.
      const refused = hostHeaderValidationResponse(request, localhostAllowedHostnames());
      let response;
      if (refused !== undefined) response = refused;
      else if (modernHttp === undefined || (legacy !== undefined && (await isLegacyRequest(request, body)))) response = await legacy(request, body);
      else response = await modernHttp.fetch(request);
      await writeResponse(res, response);
    } catch (error) {
      say(`error: ${error.message}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null }));
    }
  });

  httpServer.listen(options.port, "127.0.0.1", () => {
    const url = `http://127.0.0.1:${httpServer.address().port}/mcp`;
    process.stdout.write(`${JSON.stringify({ url })}\n`);
    say(`listening on ${url} (era ${options.era})`);
  });
  const shutdown = () => {
    httpServer.closeAllConnections();
    httpServer.close(() => process.exit(0));
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

process.on("unhandledRejection", (error) => say(`error: ${error instanceof Error ? error.message : String(error)}`));
if (options.http) serveOnHttp();
else await serveOnStdio();
