/**
 * What OAuth keeps in the host's store, and under which keys: tokens per resource,
 * registrations per authorization server and redirect URI, and the authorization server a
 * host's credentials were first used with, per resource. A host that serves many people over
 * one store (a gateway) gives each a `namespace`, and every key is under it, so that one
 * person's token is never another's. The store's failures are `"auth"` errors of the step.
 */
import { isObject } from "../util/json.js";
import type { AuthStore } from "../stores/auth-store.js";
import { storeError, type AuthStep } from "./auth-error.js";

export class AuthRecords {
  /** `conduit:` alone, or `conduit@<namespace>:`, the namespace percent-encoded so it holds no `:`. */
  private readonly prefix: string;

  constructor(
    private readonly store: AuthStore,
    namespace: string | undefined,
  ) {
    this.prefix = namespace === undefined ? "conduit:" : `conduit@${encodeURIComponent(namespace)}:`;
  }

  tokensKey(resource: URL): string {
    return `${this.prefix}tokens:${resource.origin}${resource.pathname}`;
  }

  registrationKey(issuer: string, redirectUri: string): string {
    return `${this.prefix}registration:${issuer} ${redirectUri}`;
  }

  /** The code flow under way for a resource, kept across a full-page redirect (`pending-flow.ts`). */
  flowKey(resource: URL): string {
    return `${this.prefix}flow:${resource.origin}${resource.pathname}`;
  }

  /** This client's DPoP key pair for a resource, in a store that keeps key pairs. */
  dpopKeyKey(resource: URL): string {
    return `${this.prefix}dpop-key:${resource.origin}${resource.pathname}`;
  }

  issuerKey(resource: URL, credentials: string): string {
    return `${this.prefix}issuer:${resource.origin}${resource.pathname} ${credentials}`;
  }

  /** The JSON object kept under `key`; a value that is none is removed and reads as absent. */
  async read(step: AuthStep, key: string): Promise<Record<string, unknown> | undefined> {
    let kept: string | undefined;
    try {
      kept = await this.store.get(key);
    } catch (error) {
      throw storeError(step, "read", error);
    }
    if (kept === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(kept);
      if (isObject(parsed)) return parsed;
    } catch {
      // Not JSON: as if absent.
    }
    await this.remove(step, key).catch(() => {});
    return undefined;
  }

  async write(step: AuthStep, key: string, value: object): Promise<void> {
    try {
      await this.store.set(key, JSON.stringify(value));
    } catch (error) {
      throw storeError(step, "written", error);
    }
  }

  async remove(step: AuthStep, key: string): Promise<void> {
    try {
      await this.store.delete(key);
    } catch (error) {
      throw storeError(step, "written", error);
    }
  }
}
