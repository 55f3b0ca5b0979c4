// Runs one scenario for every client: open all, warm all up, then interleaved rounds
// (conduit, sdk, raw, conduit, sdk, raw, …) so that machine noise falls on all alike.
// A client that fails is reported and left out; the others still run.
//
// A scenario with `fresh: true` is measured in fresh processes instead (import, cold start,
// memory): it has no open/warmup/sample/close but
//   clients       the client names it measures (default: all); the others print "–" and null
//   repetitions   measurements per client (--reps overrides), interleaved like the rounds
//   warmup        false to skip the one discarded measurement per client that comes first
//                 (it fills the disk cache and whatever else a first run pays)
//   measure(clientName, options) → { [row key]: number }: one measurement, typically one
//                 probe process (lib/fresh-process.mjs)
// and its rows may carry a `target` (see report.mjs).
import { collectYoungGarbage } from "./gc.mjs";
import { median, ratio, spread } from "./stats.mjs";

const CLOSE_TIMEOUT_MS = 5_000;

export async function runScenario(scenario, clients, options, log) {
  if (scenario.fresh) return runFresh(scenario, clients, options, log);
  const states = new Map();
  const samples = new Map(clients.map((client) => [client.name, []]));
  const failures = new Map();
  const fail = (client, stage, error) => {
    failures.set(client.name, { stage, error });
    log(`  ${client.name}: FAILED during ${stage}: ${error?.stack ?? error}`);
  };
  const alive = () => clients.filter((client) => states.has(client.name) && !failures.has(client.name));

  try {
    for (const client of clients) {
      try {
        const state = await scenario.open(client, options);
        states.set(client.name, state);
        log(`  ${client.name}: connected${state?.protocolVersion ? `, protocol ${state.protocolVersion}` : ""}`);
      } catch (error) {
        fail(client, "open", error);
      }
    }
    for (const client of alive()) {
      await scenario.warmup(states.get(client.name), options).catch((error) => fail(client, "warm-up", error));
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const client of alive()) {
        collectYoungGarbage();
        try {
          samples.get(client.name).push(await scenario.sample(states.get(client.name), options));
        } catch (error) {
          fail(client, `round ${round + 1}`, error);
        }
      }
    }
  } finally {
    for (const [name, state] of states) await closeWithin(scenario, state, name, log);
  }

  const protocols = Object.fromEntries([...states].map(([name, state]) => [name, state?.protocolVersion]));
  const rows = scenario.rows.map((row) => ({ ...summarize(row, clients, samples, failures), target: row.target, scale: row.scale }));
  return { rows, failures, protocols };
}

async function runFresh(scenario, clients, options, log) {
  const measured = clients.filter((client) => scenario.clients === undefined || scenario.clients.includes(client.name));
  const samples = new Map(clients.map((client) => [client.name, []]));
  const failures = new Map();
  const alive = () => measured.filter((client) => !failures.has(client.name));
  const repetitions = options.reps ?? scenario.repetitions ?? options.rounds;
  const take = async (client, stage) => {
    try {
      return await scenario.measure(client.name, options);
    } catch (error) {
      failures.set(client.name, { stage, error });
      log(`  ${client.name}: FAILED during ${stage}: ${error?.stack ?? error}`);
      return undefined;
    }
  };
  if (scenario.warmup !== false) for (const client of alive()) await take(client, "warm-up");
  for (let round = 0; round < repetitions; round++) {
    for (const client of alive()) {
      const sample = await take(client, `repetition ${round + 1}`);
      if (sample !== undefined) samples.get(client.name).push(sample);
    }
  }
  const applies = new Set(measured.map((client) => client.name));
  const rows = scenario.rows.map((row) => ({
    ...summarize(row, clients, samples, failures, applies),
    repetitions,
    discarded: scenario.warmup !== false,
    target: row.target,
    scale: row.scale,
  }));
  return { rows, failures, protocols: {} };
}

function summarize(row, clients, samples, failures, applies) {
  const values = {};
  const spreads = {};
  const missing = {};
  for (const client of clients) {
    const taken = samples.get(client.name).map((sample) => sample[row.key]).filter((value) => value != null);
    const usable = !failures.has(client.name) && taken.length > 0;
    values[client.name] = usable ? median(taken) : null;
    spreads[client.name] = usable ? spread(taken) : null;
    if (!usable) missing[client.name] = applies === undefined || applies.has(client.name) ? "failed" : "n/a";
  }
  return {
    name: row.name,
    unit: row.unit,
    better: row.better,
    missing,
    ...values,
    ratioVsSdk: ratio(row.better, values.conduit, values.sdk),
    ratioVsRaw: ratio(row.better, values.conduit, values.raw),
    spreads,
  };
}

async function closeWithin(scenario, state, name, log) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve("timeout"), CLOSE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([Promise.resolve(scenario.close(state)).then(() => "closed"), timeout]);
    if (outcome === "timeout") log(`  ${name}: close() did not finish within ${CLOSE_TIMEOUT_MS} ms`);
  } catch (error) {
    log(`  ${name}: close() failed: ${error?.stack ?? error}`);
  } finally {
    clearTimeout(timer);
  }
}
