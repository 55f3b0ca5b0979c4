// The catalog at three sizes (bench/lib/catalog-sizes.mjs) turned into each model API's tool
// definitions by `conduit-mcp/adapters`, with no count bound (OpenAI takes 128 functions a
// request; the curve is the adapter's cost per tool): the CPU time of one conversion, the mean of
// several, in a fresh process (bench/probes/catalog.mjs --adapters). Conduit alone: the official
// client has no adapters.
import { measureSizes, sizedRows } from "../lib/catalog-sizes.mjs";

const row = (key, curve, api) => sizedRows({ key, curve, name: (size) => `${api} tools of ${size}: CPU`, unit: "ms", better: "lower" });

export default {
  id: "catalog-adapters",
  name: "catalog of 1 000 to 100 000 tools as model API tools",
  fresh: true,
  repetitions: 3,
  clients: ["conduit"],
  rows: [
    ...row("openaiCpuMs", "adapter-openai", "OpenAI Chat"),
    ...row("openaiStrictCpuMs", "adapter-openai-strict", "OpenAI Chat (strict)"),
    ...row("anthropicCpuMs", "adapter-anthropic", "Anthropic"),
    ...row("aiSdkCpuMs", "adapter-ai-sdk", "AI SDK"),
  ],

  measure: (client) => measureSizes(client, ["--adapters"]),
};
