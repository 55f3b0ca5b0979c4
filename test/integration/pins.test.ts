// `protocolVersion` pins one version: a version the client does not know is a mistake of the
// caller ("usage", naming the versions there are), and a pinned legacy version that a modern-only
// server refuses fails as "unsupported", naming what each side speaks, however the server says no.
import { describe, expect, it } from "vitest";
import { Client, type ProtocolVersion } from "../../src/node.js";
import { failure } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type Answer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
};

function newClient(): Client {
  return track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
}

describe("a pin of a version the client does not know", () => {
  it.each(["2025-11-52", "bogus"])("%s fails connect with usage, naming the supported versions", async (pin) => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const error = await failure(newClient().connect("p", raw.target, { protocolVersion: pin as ProtocolVersion }));
    expect(error.kind).toBe("usage");
    expect(error.message).toContain(pin);
    for (const version of ["2026-07-28", "2025-11-25", "2025-06-18"]) expect(error.message).toContain(version);
  });
});

describe("a legacy pin against a server that speaks only 2026-07-28", () => {
  const REFUSALS: Array<[string, Answer]> = [
    ["-32601 (no initialize at all)", { error: { code: -32601, message: "Method not found" } }],
    ["-32022 without naming its versions", { error: { code: -32022, message: "Unsupported protocol version" } }],
  ];

  it.each(REFUSALS)("fails with unsupported naming both sides when initialize is answered %s", async (_what, refusal) => {
    const raw = track(await startRawStdio());
    raw.handle("server/discover", () => DISCOVERED);
    raw.handle("initialize", () => refusal);
    const error = await failure(newClient().connect("p", raw.target, { protocolVersion: "2025-11-25" }));
    expect(error.kind).toBe("unsupported");
    expect(error.message).toContain("2025-11-25");
    expect(error.message).toContain("2026-07-28");
  });
});
