// The era memory's bound (least recently used out) and its keys (what names a server, nothing secret).
import { describe, expect, it } from "vitest";
import { ERA_MEMORY_BOUND, EraMemory, targetKey } from "../../src/era-memory.js";

describe("EraMemory", () => {
  it("holds at most ERA_MEMORY_BOUND targets, forgetting the least recently used", () => {
    const memory = new EraMemory();
    for (let i = 0; i < ERA_MEMORY_BOUND; i++) memory.set(`k${i}`, "legacy");
    // k0 is used: k1 is now the least recent.
    expect(memory.get("k0")).toBe("legacy");
    memory.set("new", "modern");
    expect(memory.size).toBe(ERA_MEMORY_BOUND);
    expect(memory.get("k1")).toBeUndefined();
    expect(memory.get("k0")).toBe("legacy");
    expect(memory.get("new")).toBe("modern");
    for (let i = 0; i < 5 * ERA_MEMORY_BOUND; i++) memory.set(`more${i}`, "modern");
    expect(memory.size).toBe(ERA_MEMORY_BOUND);
    memory.delete(`more${5 * ERA_MEMORY_BOUND - 1}`);
    expect(memory.size).toBe(ERA_MEMORY_BOUND - 1);
  });

  it("keys a target by what names the server: the same for another token or environment, another for another path, command or argument", () => {
    const url = "https://mcp.example.com/a/mcp";
    expect(targetKey({ url: `${url}?token=1` })).toBe(targetKey({ url: `${url}?token=2#x` }));
    expect(targetKey({ url: `${url}?token=1` })).not.toBe(targetKey({ url: "https://mcp.example.com/b/mcp" }));
    expect(targetKey({ url })).not.toBe(targetKey({ url: "https://other.example.com/a/mcp" }));
    const stdio = { command: "npx", args: ["-y", "server"] };
    expect(targetKey({ ...stdio, env: { TOKEN: "a" } })).toBe(targetKey({ ...stdio, env: { TOKEN: "b" }, inheritEnv: true }));
    expect(targetKey(stdio)).not.toBe(targetKey({ ...stdio, args: ["-y", "other"] }));
    expect(targetKey(stdio)).not.toBe(targetKey({ ...stdio, cwd: "/srv" }));
    expect(targetKey(stdio)).not.toBe(targetKey({ url }));
    expect(targetKey({ ...stdio, args: ["--key=secret-value"] })).not.toContain("secret");
  });
});
