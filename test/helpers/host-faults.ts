// The test process plays the host. An uncaught exception or an unhandled rejection in it is what
// a host would die of: while a test watches, they are recorded instead of reported, so that the
// test can assert that none happened (and the worker survives one while the bug is present).
import { deferred } from "./raw-stdio.js";
import { track } from "./cleanup.js";

export interface HostFaults {
  /** Every uncaught exception and unhandled rejection since `watchHostFaults()`. */
  readonly faults: unknown[];
  /** Resolves with the first fault; never rejects. */
  readonly first: Promise<unknown>;
}

/** Records the process's uncaught exceptions and unhandled rejections until the test ends. */
export function watchHostFaults(): HostFaults {
  const faults: unknown[] = [];
  const first = deferred<unknown>();
  const record = (error: unknown): void => {
    faults.push(error);
    first.resolve(error);
  };
  // The runner's own listeners would report a fault as an error of the whole run: they are set
  // aside while this test watches, and put back after it.
  const exceptionListeners = process.listeners("uncaughtException");
  const rejectionListeners = process.listeners("unhandledRejection");
  for (const listener of exceptionListeners) process.off("uncaughtException", listener);
  for (const listener of rejectionListeners) process.off("unhandledRejection", listener);
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  track({
    close: () => {
      process.off("uncaughtException", record);
      process.off("unhandledRejection", record);
      for (const listener of exceptionListeners) process.on("uncaughtException", listener);
      for (const listener of rejectionListeners) process.on("unhandledRejection", listener);
      return Promise.resolve();
    },
  });
  return { faults, first: first.promise };
}
