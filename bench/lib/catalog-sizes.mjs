// The sizes of the catalog's scale rows: 1 000, 10 000 and 100 000 tools over 10 to 100 stdio
// servers (the awk catalog server), and the row of each size, marked with its place on a curve.
import { runProbe } from "./fresh-process.mjs";
import { awkCatalogServer } from "./targets.mjs";

export const CATALOG_SIZES = [
  { servers: 10, tools: 100 },
  { servers: 50, tools: 200 },
  { servers: 100, tools: 1_000 },
];

const PROBE_TIMEOUT_MS = 300_000;
const total = ({ servers, tools }) => servers * tools;
const count = (n) => n.toLocaleString("en-US").replace(/,/g, " ");
const label = (size) => `${count(size.servers)} servers × ${count(size.tools)} tools`;

/** One row per size: `key` is the probe's field, `name` says what it is of "<size>". */
export function sizedRows({ key, curve, name, ...row }) {
  return CATALOG_SIZES.map((size) => ({
    key: `${key}@${total(size)}`,
    name: name(label(size)),
    ...row,
    scale: { curve, x: total(size), xUnit: "tools" },
  }));
}

/** The probe at every size; one sample with `<field>@<tools>` keys. */
export async function measureSizes(client, probeArgs = []) {
  const sample = {};
  for (const size of CATALOG_SIZES) {
    const target = awkCatalogServer(size.tools);
    const { last } = await runProbe("catalog", [client, size.servers, ...probeArgs, target.command, ...target.args], { nodeArgs: ["--expose-gc"], timeout: PROBE_TIMEOUT_MS });
    if (last.tools !== total(size)) throw new Error(`the catalog of ${label(size)} had ${last.tools} tools`);
    for (const [field, value] of Object.entries(last)) sample[`${field}@${total(size)}`] = value;
  }
  return sample;
}
