// `npm run bench`: every scenario under bench/scenarios/, with Conduit, the official client and
// a raw JSON-RPC loop against the same server program in the same run. Progress goes to stderr;
// stdout holds only the table, or with --json only the JSON object (--markdown: the Markdown
// table). --chart and --write-docs write files from that same JSON object.
import { CLIENTS } from "./clients/index.mjs";
import { killChildren } from "./lib/children.mjs";
import { readOptions, scenarioOptions, UsageError, USAGE } from "./lib/options.mjs";
import { writeFileSync } from "node:fs";
import { renderChart } from "./lib/chart.mjs";
import { writeDocs } from "./lib/docs.mjs";
import { toMarkdown, toReport, toTable } from "./lib/report.mjs";
import { runScenario } from "./lib/runner.mjs";
import { loadScenarios, select } from "./lib/scenarios.mjs";

const log = (text) => process.stderr.write(`${text}\n`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    killChildren();
    process.exit(128 + (signal === "SIGINT" ? 2 : 15));
  });
}

async function main() {
  const options = readOptions();
  if (options.help) {
    log(USAGE);
    return 0;
  }
  // The in-process (throughput) scenarios first, then those measured in fresh processes.
  const loaded = await loadScenarios();
  const scenarios = select([...loaded.filter((s) => !s.fresh), ...loaded.filter((s) => s.fresh)], options.only);
  if (scenarios.length === 0) throw new UsageError(`no scenario matches --only ${options.only}`);

  const rows = [];
  const protocols = {};
  let failed = false;
  for (const scenario of scenarios) {
    const own = scenarioOptions(scenario, options);
    log(
      scenario.fresh
        ? `${scenario.name}: ${own.reps ?? scenario.repetitions ?? own.rounds} fresh-process measurements per client`
        : `${scenario.name}: ${own.warmup} warm-up calls, then ${own.rounds} rounds of ${own.calls}`,
    );
    try {
      const result = await runScenario(scenario, CLIENTS, own, log);
      const settings = scenario.fresh ? undefined : { rounds: own.rounds, calls: own.calls, warmup: own.warmup };
      rows.push(...result.rows.map((row) => ({ ...row, settings })));
      Object.assign(protocols, result.protocols);
      failed ||= result.failures.size > 0;
    } finally {
      const left = killChildren();
      if (left.length > 0) {
        log(`  child processes still running after close(), killed: ${left.join(", ")}`);
        failed = true;
      }
    }
  }

  const report = toReport(rows, { options });
  const output = options.json ? JSON.stringify(report) : options.markdown ? toMarkdown(report) : toTable(rows, { options, protocols });
  process.stdout.write(`${output}\n`);
  if (options.chart !== undefined) {
    writeFileSync(options.chart, renderChart(report));
    log(`chart written to ${options.chart}`);
  }
  if (options.writeDocs) log(`written: ${writeDocs(report, { merge: options.only !== undefined }).join(", ")}`);
  return failed ? 1 : 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    log(error instanceof UsageError ? `${error.message}\n${USAGE}` : (error?.stack ?? String(error)));
    killChildren();
    process.exitCode = 1;
  })
  .finally(() => {
    // A client that leaves a handle open must not hang the run: name it, then leave anyway.
    setTimeout(() => {
      log(`bench: still open after the run: ${JSON.stringify(process.getActiveResourcesInfo())}`);
      process.exit(process.exitCode ?? 1);
    }, 2_000).unref();
  });
