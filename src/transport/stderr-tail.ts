/**
 * The last few kilobytes a server wrote to stderr, kept so that a connection error can show
 * why the server died. Bounded: a chatty server costs at most twice the limit.
 */
export class StderrTail {
  private text = "";

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.limit) this.text = this.text.slice(-this.limit);
  }

  /** The tail, cut at a line start when possible, or "" when the server said nothing. */
  toString(): string {
    let tail = this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
    if (tail.length < this.text.length) {
      const firstBreak = tail.indexOf("\n");
      if (firstBreak !== -1 && firstBreak < tail.length - 1) tail = tail.slice(firstBreak + 1);
    }
    return tail.trimEnd();
  }
}
