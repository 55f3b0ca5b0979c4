/**
 * The seam between the bridge (DOM, frames, origins) and the policy on what a view asks
 * (`AppSession`: no DOM, a message in, a message out). The bridge calls `connect` once the
 * sandbox proxy is ready, before the view exists, handing it `send` (a message for the view);
 * the port it gets back is given each message the view sent, and is torn down on `unmount`.
 */
export interface AppPort {
  /** A message from the view, as it came out of `postMessage` (checked for window and origin only). */
  receive(message: unknown): void;
  /** Ends the view's session (the spec's `ui/resource-teardown`, answered or given up); the frames go after it settles. */
  teardown(): Promise<void>;
}

/** Makes the session of one mounted view; `send` posts a JSON-RPC message to the view. */
export type AppPortConnector = (send: (message: object) => void) => AppPort;
