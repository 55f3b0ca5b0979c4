// The demo server that `npm start` shows (examples/demo-server.mjs, on the official server
// library): every tool, resource and prompt, in both eras over stdio and once over HTTP, through
// one recording Handler, as a newcomer at the terminal host would meet them.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  Client,
  isTask,
  type CallToolResult,
  type ElicitResult,
  type ElicitationContext,
  type Handler,
  type LogParams,
  type Progress,
  type ProtocolVersion,
  type ServerHandle,
  type TaskHandle,
} from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { spawnHttpServer, type HttpServerProcess } from "../helpers/official.js";

const DEMO = fileURLToPath(new URL("../../examples/demo-server.mjs", import.meta.url));
const SECRET = "hunter22-secret";
// The task's steps, 400 ms by default so that a person sees them go by.
const FAST = { DEMO_STEP_MS: "20" };

const text = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

interface Seen {
  forms: { params: Record<string, unknown>; ctx: ElicitationContext }[];
  urls: ElicitationContext[];
  samplings: Record<string, unknown>[];
  roots: number;
  logs: { level: string; params: LogParams }[];
  notifications: string[];
}

/** How the next form or URL elicitation is answered: "accept" fills the form, the rest say so. */
interface Answers {
  action: "accept" | "decline" | "cancel";
}

function recordingHandler(seen: Seen, answers: Answers): Handler {
  return {
    elicitationModes: ["form", "url"],
    handleElicitation: (params, ctx): ElicitResult => {
      if (ctx.mode === "url") {
        seen.urls.push(ctx);
        return { action: answers.action };
      }
      seen.forms.push({ params, ctx });
      if (answers.action !== "accept") return { action: answers.action };
      const properties = (params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties;
      if ("season" in properties) return { action: "accept", content: { season: "winter" } };
      // `newsletter` is left out: the client fills in the schema's default.
      return { action: "accept", content: { name: "Ada", cabin: "business", seats: 2, password: SECRET } };
    },
    handleSampling: (params) => {
      seen.samplings.push(params);
      return { role: "assistant", content: { type: "text", text: "Ride tram 28 up to the castle." }, model: "demo-model", stopReason: "endTurn" };
    },
    listRoots: () => {
      seen.roots += 1;
      return { roots: [{ uri: "file:///home/ada/trips", name: "trips" }] };
    },
    handleLog: (level, params) => {
      seen.logs.push({ level, params });
    },
    handleNotification: (method) => {
      seen.notifications.push(method);
    },
  };
}

// How the demo is started, the version the client pins (none: it negotiates), the era it ends in.
// The first is what `npm start` shows; the last is the server of the 2025 era alone.
const RUNS: ReadonlyArray<{ title: string; flags: string[]; version?: ProtocolVersion; era: "legacy" | "modern" }> = [
  { title: "over stdio, negotiated", flags: [], era: "modern" },
  { title: "over stdio, pinned to 2025-11-25", flags: [], version: "2025-11-25", era: "legacy" },
  { title: "over HTTP, negotiated", flags: ["--http"], era: "modern" },
  { title: "with --era legacy over stdio, negotiated", flags: ["--era", "legacy"], era: "legacy" },
];

describe.each(RUNS)("the demo server $title", ({ flags, version, era }) => {
  const overHttp = flags.includes("--http");
  const seen: Seen = { forms: [], urls: [], samplings: [], roots: 0, logs: [], notifications: [] };
  const answers: Answers = { action: "accept" };
  let client: Client;
  let server: ServerHandle;
  let http: HttpServerProcess | undefined;
  const stderr: string[] = [];

  beforeAll(async () => {
    client = new Client({ name: "demo-host", version: "1", handler: recordingHandler(seen, answers), logger: capturingLogger() });
    if (overHttp) http = await spawnHttpServer([DEMO, ...flags], FAST);
    const target = http === undefined ? { command: process.execPath, args: [DEMO, ...flags], env: FAST } : { url: http.url };
    const pin = version === undefined ? {} : { protocolVersion: version };
    server = await client.connect("demo", target, overHttp ? pin : { ...pin, onStderr: (line: string) => stderr.push(line) });
  });

  afterAll(async () => {
    await client.close();
    await http?.close();
  });

  it("speaks the era and lists every tool, resource and prompt", async () => {
    expect(server.era).toBe(era);
    expect(server.serverInfo).toMatchObject({ name: "trip-planner", version: "1.0.0" });
    const tools = await server.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["book", "pay", "suggest", "roots", "pack", "log", "plan", "unlock"]);
    for (const tool of tools) expect(tool.description).toMatch(/^[A-Z][^\n]+$/);
    // 2025-11-25 says on the tool that it runs as a task; 2026-07-28 has no such field.
    expect(tools.find((tool) => tool.name === "plan")!.execution).toEqual(era === "legacy" ? { taskSupport: "required" } : undefined);
    expect((await server.listResources()).map((r) => r.uri)).toEqual(["trip://readme"]);
    expect((await server.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["trip://city/{name}"]);
    const prompts = await server.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([["itinerary", [["city", true]]]]);
  });

  it("book: a form whose password field is flagged, and a summary without the secret", async () => {
    const result = await server.callTool("book", {}, { assigns: { turn: 1 } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(
      `Booked 2 seats in business to Lisbon for Ada. Newsletter: no. Password received (${SECRET.length} characters, not shown).`,
    );
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const { params, ctx } = seen.forms.at(-1)!;
    expect(ctx).toMatchObject({ mode: "form", serverId: "demo", era, assigns: { turn: 1 } });
    expect(ctx.mode === "form" && ctx.fields).toEqual({
      name: { sensitiveSuspected: false },
      cabin: { sensitiveSuspected: false },
      seats: { sensitiveSuspected: false },
      newsletter: { sensitiveSuspected: false },
      password: { sensitiveSuspected: true },
    });
    expect(params.message).toBe("Booking a trip to Lisbon: who is travelling?");
    expect(params.requestedSchema).toMatchObject({
      type: "object",
      required: ["name", "password"],
      properties: {
        name: { type: "string", title: "Traveller name" },
        cabin: { type: "string", enum: ["economy", "premium", "business"], default: "economy" },
        seats: { type: "integer", minimum: 1, maximum: 6, default: 1 },
        newsletter: { type: "boolean", default: false },
        password: { type: "string", title: "Account password" },
      },
    });
  });

  it("book: a declined or cancelled form books nothing", async () => {
    answers.action = "decline";
    try {
      expect(text(await server.callTool("book", { destination: "Oslo" }))).toBe("Booking declined: nothing was booked.");
      answers.action = "cancel";
      expect(text(await server.callTool("book"))).toBe("Booking cancelled: nothing was booked.");
    } finally {
      answers.action = "accept";
    }
  });

  it("pay: a URL to visit, its host shown, and the answer reported", async () => {
    expect(text(await server.callTool("pay", { amount: 80 }))).toBe(
      "Accepted: you agreed to open https://example.com/pay?trip=lisbon&amount=80 (a demo: nothing is charged).",
    );
    expect(seen.urls.at(-1)).toMatchObject({
      mode: "url",
      url: "https://example.com/pay?trip=lisbon&amount=80",
      host: "example.com",
      idn: false,
      originMismatch: true,
    });
    answers.action = "decline";
    try {
      expect(text(await server.callTool("pay"))).toBe("Declined: the payment page was not opened.");
    } finally {
      answers.action = "accept";
    }
    expect(seen.urls.at(-1)).toMatchObject({ url: "https://example.com/pay?trip=lisbon&amount=120" });
  });

  it("suggest: a sampling request with a system prompt and maxTokens, its text returned", async () => {
    expect(text(await server.callTool("suggest", { city: "Kyoto" }))).toBe("Ride tram 28 up to the castle.");
    expect(seen.samplings.at(-1)).toMatchObject({
      systemPrompt: "You are a friendly travel guide. Answer in one short sentence.",
      messages: [{ role: "user", content: { type: "text", text: "Suggest one thing to do in Kyoto." } }],
      maxTokens: 200,
    });
  });

  it("roots: the folders the host shares", async () => {
    const before = seen.roots;
    expect(text(await server.callTool("roots"))).toBe("Your host shares 1 folder:\n- trips: file:///home/ada/trips");
    expect(seen.roots).toBe(before + 1);
  });

  it("pack: progress for each item, then the answer", async () => {
    const progress: Progress[] = [];
    const result = await server.callTool("pack", { items: 4, delayMs: 5 }, { onProgress: (p) => progress.push(p) });
    expect(text(result)).toBe("Packed 4 items: passport, tickets, charger, toothbrush.");
    expect(progress).toEqual(
      ["passport", "tickets", "charger", "toothbrush"].map((item, i) => ({ progress: i + 1, total: 4, message: `packed the ${item}` })),
    );
  });

  it("log: one message at each level from debug to error", async () => {
    await server.setLogLevel("debug");
    expect(text(await server.callTool("log"))).toBe("Wrote 5 log messages, from debug to error.");
    await vi.waitFor(() => expect(seen.logs).toHaveLength(5));
    expect(seen.logs.map(({ level, params }) => [level, params.logger])).toEqual(
      ["debug", "info", "notice", "warning", "error"].map((level) => [level, "trip-planner"]),
    );
    expect(seen.logs[4]!.params.data).toBe("the night train is sold out");
  });

  it("plan: a task that asks for the season while it runs, followed to its end", async () => {
    const formsBefore = seen.forms.length;
    const outcome = await server.callTool("plan", { destination: "Oslo" }, { task: true });
    expect(isTask(outcome)).toBe(true);
    const statuses: string[] = [];
    const result = await server.awaitTask(outcome as TaskHandle, { onStatus: (task) => statuses.push(task.status) });
    expect(text(result)).toBe("Your trip to Oslo in winter: three days, flights and a hotel by the old town. Enjoy!");
    expect(statuses).toContain("input_required");
    expect(seen.forms.slice(formsBefore).map(({ params, ctx }) => [params.message, ctx.mode === "form" && ctx.fields])).toEqual([
      ["Which season would you like to visit Oslo in?", { season: { sensitiveSuspected: false } }],
    ]);
    // A plain call follows the task inside callTool.
    expect(text(await server.callTool("plan"))).toBe("Your trip to Lisbon in winter: three days, flights and a hotel by the old town. Enjoy!");
  });

  it("plan: a declined question leaves the season open", async () => {
    answers.action = "decline";
    try {
      expect(text(await server.callTool("plan", { destination: "Lima" }))).toBe("Your trip to Lima: three days, season still open. Enjoy!");
    } finally {
      answers.action = "accept";
    }
  });

  it("plan: a task can be cancelled", async () => {
    const outcome = (await server.callTool("plan", {}, { task: true })) as TaskHandle;
    expect(outcome.status).toBe("working");
    await server.cancelTask(outcome.taskId);
    expect((await server.getTask(outcome.taskId)).status).toBe("cancelled");
  });

  it("resources: the readme, and a city template whose name completes", async () => {
    const readme = await server.readResource("trip://readme");
    expect(readme.contents[0]).toMatchObject({ uri: "trip://readme", mimeType: "text/markdown" });
    expect((readme.contents[0] as { text: string }).text).toMatch(/^# Trip planner\n/);
    const oslo = await server.readResource("trip://city/oslo");
    expect(oslo.contents).toEqual([{ uri: "trip://city/oslo", mimeType: "text/plain", text: "Oslo: the opera roof, fjord ferries and the Viking ships." }]);
    const completed = await server.complete({ ref: { type: "ref/resource", uri: "trip://city/{name}" }, argument: { name: "name", value: "l" } });
    expect(completed.completion.values).toEqual(["lima", "lisbon", "london"]);
    await expect(server.readResource("trip://city/atlantis")).rejects.toMatchObject({ kind: "rpc", code: -32602 });
  });

  it("prompt: itinerary, its city argument completed", async () => {
    const prompt = await server.getPrompt("itinerary", { city: "Kyoto" });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Plan a three-day itinerary for Kyoto, with one museum and one market." } },
    ]);
    const completed = await server.complete({ ref: { type: "ref/prompt", name: "itinerary" }, argument: { name: "city", value: "r" } });
    expect(completed.completion.values).toEqual(["reykjavik"]);
  });

  it("unlock: adds a tool, and the client hears that the list changed", async () => {
    const watching = await server.watch({ toolsListChanged: true });
    try {
      expect(text(await server.callTool("unlock"))).toBe("Unlocked: the souvenir tool is now in the tool list.");
      await vi.waitFor(() => expect(seen.notifications).toContain("notifications/tools/list_changed"));
      expect((await server.listTools()).map((tool) => tool.name)).toContain("souvenir");
      expect(text(await server.callTool("souvenir"))).toBe("A tin of sardines from Lisbon, wrapped in a map.");
      expect(text(await server.callTool("unlock"))).toBe("The souvenir tool is already there.");
    } finally {
      await watching.close();
    }
  });

  it.skipIf(overHttp)("says on stderr only that it serves, and nothing went wrong", () => {
    expect(stderr).toEqual([`[demo-server] serving on stdio (era ${flags.includes("legacy") ? "legacy" : "both"})\n`]);
  });
});
