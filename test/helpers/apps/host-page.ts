// The host page's script in the bridge's browser tests: `appsHost.mount(...)` mounts a view with
// `mountApp` (the built package, aliased in by the bundler: see origins.ts) and the stand-in
// session, and keeps what happened for the test to read with `page.evaluate`.
import { mountApp, type MountableResource, type MountedApp } from "../../../src/apps/bridge/index.js";
import { standInSession, type SessionEvent, type SessionHandle } from "./session-stand-in.js";

/** Every message the host's window got, as the first listener saw it (before the bridge's). */
export interface SeenMessage {
  origin: string;
  fromApp: boolean;
  method: string | undefined;
}

interface MountRequest {
  sandboxUrl: string;
  resource: MountableResource;
  toolArguments?: Record<string, unknown>;
  innerSandbox?: string;
  readyTimeout?: number;
}

const events: SessionEvent[] = [];
const seen: SeenMessage[] = [];
const sizes: unknown[] = [];
const session: SessionHandle = {};
const container = document.createElement("div");
container.id = "apps";
document.body.append(container);
let mounted: MountedApp | undefined;

addEventListener("message", (event: MessageEvent) => {
  const method = (event.data as { method?: unknown } | null)?.method;
  seen.push({ origin: event.origin, fromApp: mounted !== undefined ? event.source === mounted.frame.contentWindow : event.source === container.querySelector("iframe")?.contentWindow, method: typeof method === "string" ? method : undefined });
});

const appsHost = {
  events,
  seen,
  sizes,
  async mount(request: MountRequest): Promise<void> {
    mounted = await mountApp({
      container,
      sandboxUrl: request.sandboxUrl,
      resource: request.resource,
      connect: standInSession(events, request.toolArguments ?? {}, session),
      ...(request.innerSandbox === undefined ? {} : { innerSandbox: request.innerSandbox }),
      ...(request.readyTimeout === undefined ? {} : { readyTimeout: request.readyTimeout }),
      onSizeChange: (size) => void sizes.push(size),
    });
  },
  /** The mount's failure as plain data, or undefined when it mounted. */
  async mountFailure(request: MountRequest): Promise<{ name: string; kind?: string; code?: string; message: string } | undefined> {
    try {
      await appsHost.mount(request);
      return undefined;
    } catch (error) {
      const { name, kind, code, message } = error as { name: string; kind?: string; code?: string; message: string };
      return { name, kind, code, message };
    }
  },
  /** Sends `message` to the view as the session would. */
  sendToView: (message: object): void => session.send?.(message),
  /** The `data` of each `notifications/message` the view sent. */
  logs: (): unknown[] =>
    events.flatMap((event) => (event.at === "received" && (event.message as { method?: string }).method === "notifications/message" ? [(event.message as { params: { data: unknown } }).params.data] : [])),
  frameHeight: (): string => mounted?.frame.style.height ?? "",
  frameCount: (): number => container.querySelectorAll("iframe").length,
  stats: () => mounted?.stats(),
  unmount: (): Promise<void> => mounted?.unmount() ?? Promise.resolve(),
};

export type AppsHost = typeof appsHost;
(globalThis as { appsHost?: AppsHost }).appsHost = appsHost;
