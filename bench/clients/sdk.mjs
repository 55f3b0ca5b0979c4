// The official MCP TypeScript client (@modelcontextprotocol/client), configured as its docs say:
// - legacy: its defaults (`versionNegotiation` "legacy": the plain `initialize` handshake);
// - modern: `versionNegotiation: { mode: { pin: "2026-07-28" } }`, so it speaks 2026-07-28 or
//   fails (it probes with `server/discover`, on a short-lived sibling process over stdio).
// It always declares elicitation (form) and answers it through `setRequestHandler`, which in the
// modern era also fulfils MRTR input requests (`inputRequired.autoFulfill`, on by default).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { setMaxListeners } from "node:events";

export const name = "sdk";

const MODERN = "2026-07-28";

function transportFor(target) {
  if (target.url !== undefined) return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } });
  return new StdioClientTransport({ command: target.command, args: target.args ?? [], stderr: "inherit" });
}

/**
 * Over HTTP the sdk hands one AbortSignal to every `fetch`; Node 20's fetch adds a listener to it
 * per request and drops it only when the request is garbage-collected, so after 1 500 calls Node
 * warns once per call, capturing a stack each time. That warning is no part of the sdk's cost
 * (the listeners themselves stay): lift the limit on that one signal. `_abortController` is the
 * transport's own field (JavaScript-visible, private only in its types).
 */
function quietAbortListeners(transport) {
  const signal = transport._abortController?.signal;
  if (signal !== undefined) setMaxListeners(0, signal);
}

export async function connect(target, { era = "legacy" } = {}) {
  const client = new Client(
    { name: "bench-sdk", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
    },
  );
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { ok: true } }));
  try {
    const transport = transportFor(target);
    await client.connect(transport);
    quietAbortListeners(transport);
    const protocolVersion = client.getNegotiatedProtocolVersion();
    if (era === "modern" && protocolVersion !== MODERN) throw new Error(`sdk: negotiated ${protocolVersion}, not ${MODERN}`);
    return {
      protocolVersion,
      call: (tool, args) => client.callTool({ name: tool, arguments: args }),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
