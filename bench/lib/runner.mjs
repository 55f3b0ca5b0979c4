// Runs one scenario for every client: open all, warm all up, then interleaved rounds
// (conduit, sdk, raw, conduit, sdk, raw, …) so that machine noise falls on all alike.
// A client that fails is reported and left out; the others still run.
import { collectYoungGarbage } from "./gc.mjs";
import { median, ratio, spread } from "./stats.mjs";

const CLOSE_TIMEOUT_MS = 5_000;

export async function runScenario(scenario, clients, options, log) {
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
  return { rows: scenario.rows.map((row) => summarize(row, clients, samples, failures)), failures, protocols };
}

function summarize(row, clients, samples, failures) {
  const values = {};
  const spreads = {};
  for (const client of clients) {
    const taken = samples.get(client.name).map((sample) => sample[row.key]);
    const usable = !failures.has(client.name) && taken.length > 0;
    values[client.name] = usable ? median(taken) : null;
    spreads[client.name] = usable ? spread(taken) : null;
  }
  return {
    name: row.name,
    unit: row.unit,
    better: row.better,
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
