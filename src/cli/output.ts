/**
 * Where `conduit` writes: results on stdout (with `--format json`, one JSON document and
 * nothing else), everything for the person (notices, logs, progress, prompts) on stderr, so
 * that `conduit call … > out.json` keeps only the result. Colours only on a terminal, never with
 * `NO_COLOR` (any value) or `TERM=dumb`; `FORCE_COLOR` turns them on for a pipe.
 */
import picocolors from "picocolors";
import { sanitize } from "../node.js";
import { Notices } from "./notices.js";

export type Colors = ReturnType<typeof picocolors.createColors>;

export interface OutputStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export class Output {
  /** Colours for stdout and for stderr, each on only if that stream is a terminal. */
  readonly out: Colors;
  readonly err: Colors;
  /** stderr is a terminal: progress bars and prompts may redraw it. */
  readonly live: boolean;
  /** What servers repeat, told once (`notices.ts`). */
  readonly notices = new Notices();
  /** A line being redrawn (a progress bar) that the next line must clear first. */
  private drawing = false;

  constructor(
    private readonly streams: OutputStreams,
    readonly json: boolean,
  ) {
    this.out = picocolors.createColors(!json && colours(streams.stdout, streams.env));
    this.err = picocolors.createColors(!json && colours(streams.stderr, streams.env));
    this.live = !json && streams.stderr.isTTY === true && streams.env.TERM !== "dumb";
  }

  /** A line of the result (text mode). */
  line(text = ""): void {
    this.clearDrawing();
    this.streams.stdout.write(`${text}\n`);
  }

  /** The one JSON document of `--format json`. */
  document(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line for the person, on stderr; with `--format json`, a JSON line `{"note": …}`. */
  note(text: string): void {
    if (this.json) return this.jsonLine({ note: text });
    this.clearDrawing();
    this.streams.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    if (this.json) return this.jsonLine({ warning: text });
    this.note(this.err.yellow(text));
  }

  error(text: string): void {
    if (this.json) return this.jsonLine({ error: { message: text } });
    this.note(this.err.red(text));
  }

  /** A server's log entry (already cleaned by the library): a coloured line, or `{"log": …}`. */
  log(serverId: string, level: string, logger: string | undefined, data: unknown, colour: (text: string) => string): void {
    if (this.json) return this.jsonLine({ log: { serverId, level, ...(logger === undefined ? {} : { logger }), data } });
    const text = typeof data === "string" ? data : JSON.stringify(data);
    this.note(colour(`[${logger === undefined ? serverId : `${serverId}/${shownLine(logger, 60)}`}] ${level}: ${text}`));
  }

  /** With `--format json` stderr holds JSON lines only: notes, logs, and the error last. */
  jsonLine(value: unknown): void {
    this.streams.stderr.write(`${JSON.stringify(value)}\n`);
  }

  /** Redraws the current stderr line (progress); only on a terminal. */
  draw(text: string): void {
    if (!this.live) return;
    this.streams.stderr.write(`\r\u001b[2K${text}`);
    this.drawing = true;
  }

  /** Ends a redrawn line, leaving it on the screen. */
  endDrawing(): void {
    if (!this.drawing) return;
    this.streams.stderr.write("\n");
    this.drawing = false;
  }

  private clearDrawing(): void {
    if (!this.drawing) return;
    this.streams.stderr.write("\r\u001b[2K");
    this.drawing = false;
  }
}

function colours(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined || env.TERM === "dumb") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/** Server text made fit for the terminal, line breaks kept. */
export function shown(text: unknown, max = 100_000): string {
  return typeof text === "string" ? sanitize(text, { lines: true, max }) : "";
}

/** Server text on one line. */
export function shownLine(text: unknown, max = 200): string {
  return typeof text === "string" ? sanitize(text, { max }) : "";
}
