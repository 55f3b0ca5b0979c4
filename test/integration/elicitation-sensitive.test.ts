// The secret-field guess over a real pipe: a scripted server (legacy era, over stdio) asks for a
// form whose fields name secrets in their names and titles and mention them only in their
// descriptions; the Handler sees `sensitiveSuspected` for the first kind alone, and its answer
// reaches the server.
import { describe, expect, it } from "vitest";
import { Client, type ElicitationContext, type Handler } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const SCHEMA = {
  type: "object",
  properties: {
    meetingPoint: { type: "string", title: "Where to meet", description: "Drop the pin on the map where we should meet" },
    notes: { type: "string", title: "Notes", description: "We never ask for your password, a token or an API key here" },
    pinned: { type: "boolean", title: "Pinned", description: "Keep the meeting pinned to the top" },
    maxTokens: { type: "integer", title: "Tokens to spend" },
    cardPin: { type: "string", title: "Card PIN" },
    apiKey: { type: "string" },
    code: { type: "integer", title: "CVV" },
  },
} as const;

describe("the secret-field guess, over stdio", () => {
  it("flags fields by their names and titles, never by what their descriptions say in passing", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const seen: ElicitationContext[] = [];
    const handler: Handler = {
      handleElicitation: (_params, ctx) => {
        seen.push(ctx);
        return { action: "accept", content: { meetingPoint: "the old oak", pinned: true, maxTokens: 100 } };
      },
    };
    const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
    await client.connect("srv", raw.target);
    await raw.next("notifications/initialized");

    await raw.send({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: { message: "Plan the meeting", requestedSchema: SCHEMA } });
    const answer = await raw.next((message) => message.id === 1 && !("method" in message));

    expect(answer.result).toEqual({ action: "accept", content: { meetingPoint: "the old oak", pinned: true, maxTokens: 100 } });
    expect(seen).toHaveLength(1);
    const ctx = seen[0]!;
    expect(ctx.mode === "form" && ctx.fields).toEqual({
      meetingPoint: { sensitiveSuspected: false },
      notes: { sensitiveSuspected: false },
      pinned: { sensitiveSuspected: false },
      maxTokens: { sensitiveSuspected: false },
      cardPin: { sensitiveSuspected: true },
      apiKey: { sensitiveSuspected: true },
      code: { sensitiveSuspected: true },
    });
  });
});
