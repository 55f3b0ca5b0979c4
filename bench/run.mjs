// `npm run bench`: every scenario under bench/scenarios/, with Conduit, the official client and
// a raw JSON-RPC loop against the same server program in the same run. Progress goes to stderr;
// stdout holds only the table, or with --json only the JSON object.
import { CLIENTS } from "./clients/index.mjs";
import { killChildren } from "./lib/children.mjs";
import { readOptions, UsageError, USAGE } from "./lib/options.mjs";
import { toJson, toTable } from "./lib/report.mjs";
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
  const scenarios = select(await loadScenarios(), options.only);
  if (scenarios.length === 0) throw new UsageError(`no scenario matches --only ${options.only}`);

  const rows = [];
  const protocols = {};
  let failed = false;
  for (const scenario of scenarios) {
    log(`${scenario.name}: ${options.warmup} warm-up calls, then ${options.rounds} rounds of ${options.calls}`);
    try {
      const result = await runScenario(scenario, CLIENTS, options, log);
      rows.push(...result.rows);
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

  process.stdout.write(`${options.json ? toJson(rows) : toTable(rows, { options, protocols })}\n`);
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
