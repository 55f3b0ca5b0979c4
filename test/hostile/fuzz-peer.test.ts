// Fuzzing the JSON-RPC peer's inbound path (src/rpc/peer.ts): whatever JSON a server sends, the
// peer throws nothing out of `message()`, counts each invalid message once, counts a response
// to an id it never sent (or already settled) as stale, settles each of its own requests by the
// one response that names it, and sends nothing of its own accord (answers are the handlers').
//
// The expected outcome of each message comes from a model of JSON-RPC 2.0 written here, apart
// from the peer. fast-check's `fc.assert` rejects with the seed, the replay path and the shrunk
// counterexample in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRow } from "./safety.js";
import { RpcPeer, type PeerHandlers } from "../../src/rpc/peer.js";
import type { InboundRequest } from "../../src/rpc/inbound-request.js";
import type { Transport } from "../../src/transport/transport.js";
import { ClientError, ErrorCode } from "../../src/util/errors.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

// ---- what a server might send --------------------------------------------------------------

const absent = Symbol("absent");
/** Ids that hit the client's requests (1–4), miss them, or are no id at all. */
const id = fc.oneof(
  fc.integer({ min: 1, max: 6 }),
  fc.constantFrom(0, -1, 1.5, -0, 1e300, null, true, "1", "", "__proto__"),
  fc.constantFrom([], {}, [1], { id: 1 }),
);
const errorObject = fc.oneof(
  fc.record({ code: fc.integer(), message: fc.string() }),
  fc.record({ code: fc.oneof(fc.double(), fc.string()), message: fc.jsonValue() }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const field = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: absent, freq: 3 });
/** Objects shaped like JSON-RPC messages, each member present or not, well-typed or not. */
const messageLike = fc
  .record({
    jsonrpc: field(fc.constantFrom<unknown>("2.0", "2.0", "2.0", "1.0", 2, null)),
    method: field(fc.oneof(fc.constantFrom("notifications/progress", "notifications/cancelled", "ping", "sampling/createMessage"), fc.string(), fc.integer())),
    id: field(id),
    params: field(fc.oneof(fc.dictionary(fc.constantFrom("progressToken", "progress", "requestId", "_meta"), fc.oneof(id, fc.double())), fc.jsonValue())),
    result: field(fc.jsonValue()),
    error: field(errorObject),
  })
  .map((parts) => {
    const message: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parts)) if (value !== absent) message[key] = value;
    return message;
  });
const single = fc.oneof({ weight: 6, arbitrary: messageLike }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
const inbound = fc.oneof({ weight: 8, arbitrary: single }, { weight: 1, arbitrary: fc.array(fc.oneof(single, fc.array(single, { maxLength: 2 })), { maxLength: 4 }) });

// ---- the model ---------------------------------------------------------------------------------

type Outcome = "result" | "rpc" | "protocol";
interface Expected {
  invalid: number;
  stale: number;
  serverRequests: number;
  settled: Map<number, Outcome>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** What JSON-RPC 2.0 makes of one message, given the requests open each way. */
function model(value: unknown, open: Set<number>, serverOpen: Set<string | number>, expected: Expected): void {
  if (!isObject(value) || value.jsonrpc !== "2.0") return void (expected.invalid += 1);
  if (typeof value.method === "string") {
    if (value.params !== undefined && !isObject(value.params)) return void (expected.invalid += 1);
    if (!Object.hasOwn(value, "id")) {
      // A cancellation of a request still open ends it; nothing else a notification says is counted here.
      const params = value.params;
      if (value.method === "notifications/cancelled" && params !== undefined && isId(params.requestId)) serverOpen.delete(params.requestId);
      return;
    }
    if (!isId(value.id) || serverOpen.has(value.id)) return void (expected.invalid += 1);
    serverOpen.add(value.id);
    expected.serverRequests += 1;
    return;
  }
  if (!Object.hasOwn(value, "id")) return void (expected.invalid += 1);
  const target = value.id;
  if (typeof target !== "number" || !open.has(target)) return void (expected.stale += 1);
  open.delete(target);
  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  const error = value.error;
  const validError = isObject(error) && Number.isInteger(error.code) && typeof error.message === "string";
  expected.settled.set(target, hasResult && !hasError ? "result" : hasError && !hasResult && validError ? "rpc" : "protocol");
}

function modelInbound(value: unknown, batches: boolean, open: Set<number>, serverOpen: Set<string | number>, expected: Expected): void {
  if (!Array.isArray(value) || !batches) return model(value, open, serverOpen, expected);
  if (value.length === 0) return void (expected.invalid += 1);
  for (const member of value) {
    if (Array.isArray(member)) expected.invalid += 1;
    else model(member, open, serverOpen, expected);
  }
}

// ---- the peer under test -----------------------------------------------------------------------

function peerWith(batches: boolean) {
  const sent: object[] = [];
  const transport = {
    kind: "stdio",
    origin: undefined,
    start: () => Promise.resolve(),
    send: (message: object) => void sent.push(message),
    abandon: () => {},
    configure: () => {},
    close: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  } as unknown as Transport;
  const seen = { serverRequests: 0, invalidCodes: new Set<number>() };
  const handlers: PeerHandlers = {
    // Left unanswered, so that a second request with the same id is a duplicate.
    onServerRequest: (_request: InboundRequest) => void (seen.serverRequests += 1),
    onNotification: () => {},
    onInvalid: (code) => void seen.invalidCodes.add(code),
    acceptsBatches: () => batches,
    onGaveUp: () => {},
    onClosed: () => {},
    onPersonWait: () => {},
  };
  const peer = new RpcPeer(transport, handlers, { serverId: "fuzz", logger: quiet, requestTimeout: 3_600_000 });
  return { peer, sent, seen };
}

describe("fuzz: JSON-RPC peer, inbound", () => {
  it("throws nothing, counts invalid and stale messages, and settles each request by its own response", async (context) => {
    const runs = 1_500;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.array(inbound, { maxLength: 12 }), async (requests, batches, messages) => {
        const { peer, sent, seen } = peerWith(batches);
        const calls = Array.from({ length: requests }, (_, i) => peer.request(`method/${i + 1}`, undefined));
        const outcomes = calls.map((call) =>
          call.then(
            (): Outcome | "closed" => "result",
            (error: unknown) => (error instanceof ClientError && (error.kind === "rpc" || error.kind === "protocol" || error.kind === "closed") ? error.kind : `unexpected ${String(error)}`),
          ),
        );
        const open = new Set(calls.map((_, i) => i + 1));
        const expected: Expected = { invalid: 0, stale: 0, serverRequests: 0, settled: new Map() };
        const serverOpen = new Set<string | number>();
        for (const message of messages) {
          expect(() => peer.message(message, undefined)).not.toThrow();
          modelInbound(message, batches, open, serverOpen, expected);
        }
        expect(peer.stats.invalidMessages).toBe(expected.invalid);
        expect(peer.stats.staleResponses).toBe(expected.stale);
        expect(seen.serverRequests).toBe(expected.serverRequests);
        // The peer answers nothing itself: the handlers decide, and these answer nothing.
        expect(sent).toHaveLength(requests);
        for (const code of seen.invalidCodes) expect(code).toBe(ErrorCode.InvalidRequest);
        peer.close(new ClientError("closed", "the fuzz case ended"));
        const settled = await Promise.all(outcomes);
        settled.forEach((outcome, i) => expect(outcome).toBe(expected.settled.get(i + 1) ?? "closed"));
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "JSON-RPC peer, inbound", "throws nothing, counts invalid and stale messages, and settles each request by its own response");
  });

  it("counts every response to an id it never sent as stale, and leaves its own requests pending", (context) => {
    const runs = 1_000;
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.oneof(fc.integer({ min: 100 }), fc.string(), fc.constant(null), fc.double()), result: fc.jsonValue({ maxDepth: 2 }) }), { minLength: 1, maxLength: 20 }), (responses) => {
        const { peer } = peerWith(false);
        const call = peer.request("tools/call", undefined, {}, true);
        call.catch(() => {});
        for (const response of responses) peer.message({ jsonrpc: "2.0", ...response }, undefined);
        expect(peer.stats.staleResponses).toBe(responses.length);
        expect(peer.stats.invalidMessages).toBe(0);
        expect(peer.callsInFlight).toBe(1);
        peer.close(new ClientError("closed", "the fuzz case ended"));
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "JSON-RPC peer, inbound", "counts every response to an id it never sent as stale, and leaves its own requests pending");
  });
});
