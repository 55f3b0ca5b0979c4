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
  };
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

export const USAGE = `usage: npm run bench -- [--json] [--rounds N] [--calls N] [--warmup N] [--only <substring>]
  --rounds  measured rounds per client, interleaved conduit/sdk/raw (default ${DEFAULTS.rounds})
  --calls   calls per round (default ${DEFAULTS.calls})
  --warmup  calls per client before measuring (default ${DEFAULTS.warmup})
  --only    run the scenarios (or rows) whose id or name contains this text
  --json    print exactly one JSON object on stdout`;
