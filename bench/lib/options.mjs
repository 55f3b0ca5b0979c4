// Command-line options of `npm run bench`.
import { parseArgs } from "node:util";

// Many short rounds rather than a few long ones: on a shared machine, noise comes in bursts.
const DEFAULTS = { rounds: 15, calls: 3_000, warmup: 3_000 };

export class UsageError extends Error {}

export function readOptions(argv = process.argv.slice(2)) {
  let values;
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(error.message);
  }
  return {
    json: values.json,
    help: values.help,
    only: values.only?.toLowerCase(),
    rounds: count("rounds", values.rounds, DEFAULTS.rounds, 1),
    calls: count("calls", values.calls, DEFAULTS.calls, 1),
    warmup: count("warmup", values.warmup, DEFAULTS.warmup, 0),
    reps: values.reps === undefined ? undefined : count("reps", values.reps, undefined, 1),
    chart: values.chart,
    markdown: values.markdown,
    writeDocs: values["write-docs"],
    // Which of rounds/calls/warmup the command line set: a scenario's own `defaults` yield to them.
    explicit: new Set(["rounds", "calls", "warmup"].filter((name) => values[name] !== undefined)),
  };
}

/** The options one scenario runs with: its `defaults` for rounds/calls/warmup, unless set on the command line. */
export function scenarioOptions(scenario, options) {
  const own = Object.fromEntries(Object.entries(scenario.defaults ?? {}).filter(([name]) => !options.explicit.has(name)));
  return { ...options, ...own };
}

function parse(argv) {
  return parseArgs({
    args: argv,
    options: {
      json: { type: "boolean", default: false },
      rounds: { type: "string" },
      calls: { type: "string" },
      warmup: { type: "string" },
      only: { type: "string" },
      reps: { type: "string" },
      chart: { type: "string" },
      markdown: { type: "boolean", default: false },
      "write-docs": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
}

function count(name, text, fallback, min) {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${text}`);
  return value;
}

export const USAGE = `usage: npm run bench -- [--json | --markdown] [--rounds N] [--calls N] [--warmup N] [--reps N]
                       [--only <substring>] [--chart <file.svg>] [--write-docs]
  --rounds      measured rounds per client, interleaved conduit/sdk/raw (default ${DEFAULTS.rounds},
                or the scenario's own)
  --calls       calls per round (default ${DEFAULTS.calls}, or the scenario's own)
  --warmup      calls per client before measuring (default ${DEFAULTS.warmup}, or the scenario's own)
  --reps        measurements per client of the fresh-process scenarios (default: each its own)
  --only        run the scenarios (or rows) whose id or name contains this text
  --json        print exactly one JSON object on stdout
  --markdown    print the results as the Markdown table of docs/performance.md
  --chart       also write the chart of the results (SVG) to this file
  --write-docs  also write docs/performance.json and docs/performance.svg and regenerate the
                results in docs/performance.md (with --only: merged into the rows already there)`;
