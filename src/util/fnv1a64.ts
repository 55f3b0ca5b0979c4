/**
 * FNV-1a, 64 bits, in two 32-bit halves (no BigInt on the way): a short hash that is the same
 * from run to run and in every runtime. It is not a cryptographic hash; what it names must stay
 * right when two inputs share one (the catalog's names are checked against those issued).
 */
export class Fnv1a64 {
  // The offset basis 0xcbf29ce484222325.
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;

  /** Adds one byte (0–255). */
  byte(value: number): this {
    const lo = (this.lo ^ value) >>> 0;
    // × the prime 0x100000001b3 = 2^40 + 0x1b3, mod 2^64: each product stays below 2^42, exact.
    const low = lo * 0x1b3;
    this.lo = low >>> 0;
    this.hi = (this.hi * 0x1b3 + Math.floor(low / 0x1_0000_0000) + ((lo << 8) >>> 0)) >>> 0;
    return this;
  }

  /** Adds a 32-bit number, low byte first. */
  uint32(value: number): this {
    return this.byte(value & 0xff).byte((value >>> 8) & 0xff).byte((value >>> 16) & 0xff).byte(value >>> 24);
  }

  /**
   * Adds a text's UTF-16 code units, each as two bytes: every string (lone surrogates included)
   * is its own sequence, which UTF-8 would not give (it makes every lone surrogate U+FFFD).
   */
  units(text: string): this {
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      this.byte(unit & 0xff).byte(unit >>> 8);
    }
    return this;
  }

  /** The hash as 16 hexadecimal digits. */
  hex(): string {
    return this.hi.toString(16).padStart(8, "0") + this.lo.toString(16).padStart(8, "0");
  }

  /** The hash as 14 lower-case base-36 digits (7 for each half: 36^7 > 2^32). */
  base36(): string {
    return this.hi.toString(36).padStart(7, "0") + this.lo.toString(36).padStart(7, "0");
  }
}
