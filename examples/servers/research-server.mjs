#!/usr/bin/env node
// A small MCP server whose one tool runs as a task and asks for input while it runs: `research`
// works a while, asks which angle to take (a form elicitation), works again, and reports. It is
// written by hand on JSON-RPC over stdio (the official server library has no tasks) and speaks
// both wire forms of tasks:
//
// - 2025-11-25 (`initialize`): the client asks with `params.task`; `tasks/get` polls;
//   `tasks/result` blocks until the end, and the elicitation goes to the client meanwhile as a
//   request tagged `related-task`;
// - 2026-07-28 (`server/discover`): every call of `research` makes a task (the client declares
//   the tasks extension); `tasks/get` carries the elicitation in `inputRequests`; the answer comes
//   with `tasks/update`.
//
// `stats` (a plain tool) reports the polls of the ended tasks and how many poll intervals they
// lived, for the benchmark. Environment: RESEARCH_STEP_MS (default 400), RESEARCH_POLL_MS (default 200);
// RESEARCH_LISTEN=1 honours 2026-07-28 `subscriptions/listen` for `taskIds` (each status is then
// pushed as `notifications/tasks`, and `stats` counts the listens and the ids they named).
import { createInterface } from "node:readline";

const STEP_MS = Number(process.env.RESEARCH_STEP_MS ?? 400);
const POLL_MS = Number(process.env.RESEARCH_POLL_MS ?? 200);
const LISTEN = process.env.RESEARCH_LISTEN === "1";
const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";
const RELATED = "io.modelcontextprotocol/related-task";
const EXTENSION = "io.modelcontextprotocol/tasks";
const ANGLES = ["history", "science", "culture"];

const TOOLS = [
  {
    name: "research",
    description: "Researches a topic as a task; asks which angle to take while it runs",
    inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
    execution: { taskSupport: "required" },
  },
  { name: "stats", description: "The polls of the ended tasks, and how many poll intervals they lived", inputSchema: { type: "object" } },
];

const ASK = {
  mode: "form",
  message: "Which angle should the research take?",
  requestedSchema: { type: "object", properties: { angle: { type: "string", enum: ANGLES, title: "Angle" } }, required: ["angle"] },
};

let era = "legacy";
let nextTask = 1;
let nextRequest = 1;
const tasks = new Map();
const waitingAnswers = new Map();
/** RESEARCH_LISTEN: the open listens of each task id, and what the listens asked for in all. */
const listensOf = new Map();
const openListens = new Map();
const listened = { listens: 0, ids: 0 };

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const reply = (id, result) => write({ jsonrpc: "2.0", id, result });
const fail = (id, code, message) => write({ jsonrpc: "2.0", id, error: { code, message } });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value) => ({ content: [{ type: "text", text: value }] });

function wire(task) {
  const base = { taskId: task.id, status: task.status, statusMessage: task.message, createdAt: task.createdAt, lastUpdatedAt: task.updatedAt };
  return era === "modern" ? { ...base, ttlMs: 600_000, pollIntervalMs: POLL_MS } : { ...base, ttl: 600_000, pollInterval: POLL_MS };
}

function setStatus(task, status, message) {
  task.status = status;
  task.message = message;
  task.updatedAt = new Date().toISOString();
  // After this turn: an input_required task carries its request once `run` is waiting for it.
  if (LISTEN) setImmediate(() => push(task));
  if (["completed", "failed", "cancelled"].includes(status)) {
    task.endedAt = Date.now();
    for (const resolve of task.enders.splice(0)) resolve();
  }
}

/** The work: a step, the question, a step, the report. Legacy asks through `ask(task)`. */
async function run(task, topic) {
  setStatus(task, "working", "gathering sources");
  await sleep(STEP_MS);
  if (task.status === "cancelled") return;
  setStatus(task, "input_required", "waiting for the angle");
  const answer = era === "modern" ? await new Promise((resolve) => (task.answer = resolve)) : await askLegacy(task);
  if (task.status === "cancelled") return;
  const angle = answer?.action === "accept" ? answer.content?.angle : undefined;
  setStatus(task, "working", `writing the report (${angle ?? "no angle"})`);
  await sleep(STEP_MS);
  if (task.status === "cancelled") return;
  task.result = text(`Research on ${topic}, from the angle of ${angle ?? "none given"}.`);
  setStatus(task, "completed", "done");
}

/** 2025-11-25: the elicitation waits for a tasks/result to carry it (here: any time after one came). */
async function askLegacy(task) {
  await task.resultAsked;
  const id = `ask-${nextRequest++}`;
  write({ jsonrpc: "2.0", id, method: "elicitation/create", params: { ...ASK, _meta: { [RELATED]: { taskId: task.id } } } });
  return new Promise((resolve) => waitingAnswers.set(id, resolve));
}

function createTask(topic) {
  const now = new Date().toISOString();
  let markAsked;
  const task = {
    id: `research-${nextTask++}`,
    status: "working",
    message: "queued",
    createdAt: now,
    updatedAt: now,
    created: Date.now(),
    polls: 0,
    enders: [],
    resultAsked: new Promise((resolve) => (markAsked = resolve)),
  };
  task.markAsked = markAsked;
  tasks.set(task.id, task);
  void run(task, topic);
  return task;
}

function stats() {
  const ended = [...tasks.values()].filter((task) => task.endedAt !== undefined);
  const polls = ended.reduce((sum, task) => sum + task.polls, 0);
  // How many intervals the tasks lived: a client that polls once per interval, never earlier,
  // makes about that many polls, one more at most per task to see the end.
  const intervals = ended.reduce((sum, task) => sum + (task.endedAt - task.created) / POLL_MS, 0);
  const counts = { tasks: ended.length, polls, intervals: Math.round(intervals * 100) / 100, listens: listened.listens, listenedIds: listened.ids };
  return { ...text(JSON.stringify(counts)), structuredContent: counts };
}

function push(task) {
  for (const listen of listensOf.get(task.id) ?? []) {
    const { resultType: _, ...shown } = detailed(task);
    write({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...shown, _meta: { [SUBSCRIPTION]: listen } } });
  }
}

function listen(id, taskIds) {
  listened.listens++;
  listened.ids += taskIds.length;
  openListens.set(id, taskIds);
  for (const taskId of taskIds) {
    if (!listensOf.has(taskId)) listensOf.set(taskId, new Set());
    listensOf.get(taskId).add(id);
  }
  write({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds }, _meta: { [SUBSCRIPTION]: id } } });
}

function unlisten(id) {
  for (const taskId of openListens.get(id) ?? []) listensOf.get(taskId)?.delete(id);
  openListens.delete(id);
}

function detailed(task) {
  const shown = { resultType: "complete", ...wire(task) };
  if (task.status === "input_required" && task.answer !== undefined) shown.inputRequests = { angle: { method: "elicitation/create", params: ASK } };
  if (task.status === "completed") shown.result = task.result;
  return shown;
}

async function handle(message) {
  const { id, method, params = {} } = message;
  if (method === undefined) {
    // A response: the answer to an elicitation of a legacy task.
    waitingAnswers.get(id)?.(message.result);
    waitingAnswers.delete(id);
    return;
  }
  if (id === undefined) {
    if (method === "notifications/cancelled") unlisten(params.requestId);
    return;
  }
  const task = typeof params.taskId === "string" ? tasks.get(params.taskId) : undefined;
  switch (method) {
    case "initialize":
      era = "legacy";
      return reply(id, {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        serverInfo: { name: "research", version: "1.0.0" },
      });
    case "server/discover":
      era = "modern";
      return reply(id, {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "research", version: "1.0.0" } },
      });
    case "ping":
      return reply(id, {});
    case "tools/list":
      return reply(id, era === "modern" ? { resultType: "complete", tools: TOOLS.map(({ execution: _, ...tool }) => tool) } : { tools: TOOLS });
    case "tools/call": {
      if (params.name === "stats") return reply(id, era === "modern" ? { resultType: "complete", ...stats() } : stats());
      if (params.name !== "research") return fail(id, -32602, `unknown tool ${params.name}`);
      if (era === "legacy" && params.task === undefined) return fail(id, -32601, "research runs as a task only: ask for one");
      const created = createTask(String(params.arguments?.topic ?? "something"));
      return reply(id, era === "modern" ? { resultType: "task", ...wire(created) } : { task: wire(created) });
    }
    case "subscriptions/listen": {
      const taskIds = params.notifications?.taskIds;
      if (!LISTEN || era !== "modern" || !Array.isArray(taskIds)) return fail(id, -32601, `Method not found: ${method}`);
      return listen(id, taskIds);
    }
    case "tasks/get":
      if (task === undefined) return fail(id, -32602, "Failed to retrieve task: Task not found");
      task.polls++;
      return reply(id, era === "modern" ? detailed(task) : wire(task));
    case "tasks/update":
      if (task === undefined) return fail(id, -32602, "Failed to retrieve task: Task not found");
      task.answer?.(params.inputResponses?.angle);
      task.answer = undefined;
      return reply(id, { resultType: "complete" });
    case "tasks/result": {
      if (task === undefined) return fail(id, -32602, "Failed to retrieve task: Task not found");
      task.markAsked();
      if (task.endedAt === undefined) await new Promise((resolve) => task.enders.push(resolve));
      if (task.status !== "completed") return fail(id, -32603, `the task ended ${task.status}`);
      return reply(id, { ...task.result, _meta: { [RELATED]: { taskId: task.id } } });
    }
    case "tasks/list":
      return reply(id, { tasks: [...tasks.values()].map(wire) });
    case "tasks/cancel":
      if (task === undefined) return fail(id, -32602, "Failed to retrieve task: Task not found");
      // 2025-11-25: an ended task cannot be cancelled (-32602); the extension acknowledges anyway.
      if (task.endedAt !== undefined && era === "legacy") return fail(id, -32602, `task ${task.id} has already ended`);
      if (task.endedAt === undefined) setStatus(task, "cancelled", "cancelled by request");
      task.answer?.(undefined);
      return reply(id, era === "modern" ? { resultType: "complete" } : wire(task));
    default:
      return fail(id, -32601, `Method not found: ${method}`);
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  void handle(message);
});
