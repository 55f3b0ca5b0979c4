/**
 * The client's end of a server's stdin: lines go to the pipe in the order they were sent, and
 * what waits for the server to read them is bounded.
 *
 * While the pipe is backed up, lines wait here and go to it as one write when it drains: Node
 * keeps several hundred bytes of bookkeeping per pending write, so 8 MiB of 50-byte answers
 * written one by one weigh 70 MB.
 *
 * A server that floods requests and does not read the answers must not make the client hold
 * answers without end. Past `ANSWER_BACKLOG_BYTES` of answers (and notifications) waiting, the
 * server's output is not read until the pipe drains, as `stream.pipe` does: the server gets no
 * more attention than it reads answers for, and none of its answers is lost. Only answers count
 * towards it: pausing for the client's own large requests could deadlock with a server that
 * blocks on writing to the client while it has not read them yet.
 *
 * Past `MAX_QUEUED_WRITE_BYTES` in all the writer refuses a line; the transport then fails a
 * request alone (its caller hears of it) and the connection for anything else (an answer cannot
 * be dropped without leaving the server waiting for it for ever).
 */
import type { Writable } from "node:stream";

/** Bytes that may wait for the server to read them, requests included, before a line is refused. */
export const MAX_QUEUED_WRITE_BYTES = 8 * 1024 * 1024;
/** Bytes of answers waiting for the server beyond which its output is not read until they drain. */
export const ANSWER_BACKLOG_BYTES = 1024 * 1024;

/** What the writer asks of whoever reads the server's output. */
export interface ReadControl {
  pause(): void;
  resume(): void;
}

export class StdinWriter {
  private waiting: string[] = [];
  private waitingBytes = 0;
  private waitingAnswerBytes = 0;
  /** The pipe asked for a pause (`write` returned false) and has not drained yet. */
  private blocked = false;
  private paused = false;

  constructor(
    private readonly stdin: Writable,
    private readonly reading: ReadControl,
  ) {
    stdin.on("drain", () => this.drained());
  }

  /** Bytes the server has not read yet: what Node holds for the pipe and what waits here. */
  get backlog(): number {
    return this.stdin.writableLength + this.waitingBytes;
  }

  /** Sends one line (with its newline); false, and nothing sent, when the backlog is over the bound. */
  write(line: string, answer: boolean): boolean {
    if (this.backlog > MAX_QUEUED_WRITE_BYTES) return false;
    if (!this.blocked && this.waiting.length === 0) {
      this.blocked = !this.stdin.write(line);
      return true;
    }
    const bytes = Buffer.byteLength(line);
    this.waiting.push(line);
    this.waitingBytes += bytes;
    if (answer) this.waitingAnswerBytes += bytes;
    if (this.waitingAnswerBytes > ANSWER_BACKLOG_BYTES && !this.paused) {
      this.paused = true;
      this.reading.pause();
    }
    return true;
  }

  /** Ends the pipe after what waits here (a graceful close gives the server its last answers). */
  end(): void {
    const rest = this.take();
    if (rest === "") this.stdin.end();
    else this.stdin.end(rest);
  }

  /** Lets go of what waits: the connection is over. */
  discard(): void {
    this.take();
  }

  private drained(): void {
    this.blocked = false;
    const batch = this.take();
    if (batch !== "") this.blocked = !this.stdin.write(batch);
    // What was held is the pipe's now; new answers wait here again, up to the bound.
    if (this.paused) {
      this.paused = false;
      this.reading.resume();
    }
  }

  private take(): string {
    if (this.waiting.length === 0) return "";
    const batch = this.waiting.join("");
    this.waiting = [];
    this.waitingBytes = 0;
    this.waitingAnswerBytes = 0;
    return batch;
  }
}
