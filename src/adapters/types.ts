/** What every adapter shares: the JSON it handles, how it reports a tool it leaves out, what it calls. */
import type { CallOptions, CallToolResult, Tool } from "../index.js";

/** A JSON object, as a server's `inputSchema` is. */
export type JsonObject = Tool["inputSchema"];
/** Any JSON value. */
export type JsonValue = JsonObject[string];

/**
 * A tool an adapter did not offer as asked, and why. `reason` is written for a log or an
 * operator: it names what the API could not take and where in the schema.
 */
export interface ToolReport {
  readonly qualifiedName: string;
  readonly serverId: string;
  readonly reason: string;
}

/** Options every list of definitions takes. */
export interface ToolListOptions {
  /**
   * At most this many tools are given; the rest are reported in `skipped`, in catalog order.
   * OpenAI's default is its documented limit of 128; the others have no default bound.
   * `Infinity` for none.
   */
  maxTools?: number | undefined;
  /**
   * A tool whose `inputSchema` is longer than this many characters of JSON is reported, not
   * given: a server's schema is sent with every request and would fill the model's context.
   * Default 100,000; `Infinity` for none.
   */
  maxSchemaLength?: number | undefined;
}

/** What the definitions of one API are, with the tools that could not be among them. */
export interface ToolList<T> {
  /** Definitions, in catalog order. */
  tools: T[];
  /**
   * Tools left out: one not for the model (its `visibility` lacks `"model"`: made for its app's
   * view alone), a schema the API cannot take, a name it refuses, or past `maxTools`.
   */
  skipped: ToolReport[];
}

/** What `execute` needs: the Client's `callTool` by qualified name (`client` itself will do). */
export interface ToolCaller {
  callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
}
