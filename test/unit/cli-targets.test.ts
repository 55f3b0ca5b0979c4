// What `conduit` connects to, by id: a URL's id is its host, port and path (two servers on one
// host are two ids; a token in the path or the query is never part of one), a target named twice
// is connected once and a different one under a taken id gets the next free one; the config
// places include Claude Code's file (with this folder's servers) and VS Code's user mcp.json.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { distinctTargets, idOfUrl, stdioTarget } from "../../src/cli/targets.js";
import { configPlaces, type NamedTarget } from "../../src/cli/config-places.js";
import { connectOptionsOf } from "../../src/cli/session.js";

describe("the id of a URL server", () => {
  it("tells apart two servers on one host by port and path", () => {
    const ids = ["http://127.0.0.1:3001/mcp", "http://127.0.0.1:3002/mcp", "http://127.0.0.1:3001/other/mcp", "https://mcp.example.com/mcp", "https://mcp.example.com/", "http://[::1]:8080/sse"].map((url) => idOfUrl(new URL(url)));
    expect(ids).toEqual(["127_0_0_1_3001_mcp", "127_0_0_1_3002_mcp", "127_0_0_1_3001_other_mcp", "mcp_example_com_mcp", "mcp_example_com", "1_8080_sse"]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("holds only what an id may (letters, digits, _ and -), no query and no token of the path, in at most 64 characters", () => {
    expect(idOfUrl(new URL("https://mcp.example.com/mcp?api_key=s3cret#frag"))).toBe("mcp_example_com_mcp");
    expect(idOfUrl(new URL("https://actions.example.com/mcp/sk-ak-4f9a8b7c6d5e4f3a2b1c/sse"))).toBe("actions_example_com_mcp_sse");
    const long = idOfUrl(new URL(`https://example.com/${"a-b.c:d/".repeat(100)}`));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]$/);
  });
});

describe("one id per server", () => {
  const url = (href: string, id: string): NamedTarget => ({ id, target: { url: href }, source: "command line" });

  it("connects a target named twice once, and gives a different target under a taken id the next free one", () => {
    const targets = [url("http://h/mcp?tenant=a", "h_mcp"), url("http://h/mcp?tenant=a", "h_mcp"), url("http://h/mcp?tenant=b", "h_mcp"), url("http://h/mcp?tenant=c", "h_mcp")];
    expect(distinctTargets(targets).map((named) => [named.id, named.target !== undefined && "url" in named.target ? named.target.url : undefined])).toEqual([
      ["h_mcp", "http://h/mcp?tenant=a"],
      ["h_mcp-2", "http://h/mcp?tenant=b"],
      ["h_mcp-3", "http://h/mcp?tenant=c"],
    ]);
  });

  it("names a stdio server by its script", () => {
    expect(stdioTarget(["node", "examples/servers/notes-server.mjs"], undefined).id).toBe("notes-server");
    expect(stdioTarget(["npx", "-y", "@scope/server-x"], undefined).id).toBe("server-x");
  });
});

describe("the config places", () => {
  const env = { HOME: "/home/ada", APPDATA: "C:\\Users\\ada\\AppData\\Roaming" };

  it("include VS Code's user mcp.json where VS Code keeps it on each system, and Claude Code's file with this folder", () => {
    const of = (platform: NodeJS.Platform) => configPlaces("/work/app", env, platform);
    expect(of("linux").find((place) => place.host === "VS Code")?.path).toBe(join("/home/ada", ".config", "Code", "User", "mcp.json"));
    expect(configPlaces("/work/app", { ...env, XDG_CONFIG_HOME: "/xdg" }, "linux").find((place) => place.host === "VS Code")?.path).toBe(join("/xdg", "Code", "User", "mcp.json"));
    expect(of("darwin").find((place) => place.host === "VS Code")?.path).toBe(join("/home/ada", "Library", "Application Support", "Code", "User", "mcp.json"));
    expect(of("win32").find((place) => place.host === "VS Code")?.path).toBe(join(env.APPDATA, "Code", "User", "mcp.json"));
    expect(of("linux").find((place) => place.host === "Claude Code")).toMatchObject({ path: join("/home/ada", ".claude.json"), scope: "user", projectDir: "/work/app" });
    // The user's own first, then the project's.
    expect(of("linux").map((place) => place.scope)).toEqual(["user", "user", "user", "user", "user", "project", "project", "project"]);
  });
});

describe("a one-shot command's connects", () => {
  it("send a stdio server SIGTERM as its stdin ends, so that one that ignores its stdin's end is ended at once", () => {
    expect(connectOptionsOf({ connectTimeout: 30_000, oneShot: true })).toEqual({ connectTimeout: 30_000, stdinGracePeriod: 0 });
    // The interactive mode keeps the library's default: its servers are left as the person leaves.
    expect(connectOptionsOf({ connectTimeout: 30_000, oneShot: false })).toEqual({ connectTimeout: 30_000 });
  });
});
