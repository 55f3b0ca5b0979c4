/**
 * Which authorization server may receive the host's own credentials: a client secret, a
 * private key's assertion, a workload's JWT, an enterprise's ID token (basic/authorization:
 * credentials are bound to the issuer they were made for). The one the host named in `issuer`;
 * else the one first used with these credentials for this resource, remembered in the store,
 * so that a server whose metadata later names another (a takeover, a typo, a hostile
 * redirect) gets nothing, in this process or any other sharing the store.
 *
 * "These credentials" are the client id and the kind of credential, never the secret itself
 * (a store is not a vault). A client with nothing of the host's (Dynamic Client Registration,
 * a Client ID Metadata Document, a public client id) is bound to no issuer: its registrations
 * are kept per issuer, and it follows a resource that moves.
 */
import { excerpt } from "../util/text.js";
import { authError } from "./auth-error.js";
import type { AuthRecords } from "./auth-records.js";
import { sameIssuer } from "./discovery.js";
import type { AuthOptions } from "./options.js";

/** The identity of the host's credentials (kind and client id), or undefined when it gave none. */
export function credentialsIdentity(options: AuthOptions): string | undefined {
  const grant = options.grant;
  const kinds: string[] = [];
  if (grant?.type === "client_credentials") kinds.push(grant.privateKey === undefined ? "client_credentials" : "private_key_jwt");
  else if (grant?.type === "jwt_bearer") kinds.push("jwt_bearer");
  else if (grant?.type === "enterprise") kinds.push(`enterprise(${grant.idpClientId}@${grant.idpTokenEndpoint})`);
  if (options.clientSecret !== undefined) kinds.push("client_secret");
  return kinds.length === 0 ? undefined : `${kinds.join("+")} ${options.clientId ?? ""}`;
}

export class IssuerBinding {
  private readonly identity: string | undefined;
  private readonly key: string | undefined;

  constructor(
    private readonly records: AuthRecords,
    resource: URL,
    private readonly options: AuthOptions,
  ) {
    this.identity = credentialsIdentity(options);
    this.key = this.identity === undefined ? undefined : records.issuerKey(resource, this.identity);
  }

  /** Among the servers a resource names, the one these credentials may go to; an `"auth"` error (discovery) naming both when there is none. */
  async pick(named: readonly string[]): Promise<string> {
    const given = this.options.issuer;
    const bound = given ?? (await this.remembered());
    if (bound === undefined) return named[0]!;
    const match = named.find((issuer) => sameIssuer(issuer, bound));
    if (match !== undefined) return match;
    const which = given === undefined ? "these credentials were first used with for this resource" : "this client's credentials are for";
    throw authError("discovery", `the server names the authorization server ${excerpt(named[0], 200)}, not the one ${which} (${excerpt(bound, 200)}); nothing is sent to it`);
  }

  /** Records the issuer the credentials are about to be first used with (when the host named none). */
  async use(issuer: string): Promise<void> {
    if (this.key === undefined || this.options.issuer !== undefined) return;
    if ((await this.remembered()) !== undefined) return;
    await this.records.write("discovery", this.key, { issuer });
  }

  private async remembered(): Promise<string | undefined> {
    if (this.key === undefined) return undefined;
    const kept = await this.records.read("discovery", this.key);
    return typeof kept?.issuer === "string" ? kept.issuer : undefined;
  }
}
