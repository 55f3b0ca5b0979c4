// The view in the bridge's browser tests: the official `App` class of
// @modelcontextprotocol/ext-apps, unchanged, with probes of what the frame lets it do. On
// `tool-input` it runs the probes the arguments name and reports each with `sendLog`; a
// `test/marker` notification (which App ignores) makes it report every method its window got.
// Bundled into one inline script of the view's HTML by origins.ts.
import { App } from "@modelcontextprotocol/ext-apps/app-with-deps";

interface Probes {
  fetch?: { allowed: string; blocked: string };
  reach?: boolean;
  grow?: number;
  navigate?: string;
}

const received: string[] = [];
const violations: Array<{ directive: string; blocked: string }> = [];
/** Settles on the first connect-src violation (the event comes in a task of its own, after the fetch fails). */
let connectViolation: () => void = () => {};
const connectViolated = new Promise<void>((resolve) => (connectViolation = resolve));
const app = new App({ name: "bridge-test-view", version: "1.0.0" }, {});

const report = (probe: string, result: unknown): Promise<void> => app.sendLog({ level: "info", data: { probe, result } });

async function fetched(url: string): Promise<string> {
  try {
    const response = await fetch(url);
    return `${response.status} ${await response.text()}`;
  } catch (error) {
    return (error as Error).name;
  }
}

/** What touching a property of another frame gave: its value's type, or the error's name. */
function touch(read: () => unknown): string {
  try {
    return typeof read();
  } catch (error) {
    return (error as Error).name;
  }
}

async function run(probes: Probes): Promise<void> {
  if (probes.fetch !== undefined) {
    const allowed = await fetched(probes.fetch.allowed);
    const blocked = await fetched(probes.fetch.blocked);
    if (blocked === "TypeError") await connectViolated;
    await report("fetch", { allowed, blocked, violations: violations.filter((v) => v.directive === "connect-src") });
  }
  if (probes.reach === true) {
    await report("reach", {
      topDocument: touch(() => window.top!.document),
      topBody: touch(() => window.top!.document.body.innerHTML),
      parentDocument: touch(() => window.parent.document),
      topLocation: touch(() => window.top!.location.href),
      origin: window.origin,
    });
  }
  if (probes.grow !== undefined) document.body.style.height = `${probes.grow}px`;
  if (probes.navigate !== undefined) location.href = probes.navigate;
}

addEventListener("message", (event: MessageEvent) => {
  const data = event.data as { method?: unknown; id?: unknown } | null;
  received.push(typeof data?.method === "string" ? data.method : `response ${String(data?.id)}`);
  if (data?.method === "test/marker") void report("received", [...received]);
});
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI });
  if (event.effectiveDirective === "connect-src") connectViolation();
});
app.ontoolinput = ({ arguments: args }) => void run((args ?? {}) satisfies Probes);
await app.connect();
