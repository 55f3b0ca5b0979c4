// The catalog across servers at three sizes (bench/lib/catalog-sizes.mjs), each measurement a
// fresh process (bench/probes/catalog.mjs) against stdio servers written in awk: Conduit's
// `client.tools()` against the catalog a host writes by hand on the official client (one Client
// per server, lists kept until list_changed, joined with qualified names on each call). Rows:
// the first listing, a listing while every list is cached, the heap the catalog holds, and
// after one server's list_changed the time until the catalog is fresh and how many tools were
// re-made for it (only that server's, when the catalog rebuilds only its part).
import { measureSizes, sizedRows } from "../lib/catalog-sizes.mjs";

export default {
  id: "catalog",
  name: "catalog of 1 000 to 100 000 tools",
  fresh: true,
  repetitions: 3,
  clients: ["conduit", "sdk"],
  rows: [
    ...sizedRows({ key: "coldMs", curve: "catalog-cold", name: (size) => `tools() of ${size}, first listing`, unit: "ms", better: "lower" }),
    ...sizedRows({ key: "warmCpuMs", curve: "catalog-warm", name: (size) => `tools() of ${size}, cached: CPU`, unit: "ms", better: "lower" }),
    ...sizedRows({ key: "heapMiB", curve: "catalog-heap", name: (size) => `tools() of ${size}: heap the catalog holds`, unit: "MiB", better: "lower" }),
    ...sizedRows({ key: "changedMs", curve: "catalog-changed", name: (size) => `tools() of ${size}, one list_changed: until fresh`, unit: "ms", better: "lower" }),
    ...sizedRows({ key: "remade", curve: "catalog-remade", name: (size) => `tools() of ${size}, one list_changed: tools re-made`, unit: "tools", better: "lower" }),
  ],

  measure: (client) => measureSizes(client),
};
