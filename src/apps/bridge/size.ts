/**
 * Following the view's size (MCP Apps 2026-01-26, "Container Dimensions": a host whose
 * dimensions are flexible follows `ui/notifications/size-changed`). The bridge reads the
 * notification as it passes on its way to the session, rather than being told the size by the
 * session: the size is a matter of the frame, which only the bridge holds, and the session stays
 * free of the DOM. The notification still reaches the session (for its log and its checks).
 */

/** A size the view reported, in CSS pixels; a side it did not report (or reported wrongly) is absent. */
export interface AppSize {
  width?: number;
  height?: number;
}

/** Which sides of the frame follow the view's reports. */
export type AutoSize = "height" | "both" | "none";

export const AUTO_SIZES: readonly AutoSize[] = Object.freeze(["height", "both", "none"]);

/** A side past this is a view's mistake or its attempt to cover the page; it is held here. */
export const MAX_SIDE_PX = 100_000;

function side(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return Math.min(Math.ceil(value), MAX_SIDE_PX);
}

/** The size in a `size-changed` notification's params; undefined when it names no valid side. */
export function reportedSize(params: unknown): AppSize | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const own = (key: string): unknown => (Object.hasOwn(params, key) ? (params as Record<string, unknown>)[key] : undefined);
  const width = side(own("width"));
  const height = side(own("height"));
  if (width === undefined && height === undefined) return undefined;
  const size: AppSize = {};
  if (width !== undefined) size.width = width;
  if (height !== undefined) size.height = height;
  return size;
}

/** Sets the frame's sides that follow the view. */
export function applySize(frame: HTMLIFrameElement, size: AppSize, follow: AutoSize): void {
  if (follow === "none") return;
  if (size.height !== undefined) frame.style.height = `${size.height}px`;
  if (follow === "both" && size.width !== undefined) frame.style.width = `${size.width}px`;
}
