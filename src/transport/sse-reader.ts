/**
 * Turns a streamed `text/event-stream` body into JSON-RPC messages, with `eventsource-parser`
 * doing the framing. One reader per HTTP response; the `SseCursor` it updates (last event id,
 * the server's `retry:`) outlives it, for resuming the stream with a GET (2025-11-25
 * transports, "Resumability"). An event with empty data is a priming event: it only sets the id.
 */
import type { EventSourceParser, createParser } from "eventsource-parser";
import { utf8Length, webUtf8Stream, type Utf8Stream } from "../util/bytes.js";
import { lowRuntime } from "../util/runtime.js";
import { excerpt } from "../util/text.js";

export interface SseCursor {
  lastEventId?: string | undefined;
  retryMs?: number | undefined;
}

export interface SseHandlers {
  message(value: unknown): void;
  parseError(raw: string): void;
  /** An event of another name than "message" (the HTTP+SSE transport's `endpoint`); others are ignored. */
  named?(event: string, data: string): void;
}

export class SseOverflowError extends Error {
  constructor(limit: number) {
    super(`an event-stream message exceeded maxMessageBytes (${limit} bytes)`);
  }
}

type CreateParser = typeof createParser;
let loaded: CreateParser | undefined;

/** A reader; the parser's module is loaded with the first event stream, not at import. */
export async function openSseReader(limit: number, cursor: SseCursor, handlers: SseHandlers): Promise<SseReader> {
  loaded ??= (await import("eventsource-parser")).createParser;
  return new SseReader(loaded, limit, cursor, handlers);
}

/**
 * The parser and the decoder are made with the first chunk: a standalone stream may stay silent
 * for hours, and the two hold some 1.3 kB of closures and buffers, for every connection.
 */
export class SseReader {
  private parser: EventSourceParser | undefined;
  /** Keeps a split UTF-8 character for the next chunk (on Node a StringDecoder, far lighter than a TextDecoder). */
  private decoder: Utf8Stream | undefined;
  private overflowed = false;

  constructor(
    private readonly createParser: CreateParser,
    private readonly limit: number,
    readonly cursor: SseCursor,
    private readonly handlers: SseHandlers,
  ) {}

  /** Feeds a chunk; throws `SseOverflowError` when an event outgrows the limit. */
  push(chunk: Uint8Array): void {
    if (!this.overflowed) {
      this.decoder ??= lowRuntime().utf8Stream?.() ?? webUtf8Stream();
      this.parser ??= this.makeParser();
      this.parser.feed(this.decoder.write(chunk));
    }
    if (this.overflowed) throw new SseOverflowError(this.limit);
  }

  private makeParser(): EventSourceParser {
    const { limit, cursor, handlers } = this;
    return this.createParser({
      maxBufferSize: limit,
      onEvent: (event) => {
        // `maxBufferSize` only bounds what the parser holds between chunks: an event that arrives
        // whole in one chunk is never buffered, so its size is checked here. Before the id is
        // taken, so that a resumption could never skip it.
        if (this.overflowed || tooLarge(event.data, limit)) {
          this.overflowed = true;
          return;
        }
        if (event.id !== undefined) cursor.lastEventId = event.id;
        if (event.event !== undefined && event.event !== "message") return handlers.named?.(event.event, event.data);
        if (event.data === "") return;
        let value: unknown;
        try {
          value = JSON.parse(event.data);
        } catch {
          handlers.parseError(excerpt(event.data));
          return;
        }
        handlers.message(value);
      },
      onRetry: (ms) => {
        cursor.retryMs = ms;
      },
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded") this.overflowed = true;
      },
    });
  }
}

/** Its UTF-8 size lies between `data.length` and three times that: measure only when the limit is in between. */
function tooLarge(data: string, limit: number): boolean {
  if (data.length > limit) return true;
  return data.length * 3 > limit && utf8Length(data) > limit;
}
