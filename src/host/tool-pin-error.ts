import { ClientError } from "../util/errors.js";
import { quote } from "../util/text.js";

/** Why a tool waits for the host: its definition changed since it was approved, or it is new. */
export type ToolApprovalReason = "changed" | "new";

export interface ToolNotApprovedErrorOptions {
  serverId: string;
  qualifiedName: string;
  toolName: string;
  reason: ToolApprovalReason;
}

const brand = Symbol.for("conduit-mcp.ToolNotApprovedError");

/**
 * A call refused because pinning holds the tool back until the host approves it
 * (`client.approveTools`). A `ClientError` of kind `"unsupported"`, as for a tool the catalog does
 * not give: to the caller it is not there. Nothing was sent.
 */
export class ToolNotApprovedError extends ClientError {
  readonly qualifiedName: string;
  readonly toolName: string;
  readonly reason: ToolApprovalReason;

  constructor(options: ToolNotApprovedErrorOptions) {
    const what = options.reason === "changed" ? "changed since it was approved" : "new since the server was first listed";
    super("unsupported", `the tool ${options.qualifiedName} (${quote(options.toolName)} of server "${options.serverId}") ${what}: it waits for client.approveTools`, { serverId: options.serverId });
    this.qualifiedName = options.qualifiedName;
    this.toolName = options.toolName;
    this.reason = options.reason;
    Object.defineProperty(this, brand, { value: true });
  }

  // Its own brand: without it, every ClientError would pass `instanceof ToolNotApprovedError`.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
