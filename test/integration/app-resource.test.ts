// Reading MCP App views from a real server on the official library (test/fixtures/apps-server.mjs)
// over stdio, in both eras: the good app's HTML, policy, allow attribute, validated meta and
// fingerprint; the blob form of the same app; and each refusal — the wrong MIME type, a view past
// the default bound, a read with no contents, a URI that is not `ui://` — with malformed
// `_meta.ui` dropped and reported through the client's logger.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, type ServerHandle } from "../../src/node.js";
import { AppResourceError, readAppResource, type ReadAppResourceOptions } from "../../src/apps/index.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger, throwingLogger, type CapturingLogger } from "../helpers/logger.js";

const APPS_SERVER = fileURLToPath(new URL("../fixtures/apps-server.mjs", import.meta.url));

async function connect(version: "2025-11-25" | "2026-07-28", logger: CapturingLogger = capturingLogger()): Promise<{ server: ServerHandle; logger: CapturingLogger }> {
  const client = track(new Client({ name: "apps-host", version: "1", logger }));
  const server = await client.connect("apps", { command: process.execPath, args: [APPS_SERVER] }, { protocolVersion: version });
  return { server, logger };
}

async function refusal(promise: Promise<unknown>): Promise<AppResourceError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppResourceError);
  return error as AppResourceError;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("app resources of the official server library at %s", (version) => {
  it("reads the good app: its HTML, its policy and allow attribute, its meta with the listing's fallback, its fingerprint", async () => {
    const { server, logger } = await connect(version);
    const tool = (await server.listTools()).find((candidate) => candidate.name === "weather");
    const uri = (tool?._meta?.ui as { resourceUri: string }).resourceUri;
    const listed = (await server.listResources()).find((resource) => resource.uri === uri);
    const app = await readAppResource(server, uri, { listed });

    expect(app.serverId).toBe("apps");
    expect(app.uri).toBe("ui://apps/good");
    expect(app.html).toContain("<h1>Weather ☀</h1>");
    expect(app.csp).toBe(
      [
        "default-src 'none'",
        "script-src 'self' 'unsafe-inline' https://*.tiles.example https://cdn.weather.example",
        "style-src 'self' 'unsafe-inline' https://*.tiles.example https://cdn.weather.example",
        "img-src 'self' data: https://*.tiles.example https://cdn.weather.example",
        "media-src 'self' data: https://*.tiles.example https://cdn.weather.example",
        "font-src 'self' https://*.tiles.example https://cdn.weather.example",
        "connect-src https://api.weather.example wss://live.weather.example",
        "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'none'",
      ].join("; "),
    );
    expect(app.allow).toBe("geolocation");
    // The content's csp wins whole; the listing gives the domain the content does not.
    expect(app.meta).toEqual({
      csp: { connectDomains: ["https://api.weather.example", "wss://live.weather.example"], resourceDomains: ["https://*.tiles.example", "https://cdn.weather.example"] },
      permissions: { geolocation: {} },
      prefersBorder: true,
      domain: "weather.apps.example",
    });
    expect(app.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(logger.warnings()).toEqual([]);
    // The audit trail: each read's policy, at info.
    expect(logger.entries.find((entry) => entry.level === "info" && entry.message.includes("ui://apps/good"))?.fields).toMatchObject({ csp: app.csp, allow: "geolocation", fingerprint: app.fingerprint });

    // The same app as a Base64 blob is the same app.
    const blob = await readAppResource(server, "ui://apps/blob");
    expect(blob.html).toBe(app.html);
    expect(blob.csp).toBe(app.csp);
    expect(blob.fingerprint).toBe(app.fingerprint);
  });

  it("refuses the wrong MIME type, a view past the default bound, and a read with no contents", async () => {
    const { server } = await connect(version);
    expect(await refusal(readAppResource(server, "ui://apps/wrong-mime"))).toMatchObject({ reason: "mime", kind: "protocol", serverId: "apps", uri: "ui://apps/wrong-mime" });
    const oversized = await refusal(readAppResource(server, "ui://apps/oversized"));
    expect(oversized).toMatchObject({ reason: "size", kind: "unsupported" });
    expect(oversized.message).toContain("more than the 8388608");
    // The host's own bound, either way.
    expect((await readAppResource(server, "ui://apps/oversized", { maxBytes: 9 * 1024 * 1024 })).html.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(await refusal(readAppResource(server, "ui://apps/good", { maxBytes: 100 }))).toMatchObject({ reason: "size" });
    expect(await refusal(readAppResource(server, "ui://apps/empty"))).toMatchObject({ reason: "content", kind: "protocol" });
    // The server still answers.
    expect((await readAppResource(server, "ui://apps/good")).html).toContain("Weather");
  });

  it("refuses a URI that is not ui:// before asking the server, and bad options as a caller's mistake", async () => {
    const { server } = await connect(version);
    for (const uri of ["https://apps.example/view.html", "mem://hello", "ui://", "UI://apps/good"]) {
      expect(await refusal(readAppResource(server, uri))).toMatchObject({ reason: "uri", kind: "usage" });
    }
    await expect(readAppResource(server, "ui://apps/good", { maxBytes: -1 })).rejects.toMatchObject({ code: "ERR_CONDUIT_INVALID_ARGUMENT" });
    await expect(readAppResource(server, "ui://apps/good", { maxBytes: Number.NaN })).rejects.toMatchObject({ code: "ERR_CONDUIT_INVALID_ARGUMENT" });
    await expect(readAppResource(server, "ui://apps/good", { listed: { uri: "ui://apps/blob" } })).rejects.toMatchObject({ code: "ERR_CONDUIT_INVALID_ARGUMENT" });
    const misspelt = { maxbytes: 10 } as unknown as ReadAppResourceOptions;
    await expect(readAppResource(server, "ui://apps/good", misspelt)).rejects.toThrow(/did you mean "maxBytes"/);
  });

  it("drops every malformed field of _meta.ui with one warning, and the policy stays the restrictive one plus what was well formed", async () => {
    const { server, logger } = await connect(version);
    const app = await readAppResource(server, "ui://apps/malformed");
    expect(app.meta).toEqual({ csp: { connectDomains: ["https://ok.example"] }, permissions: { microphone: {} } });
    expect(app.csp).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src https://ok.example; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'",
    );
    expect(app.allow).toBe("microphone");
    const warnings = logger.warnings("ui://apps/malformed");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('server "apps"');
    expect(warnings[0]).toContain("12 malformed _meta.ui field(s) dropped");
    const dropped = logger.entries.find((entry) => entry.level === "warn")?.fields?.dropped as { field: string }[];
    expect(dropped.map((problem) => problem.field)).toEqual([
      "contents _meta.ui.csp.connectDomains[1]",
      "contents _meta.ui.csp.connectDomains[2]",
      "contents _meta.ui.csp.connectDomains[3]",
      "contents _meta.ui.csp.connectDomains[4]",
      "contents _meta.ui.csp.connectDomains[5]",
      "contents _meta.ui.csp.resourceDomains",
      "contents _meta.ui.csp.frameDomains[0]",
      "contents _meta.ui.csp.frameDomains[1]",
      "contents _meta.ui.csp.baseUriDomains[0]",
      "contents _meta.ui.permissions.camera",
      "contents _meta.ui.domain",
      "contents _meta.ui.prefersBorder",
    ]);
    // What a warning quotes of the server is quoted: no raw CR or LF reaches the host's log line.
    expect(warnings[0]).not.toMatch(/[\r\n]/);
    const frame = (dropped as { field: string; reason: string }[]).find((problem) => problem.field.endsWith("frameDomains[1]"));
    expect(frame?.reason).toContain("frames.example");
    expect(frame?.reason).not.toMatch(/[\r\n]/);
  });

  it("reads an app when the host's logger throws on every entry", async () => {
    const { server, logger } = await connect(version, throwingLogger());
    const app = await readAppResource(server, "ui://apps/malformed");
    expect(app.allow).toBe("microphone");
    expect(logger.warnings("ui://apps/malformed")).toHaveLength(1);
  });
});
