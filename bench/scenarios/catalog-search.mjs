// `client.searchTools` over the catalog at three sizes (bench/lib/catalog-sizes.mjs), in a fresh
// process (bench/probes/catalog.mjs --search): the first search, which makes every server's index,
// and a search over the indexes made (CPU, the mean of several). Conduit alone: neither the
// official client nor the AI SDK's has a tool search.
import { measureSizes, sizedRows } from "../lib/catalog-sizes.mjs";

export default {
  id: "catalog-search",
  name: "tool search over 1 000 to 100 000 tools",
  fresh: true,
  repetitions: 3,
  clients: ["conduit"],
  rows: [
    ...sizedRows({ key: "searchColdMs", curve: "search-cold", name: (size) => `searchTools over ${size}, first (indexes made)`, unit: "ms", better: "lower" }),
    ...sizedRows({ key: "searchWarmCpuMs", curve: "search-warm", name: (size) => `searchTools over ${size}, indexed: CPU`, unit: "ms", better: "lower" }),
  ],

  measure: (client) => measureSizes(client, ["--search"]),
};
