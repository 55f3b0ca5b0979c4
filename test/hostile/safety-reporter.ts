// Writes the README's "Safety" table from the hostile tests' run, or checks that it is current.
//
// Only a run of the whole battery counts: every file of test/hostile/ ran and every test passed.
// Then `SAFETY_TABLE=write` (npm run safety) puts the table between the README's markers, and
// any other run fails when the README's table is not the one this run proves: the README never
// claims what the tests no longer show.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter, TestModule } from "vitest/node";
import { SAFETY_AREAS, type SafetyRow } from "./safety.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const README = join(HERE, "..", "..", "README.md");
const BEGIN = "<!-- safety:begin — written by `npm run safety` from the hostile tests' run; edits here are lost -->";
const END = "<!-- safety:end -->";

export default class SafetyReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const battery = readdirSync(HERE).filter((name) => name.endsWith(".test.ts"));
    const ran = modules.filter((module) => dirname(module.moduleId) === HERE);
    if (battery.some((name) => !ran.some((module) => basename(module.moduleId) === name))) return;
    const rows: SafetyRow[] = [];
    let cases = 0;
    for (const module of [...ran].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "failed" || state === "pending") return;
        if (state !== "passed") continue;
        cases += 1;
        rows.push(...(test.meta().safety ?? []));
      }
    }
    const table = render(merged(rows), cases, battery.length);
    const readme = readFileSync(README, "utf8");
    const start = readme.indexOf(BEGIN);
    const end = readme.indexOf(END);
    if (start === -1 || end < start) throw new Error(`README.md has no Safety table markers (${BEGIN} … ${END})`);
    const current = readme.slice(start + BEGIN.length, end);
    if (current === table) return;
    if (process.env.SAFETY_TABLE === "write") {
      writeFileSync(README, readme.slice(0, start + BEGIN.length) + table + readme.slice(end));
      process.stdout.write(`README.md: the Safety table rewritten (${rows.length} rows)\n`);
      return;
    }
    process.exitCode = 1;
    process.stderr.write("README.md: the Safety table is not the one this run of test/hostile/ proves; run `npm run safety` and commit it\n");
  }
}

/** Rows that differ only in their transport are one row, over all of them. */
function merged(rows: SafetyRow[]): SafetyRow[] {
  const byCase = new Map<string, SafetyRow>();
  for (const row of rows) {
    const key = JSON.stringify([row.area, row.tried, row.outcome]);
    const same = byCase.get(key);
    if (same === undefined) byCase.set(key, { ...row });
    else {
      const parts = same.over.split(", ");
      for (const part of row.over.split(", ")) if (!parts.includes(part)) parts.push(part);
      same.over = parts.join(", ");
    }
  }
  return [...byCase.values()];
}

function render(rows: SafetyRow[], cases: number, files: number): string {
  const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const parts = [`\n${cases} tests in ${files} files of \`test/hostile/\`, all passing in the run that wrote this table.\n`];
  for (const area of SAFETY_AREAS) {
    const mine = rows.filter((row) => row.area === area);
    if (mine.length === 0) continue;
    parts.push(`\n**${area}**\n\n| what the server did | over | what Conduit does |\n|---|---|---|\n`);
    for (const row of mine) parts.push(`| ${cell(row.tried)} | ${cell(row.over)} | ${cell(row.outcome)} |\n`);
  }
  return parts.join("") + "\n";
}
