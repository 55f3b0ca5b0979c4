/**
 * A store call the client makes for itself, bounded in time: a store is the host's (Redis, a
 * database, a file) and may hang where it should fail, and a connect or a listing that only
 * hoped for a shortcut must not hang with it. The bound ends the wait, not the call.
 */
import { ClientError } from "./errors.js";
import { delay } from "./time.js";

/** How long the client waits for one store call before it goes without (ms). */
export const STORE_CALL_BOUND_MS = 5_000;

/** `call`'s outcome, or a `"store"` error naming `step` when it fails or takes longer than `ms`. */
export async function storeCall<T>(step: string, call: () => Promise<T>, ms: number = STORE_CALL_BOUND_MS): Promise<T> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      Promise.resolve().then(call),
      delay(ms, timer.signal).then(() => {
        throw new ClientError("store", `the store did not answer within ${ms} ms (${step})`);
      }),
    ]);
  } catch (error) {
    if (error instanceof ClientError && error.kind === "store") throw error;
    throw new ClientError("store", `the store failed (${step}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    timer.abort();
  }
}
