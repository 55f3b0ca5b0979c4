/**
 * DPoP (RFC 9449): a key pair of this client's that a token is bound to; each request to the
 * resource carries a fresh proof, a JWT signed with the key naming the method, the URL (without
 * query and fragment), the time, the token's hash and, once a server asked for one, its nonce.
 * The private key is made non-extractable: it signs, and nothing can read it out, not even the
 * store that keeps the pair (IndexedDB keeps a CryptoKey as it is; `dpop-keys.ts`).
 */
import { toBase64Url as base64url } from "../util/bytes.js";

const encoder = new TextEncoder();

export class DpopKey {
  private constructor(
    readonly pair: CryptoKeyPair,
    private readonly jwk: Record<string, unknown>,
    private readonly subtle: SubtleCrypto,
  ) {}

  /** An ES256 key pair; the private key is not extractable. */
  static async create(): Promise<DpopKey> {
    const subtle = globalThis.crypto.subtle;
    const pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const { kty, crv, x, y } = await subtle.exportKey("jwk", pair.publicKey);
    return new DpopKey(pair, { kty, crv, x, y }, subtle);
  }

  /** The pair a store kept (its private key as it was made: non-extractable). */
  static async from(pair: CryptoKeyPair): Promise<DpopKey> {
    const subtle = globalThis.crypto.subtle;
    const { kty, crv, x, y } = await subtle.exportKey("jwk", pair.publicKey);
    return new DpopKey(pair, { kty, crv, x, y }, subtle);
  }

  /** The JWK thumbprint of the public key (RFC 7638): what a token bound to this key is bound to (`cnf.jkt`). */
  async thumbprint(): Promise<string> {
    const { crv, kty, x, y } = this.jwk;
    // The required members in lexicographic order, no white space.
    const canonical = JSON.stringify({ crv, kty, x, y });
    return base64url(await this.subtle.digest("SHA-256", encoder.encode(canonical)));
  }

  /** A proof for one request; `accessToken` when it presents one, `nonce` when the server gave one. */
  async proof(method: string, url: URL, accessToken: string | undefined, nonce: string | undefined): Promise<string> {
    const header = { typ: "dpop+jwt", alg: "ES256", jwk: this.jwk };
    const payload: Record<string, unknown> = {
      jti: base64url(crypto.getRandomValues(new Uint8Array(16))),
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      iat: Math.floor(Date.now() / 1000),
    };
    if (accessToken !== undefined) payload.ath = base64url(await this.subtle.digest("SHA-256", encoder.encode(accessToken)));
    if (nonce !== undefined) payload.nonce = nonce;
    const input = `${base64url(encoder.encode(JSON.stringify(header)))}.${base64url(encoder.encode(JSON.stringify(payload)))}`;
    // WebCrypto's ECDSA signature is already the JWS form (r and s, 32 bytes each).
    const signature = await this.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.pair.privateKey, encoder.encode(input));
    return `${input}.${base64url(signature)}`;
  }
}
