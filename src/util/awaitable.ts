/**
 * A value or a promise of it. The input path returns what a Handler gave at once as a value:
 * each async layer a synchronous answer passes through costs a promise and a turn of the
 * microtask queue, and an MRTR round has several.
 */
export type Awaitable<T> = T | Promise<T>;

/** Whether `value` is a promise or any other object with a `then` method (which `await` would follow). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}
