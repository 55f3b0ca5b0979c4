// Small helpers shared by the tests that drive the raw HTTP server: reading what the client
// sent, answering by hand, and catching the ClientError a call rejects with.
import type { ServerResponse } from "node:http";
import { expect } from "vitest";
import { ClientError } from "../../src/node.js";
import { NEXT, type JsonObject, type RawHttpServer, type RecordedRequest, type RouteHandler } from "./raw-http.js";

/** The JSON-RPC method in a recorded request's body, if it has one. */
export function rpcMethod(r: RecordedRequest): string | undefined {
  const json = r.json as JsonObject | undefined;
  return typeof json?.["method"] === "string" ? json["method"] : undefined;
}

/** The POSTs that carried this JSON-RPC method, in order. */
export function posts(srv: RawHttpServer, method: string): RecordedRequest[] {
  return srv.requests.filter((r) => r.method === "POST" && rpcMethod(r) === method);
}

export function body(r: RecordedRequest): JsonObject {
  return r.json as JsonObject;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
}

export function sendStatus(res: ServerResponse, status: number, contentType?: string, payload = ""): void {
  res.writeHead(status, contentType === undefined ? {} : { "content-type": contentType }).end(payload);
}

/** A route that takes over one JSON-RPC method's POSTs and passes everything else on. */
export function onMethod(method: string, fn: (req: RecordedRequest, res: ServerResponse) => void): RouteHandler {
  return (req, res) => {
    if (rpcMethod(req) !== method) return NEXT;
    fn(req, res);
    return undefined;
  };
}

/** The ClientError `promise` rejects with; fails the test if it resolves or throws another thing. */
export async function failure(promise: Promise<unknown>): Promise<ClientError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ClientError);
    return error as ClientError;
  }
  throw new Error("expected the promise to reject");
}
