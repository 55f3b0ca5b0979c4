// What Conduit's messages may quote: bounded, cleaned excerpts of server data, and URLs and
// command lines with their secrets replaced.
import { describe, expect, it } from "vitest";
import { excerpt, redactCommandLine, redactUrl } from "../../src/util/text.js";

describe("excerpt", () => {
  it("bounds and cleans a string, and serialises anything else", () => {
    expect(excerpt("a".repeat(10_000), 50)).toHaveLength(50);
    expect(excerpt("\u001b[31mred\u001b[0m")).toBe("red");
    expect(excerpt({ a: 1 })).toBe('{"a":1}');
    expect(excerpt(undefined)).toBe("undefined");
  });

  it("never throws on what JSON cannot hold", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(excerpt(cycle)).toBe("[unserialisable]");
    expect(excerpt(10n)).toBe("[unserialisable]");
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(excerpt(deep)).toBe("[unserialisable]");
  });
});

describe("redactUrl", () => {
  it("replaces user info and secret-looking query values, and keeps the rest", () => {
    expect(redactUrl("https://ada:hunter2@example.com/mcp?token=s3cret&page=2&api_key=k")).toBe("https://***@example.com/mcp?token=***&page=2&api_key=***");
  });

  it("finds the same secrets in text that does not parse as a URL", () => {
    const shown = redactUrl("https://ada:hunter2@exa mple.com/mcp?token=s3cret");
    expect(shown).not.toContain("hunter2");
    expect(shown).not.toContain("s3cret");
  });
});

describe("redactCommandLine", () => {
  it("replaces secret flags, credential headers, URL secrets and env values", () => {
    const line = redactCommandLine(
      "npx",
      ["mcp-remote", "https://u:p4ss@x.example/sse?key=k3y", "--header", "Authorization: Bearer sk-live-123", "--token", "t0k", "--api-key=a9i", "--db", "postgres-Sekret-1"],
      ["postgres-Sekret-1"],
    );
    for (const secret of ["p4ss", "k3y", "sk-live-123", "t0k", "a9i", "postgres-Sekret-1"]) expect(line).not.toContain(secret);
    expect(line).toContain("mcp-remote");
    expect(line).toContain("--header Authorization: ***");
  });

  it("leaves ordinary arguments alone", () => {
    expect(redactCommandLine("node", ["server.js", "--port", "3000", "/tmp/x"])).toBe("node server.js --port 3000 /tmp/x");
  });
});
