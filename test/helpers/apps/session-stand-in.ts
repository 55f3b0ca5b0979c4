// STAND-IN FOR AppSession, for the bridge's browser tests until the real session lands: the
// lead replaces `standInSession` by `AppSession` (constructed with `send`, it has `receive` and
// `teardown`: the same port). It answers the view's `ui/initialize` minimally, sends
// `tool-input` after `initialized`, answers `ping`, and on teardown asks the view
// `ui/resource-teardown` and waits for the answer. It judges nothing: every message is recorded,
// in order, for the test to read. Runs in the host page (browser code, no Node).
import type { AppPort, AppPortConnector } from "../../../src/apps/bridge/index.js";

/** One line of what the session saw or did, in order. */
export type SessionEvent =
  | { at: "connect" }
  | { at: "received"; message: unknown }
  | { at: "sent"; message: object }
  | { at: "teardown" };

interface Pending {
  resolve(): void;
}

/** Where the test finds the session's `send`, to speak to the view itself. */
export interface SessionHandle {
  send?: (message: object) => void;
}

/** A port that records into `events`; `toolArguments` go to the view in `tool-input`. */
export function standInSession(events: SessionEvent[], toolArguments: Record<string, unknown>, handle: SessionHandle = {}): AppPortConnector {
  return (send) => {
    events.push({ at: "connect" });
    let nextId = 1;
    const pending = new Map<number, Pending>();
    const post = (message: object): void => {
      events.push({ at: "sent", message });
      send(message);
    };
    handle.send = post;
    const port: AppPort = {
      receive(message) {
        events.push({ at: "received", message });
        const { id, method } = message as { id?: number | string; method?: string };
        if (method === "ui/initialize") {
          post({ jsonrpc: "2.0", id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "bridge-test-host", version: "1.0.0" }, hostCapabilities: { logging: {} }, hostContext: { displayMode: "inline" } } });
        } else if (method === "ui/notifications/initialized") {
          post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: toolArguments } });
        } else if (method === "ping") {
          post({ jsonrpc: "2.0", id, result: {} });
        } else if (method === undefined && typeof id === "number") {
          pending.get(id)?.resolve();
          pending.delete(id);
        } else if (id !== undefined) {
          post({ jsonrpc: "2.0", id, error: { code: -32601, message: `the stand-in session does not serve ${method}` } });
        }
      },
      teardown() {
        events.push({ at: "teardown" });
        const id = nextId++;
        return new Promise<void>((resolve) => {
          pending.set(id, { resolve });
          post({ jsonrpc: "2.0", id, method: "ui/resource-teardown", params: { reason: "unmounted by the test" } });
        });
      },
    };
    return port;
  };
}
