// What Conduit's messages may quote: bounded, cleaned excerpts of server data, and URLs and
// command lines with their secrets replaced — named ones, ones found by their shape, and ones
// hidden in hostile text, in time linear in the text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SHOWN_COMMAND, excerpt, redactCommandLine, redactUrl } from "../../src/util/text.js";
import { isKnownToken, looksSecret } from "../../src/util/secret-shapes.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

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

  it("replaces the fragment, where an implicit flow or a link puts its token", () => {
    expect(redactUrl("https://app.example/cb#access_token=eyJhbGciOi.x.y&state=1")).toBe("https://app.example/cb#***");
    expect(redactUrl("https://app.example/mcp#")).toBe("https://app.example/mcp#");
    const unparsed = redactUrl("https://a b.example/cb#access_token=t0k3n and more");
    expect(unparsed).not.toContain("t0k3n");
    expect(unparsed).toContain("and more");
  });

  it("replaces a provider's token in the path or in a query value whatever its name", () => {
    expect(redactUrl("https://actions.example.com/mcp/sk-ak-4f9a8b7c6d5e4f3a2b1c/sse?x=ghp_0123456789abcdefghijABCDEFGHIJ&page=2")).toBe("https://actions.example.com/mcp/***/sse?x=***&page=2");
    expect(redactUrl("https://example.com/mcp/v2/sse?id=42")).toBe("https://example.com/mcp/v2/sse?id=42");
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

  it("replaces every value of an environment assignment: docker run -e, --env=, and env", () => {
    expect(redactCommandLine("docker", ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=github_pat_11ABCDEFG0123456789", "-e", "LOG_LEVEL=debug", "-e", "GITHUB_HOST", "ghcr.io/github/github-mcp-server"])).toBe(
      "docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN=*** -e LOG_LEVEL=*** -e GITHUB_HOST ghcr.io/github/github-mcp-server",
    );
    expect(redactCommandLine("docker", ["run", "--env=DB_PASSWORD=hunter2", "--env", "REGION=eu", "image"])).toBe("docker run --env=DB_PASSWORD=*** --env REGION=*** image");
    expect(redactCommandLine("env", ["OPENAI=s3cr3t-value", "MODE=fast", "node", "server.js", "--mode=fast"])).toBe("env OPENAI=*** MODE=*** node server.js --mode=fast");
    expect(redactCommandLine("/usr/bin/env", ["-i", "HOME=/home/ada", "uvx", "mcp-server-time"])).toBe("/usr/bin/env -i HOME=*** uvx mcp-server-time");
  });

  it("replaces a NAME=value argument whose name or value says secret, and keeps the others", () => {
    expect(redactCommandLine("uvx", ["mcp-server-x", "API_KEY=abc", "SLACK=xoxb-1234567890-abcdefghij", "DEBUG=1", "DATABASE_URL=postgres://ada:pw9@db.example/app"])).toBe(
      "uvx mcp-server-x API_KEY=*** SLACK=*** DEBUG=1 DATABASE_URL=postgres://***@db.example/app",
    );
  });

  it("replaces a secret-looking value after a short flag (or any flag), and keeps ordinary ones", () => {
    expect(redactCommandLine("npx", ["-y", "some-mcp", "-k", "8f14e45fceea167a5a36dedd4bea2543", "-t", "tvly-AbCdEf0123456789xyz", "-u", "550e8400-e29b-41d4-a716-446655440000", "-m", "claude-3-5-sonnet-20241022", "-p", "3000", "-d", "/srv/data"])).toBe(
      "npx -y some-mcp -k *** -t *** -u *** -m claude-3-5-sonnet-20241022 -p 3000 -d /srv/data",
    );
    expect(redactCommandLine("node", ["server.js", "--workspace", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "--seed=8f14e45fceea167a5a36dedd4bea2543"])).toBe("node server.js --workspace *** --seed=***");
  });

  it("replaces a provider's token anywhere, and leaves ordinary arguments alone", () => {
    expect(redactCommandLine("npx", ["-y", "@modelcontextprotocol/server-slack", "xoxb-1234567890-abcdefghij"])).toBe("npx -y @modelcontextprotocol/server-slack ***");
    expect(redactCommandLine("node", ["server.js", "--port", "3000", "/tmp/x"])).toBe("node server.js --port 3000 /tmp/x");
    expect(redactCommandLine("npx", ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ada/Projects", "sk-learn", "v2.0.1-beta"])).toBe("npx -y @modelcontextprotocol/server-filesystem /Users/ada/Projects sk-learn v2.0.1-beta");
  });

  it("is cut to MAX_SHOWN_COMMAND characters once the secrets are out, never mid-secret", () => {
    // The secret straddles the bound: cut first, its first half would show.
    const secret = "Zq9".repeat(10);
    const line = redactCommandLine("node", ["a".repeat(MAX_SHOWN_COMMAND - 20), secret, "b".repeat(100)], [secret]);
    expect(line.length).toBeLessThanOrEqual(MAX_SHOWN_COMMAND);
    expect(line.endsWith("…")).toBe(true);
    expect(line).not.toContain("Zq9");
  });
});

describe("secret shapes", () => {
  it("know providers' tokens by their prefix, and words by their shape", () => {
    for (const token of ["sk-proj-Ab12Cd34Ef56Gh78", "sk-ant-api03-abcdefgh1234", "ghp_0123456789abcdefghijABCDEFGHIJ", "glpat-abcdefgh12345678", "AKIAIOSFODNN7EXAMPLE", "AIzaSyA-1234567890abcdefgh", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "hf_abcdefghij12345678"]) expect(isKnownToken(token), token).toBe(true);
    for (const word of ["sk-learn", "skeleton", "ghost_writer", "eyJ", "npm_modules"]) expect(isKnownToken(word), word).toBe(false);
    for (const word of ["claude-3-5-sonnet-20241022", "gpt-4o-mini-2024-07-18", "2025-06-18", "node_modules/.bin/tsc", "@modelcontextprotocol/server-everything", "build.production.config", "3000", "hunter2"]) expect(looksSecret(word), word).toBe(false);
  });
});

/** Pieces that redaction rules start on, so that generated text keeps starting them. */
const piece = fc.oneof(
  fc.constantFrom("?", "&", "=", "#", "//", "@", ":", " ", "\t", "-", "--", "token", "key", "Bearer ", "basic ", "sk-", "ghp_", "eyJ", "env", "-e", "A_B", "/", ".", "%", "é", "\u0000"),
  fc.string({ maxLength: 4 }),
);
const hostile = fc.array(piece, { maxLength: 80 }).map((parts) => parts.join(""));
const SECRET = "Qv7rT2mX9kL4pW8s";

describe("fuzz: redaction", () => {
  it("a secret given, named by a flag, by a variable, in user info, in a query or in the fragment never survives, whatever surrounds it", () => {
    fc.assert(
      fc.property(hostile, hostile, (before, after) => {
        const lines = [
          redactCommandLine("node", [before, "--token", SECRET, after]),
          redactCommandLine("node", [before, `--api-key=${SECRET}`, after]),
          redactCommandLine("docker", ["run", before, "-e", `X=${SECRET}`, after]),
          redactCommandLine("node", [before, `API_TOKEN=${SECRET}`, after]),
          redactCommandLine("node", [before, `${before}${SECRET}${after}`, after], [SECRET]),
          redactUrl(`https://u:${SECRET}@example.com/${before}?token=${SECRET}#${SECRET}`),
          redactUrl(`${before}https://u:${SECRET}@x/?token=${SECRET}`),
        ];
        for (const line of lines) expect(line).not.toContain(SECRET);
      }),
      { numRuns: 1_000 },
    );
  });

  it("a command line is at most MAX_SHOWN_COMMAND characters, and redacting never throws", () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 200 }), fc.array(hostile, { maxLength: 5 }), (args, secrets) => {
        expect(redactCommandLine("cmd", args, secrets).length).toBeLessThanOrEqual(MAX_SHOWN_COMMAND);
        expect(typeof redactUrl(args.join(""))).toBe("string");
      }),
      { numRuns: 500 },
    );
  });

  // Text of 256 KiB built from the characters a rule starts or scans on: a pattern that can
  // backtrack over it takes a minute (a query pattern that scanned a name for "token" again
  // from each of its characters: `?tokenxtokenx…`), one that reads it once some milliseconds;
  // the test's own time limit is the bound, not an assertion.
  it("reads hostile text of a quarter mebibyte in time linear in it", { timeout: 20_000 }, () => {
    const size = 1 << 18;
    const texts = ["?" + "a".repeat(size), "?" + "tokenx".repeat(size / 6), "//" + "a".repeat(size), "&".repeat(size), "#".repeat(size), "bearer ".repeat(size / 7), "=".repeat(size), "?" + "a".repeat(size) + "#"];
    for (const text of texts) {
      expect(typeof redactUrl(text)).toBe("string");
      expect(redactCommandLine("cmd", [text, "-k", text, `A=${text}`, `--x=${text}`]).length).toBeLessThanOrEqual(MAX_SHOWN_COMMAND);
      expect(looksSecret(text)).toBeTypeOf("boolean");
    }
  });
});
