// Every file in bench/scenarios/ is one scenario; adding a scenario is adding a file.
//
// A scenario module's default export:
//   id, name               identify it (and are what --only matches, with the row names)
//   rows                   [{ key, name, unit, better: "higher" | "lower" }]: what one sample holds
//   open(client, options)  → state: connect one client adapter (clients/*.mjs) to its server
//   warmup(state, options) calls made before measuring (options.warmup of them)
//   sample(state, options) → { [row key]: number }: one measured round
//   close(state)           release everything open() made
import { readdir } from "node:fs/promises";

const DIR = new URL("../scenarios/", import.meta.url);

export async function loadScenarios() {
  const files = (await readdir(DIR)).filter((file) => file.endsWith(".mjs")).sort();
  const modules = await Promise.all(files.map((file) => import(new URL(file, DIR))));
  return modules.map((module) => module.default);
}

/** The scenarios to run, each with only the rows --only asks for. */
export function select(scenarios, only) {
  if (only === undefined) return scenarios;
  const hit = (text) => text.toLowerCase().includes(only);
  return scenarios.flatMap((scenario) => {
    if (hit(scenario.id) || hit(scenario.name)) return [scenario];
    const rows = scenario.rows.filter((row) => hit(row.name) || hit(row.unit));
    return rows.length > 0 ? [{ ...scenario, rows }] : [];
  });
}
