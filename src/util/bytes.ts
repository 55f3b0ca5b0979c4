/**
 * Bytes and text with what every runtime has (TextEncoder, TextDecoder, atob, btoa): the web
 * entry names no `Buffer`. One decoder and one encoder serve the whole process; decoding whole
 * bodies needs no state, and a stream of chunks uses its own `utf8Stream`.
 */
const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text of UTF-8 `chunks` (malformed sequences become U+FFFD, as `Buffer` does). */
export function utf8Text(chunks: readonly Uint8Array[] | Uint8Array, size?: number): string {
  if (chunks instanceof Uint8Array) return decoder.decode(chunks);
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  return decoder.decode(concatBytes(chunks, size));
}

export function concatBytes(chunks: readonly Uint8Array[], size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/** How many bytes `text` is in UTF-8, without encoding it (a lone surrogate counts 3, as U+FFFD). */
export function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) length += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A pair: 4 bytes for 2 code units.
      length += 2;
      i++;
    } else length += 2;
  }
  return length;
}

/** A decoder of a stream of chunks that keeps a character split between two for the next. */
export interface Utf8Stream {
  write(chunk: Uint8Array): string;
}

export function webUtf8Stream(): Utf8Stream {
  const streaming = new TextDecoder("utf-8");
  return { write: (chunk) => streaming.decode(chunk, { stream: true }) };
}

/** Standard Base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 §5), as JOSE uses. */
export function toBase64Url(bytes: Uint8Array | ArrayBuffer): string {
  return toBase64(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of Base64 `text` as a lenient decoder reads it (as `Buffer` does): either alphabet,
 * padding optional, anything else (whitespace, stray characters) skipped, and a trailing lone
 * character dropped. Callers that need clean Base64 compare what they get with what they expect.
 */
export function fromBase64(text: string): Uint8Array {
  let clean = text.replace(/[^A-Za-z0-9+/\-_]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  const binary = atob(clean + "=".repeat((4 - (clean.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** How many bytes Base64 `text` decodes to, as `fromBase64` reads it, without decoding it. */
export function base64Length(text: string): number {
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const inAlphabet = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47 || code === 45 || code === 95;
    if (inAlphabet) chars++;
  }
  return Math.floor((chars * 3) / 4);
}
