/**
 * Newline-delimited framing for stdio: bytes in, one string per line out.
 *
 * A partial line is kept as a list of chunks and joined once, when its newline arrives, so a
 * multi-megabyte message costs one copy instead of one per chunk. The limit is checked before
 * anything is buffered past it, and the rest of a line that outgrew it is skipped unread, up
 * to its newline: nothing of an oversized message is parsed.
 */
export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`a message exceeded maxMessageBytes (${limit} bytes)`);
  }
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineFramer {
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Inside a line that outgrew the limit: bytes are dropped until its newline. */
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Feeds a chunk. Throws `LineTooLongError` once a line outgrows the limit. */
  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    if (this.skipping) {
      if (newline === -1) return;
      this.skipping = false;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    while (newline !== -1) {
      this.emit(chunk, start, newline);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** Bytes held for a line whose newline has not arrived. */
  get pending(): number {
    return this.partBytes;
  }

  private keep(rest: Buffer): void {
    this.partBytes += rest.length;
    if (this.partBytes > this.maxBytes) this.overflow();
    this.parts.push(rest);
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    const length = this.partBytes + (end - start);
    if (length > this.maxBytes) {
      // The line ended in this chunk: nothing of it is left to skip.
      this.reset();
      throw new LineTooLongError(this.maxBytes);
    }
    if (this.parts.length === 0) {
      // The whole line is in this chunk (almost always): decoded from it, with no view made of it.
      this.decode(chunk, start, end);
      return;
    }
    this.parts.push(chunk.subarray(start, end));
    const line = Buffer.concat(this.parts, length);
    this.reset();
    this.decode(line, 0, line.length);
  }

  /** Hands on `bytes[start, end)` as text, less a trailing carriage return; an empty line is none. */
  private decode(bytes: Buffer, start: number, end: number): void {
    let stop = end;
    if (stop > start && bytes[stop - 1] === CARRIAGE_RETURN) stop -= 1;
    if (stop === start) return;
    this.onLine(bytes.toString("utf8", start, stop));
  }

  private overflow(): never {
    this.reset();
    this.skipping = true;
    throw new LineTooLongError(this.maxBytes);
  }

  private reset(): void {
    this.parts = [];
    this.partBytes = 0;
  }
}
