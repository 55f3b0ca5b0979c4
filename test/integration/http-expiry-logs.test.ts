// A person's answer never reaches a log line. Over Streamable HTTP a session that expires while
// the answers to an elicitation and to a sampling request are on their way makes the transport
// drop them (they belonged to the expired session; the server asks again on the new one) and say
// so in a debug line. That line names each message by its id, never its body: the form the
// person filled in and the model's text are in it.
import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { Client, type Handler } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { startRawHttp } from "../helpers/raw-http.js";
import { deferred } from "../helpers/raw-stdio.js";

const FORM_ANSWER = "my-mothers-maiden-name-Zarathustra";
const MODEL_TEXT = "the-diagnosis-the-person-asked-about";
const DROPPED = "dropped a message the expired session did not take";

describe("a session that expires while answers are on their way", () => {
  it("logs the answers it drops by id, never their text", async () => {
    const raw = track(await startRawHttp());
    raw.handle("tools/call", () => undefined);
    const log = capturingLogger();
    const asked = { elicitation: deferred<void>(), sampling: deferred<void>() };
    const release = deferred<void>();
    const handler: Handler = {
      async handleElicitation() {
        asked.elicitation.resolve();
        await release.promise;
        return { action: "accept", content: { answer: FORM_ANSWER } };
      },
      async handleSampling() {
        asked.sampling.resolve();
        await release.promise;
        return { role: "assistant", content: { type: "text", text: MODEL_TEXT }, model: "m" };
      },
    };
    const client = track(new Client({ name: "host", version: "1", logger: log, handler }));
    const server = await client.connect("web", { url: raw.url });
    await raw.nextRequest("notifications/initialized");

    const call = server.callTool("ask", {});
    const pending = await raw.nextPending("tools/call");
    pending.write({ jsonrpc: "2.0", id: "ask-form", method: "elicitation/create", params: { message: "Your secret?", requestedSchema: { type: "object", properties: { answer: { type: "string" } } } } });
    pending.write({ jsonrpc: "2.0", id: "ask-model", method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "diagnose" } }], maxTokens: 100 } });
    await Promise.all([asked.elicitation.promise, asked.sampling.promise]);
    // Both answers leave with the session that is now expired: both meet its 404.
    raw.expireSession();
    release.resolve();

    await vi.waitFor(() => expect(log.entries.filter((e) => e.message === DROPPED)).toHaveLength(2));
    const dropped = log.entries.filter((e) => e.message === DROPPED).map((e) => e.fields);
    expect(dropped).toEqual(expect.arrayContaining([{ id: "ask-form" }, { id: "ask-model" }]));
    // The answers did reach the server, which read them: it is the log that must not have them.
    expect(raw.requests.some((r) => r.body.includes(FORM_ANSWER))).toBe(true);

    pending.respond({ content: [{ type: "text", text: "done" }] });
    expect(await call).toEqual({ content: [{ type: "text", text: "done" }] });
    await server.close();
    for (const entry of log.entries) {
      const line = inspect(entry, { depth: 20 });
      expect(line).not.toContain(FORM_ANSWER);
      expect(line).not.toContain(MODEL_TEXT);
    }
  });
});
