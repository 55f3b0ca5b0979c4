// The exit codes a script switches on: one table in the source, printed by --help and copied in
// the README, which must not drift from it; and the library's error kinds mapped onto it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ClientError } from "../../src/node.js";
import { EXIT, EXIT_TABLE, exitCodeOf, exitTableText } from "../../src/cli/exit-codes.js";
import { NobodyToAsk } from "../../src/cli/asker.js";

describe("conduit's exit codes", () => {
  it("are the README's table, row for row", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const rows = [...readme.matchAll(/^\| (\d+) \(([^)]+)\) \| (.+) \|$/gm)].map((match) => [Number(match[1]), match[2], match[3]]);
    expect(rows).toEqual(EXIT_TABLE.map(([code, name, meaning]) => [code, name, meaning]));
    for (const [code, name] of EXIT_TABLE) expect(exitTableText()).toMatch(new RegExp(`\\b${code}\\s+${name}`));
  });

  it("tell the library's error kinds apart", () => {
    const of = (kind: ConstructorParameters<typeof ClientError>[0]) => exitCodeOf(new ClientError(kind, "x"));
    expect([of("usage"), of("transport"), of("closed"), of("auth"), of("protocol"), of("timeout"), of("rpc"), of("unsupported"), of("cancelled"), of("task_failed"), of("input_handler")]).toEqual([
      EXIT.usage, EXIT.unreachable, EXIT.unreachable, EXIT.auth, EXIT.protocol, EXIT.timeout, EXIT.refused, EXIT.refused, EXIT.interrupted, EXIT.toolError, EXIT.inputNeeded,
    ]);
    expect(exitCodeOf(new NobodyToAsk("a form"))).toBe(EXIT.inputNeeded);
    expect(exitCodeOf(new TypeError("bad option"))).toBe(EXIT.usage);
  });
});
