/**
 * A streaming parser of `text/event-stream` (the WHATWG "server-sent events" format): bytes in, events out.
 * Lines end in CRLF, LF or CR; `data` lines accumulate; a blank line dispatches; `:` lines are comments.
 */

/** One dispatched event. `event` defaults to `message`. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
  readonly retry?: number;
}

/** Feeds chunks of an event stream and returns the events each chunk completed. */
export class SseParser {
  readonly #decoder = new TextDecoder('utf-8');
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;
  #retry: number | undefined;
  #sawCR = false;

  /** Decodes one chunk (any split, even inside a UTF-8 character) and returns the completed events. */
  push(chunk: Uint8Array): SseEvent[] {
    let text = this.#decoder.decode(chunk, { stream: true });
    // A CR at the end of the previous chunk already ended its line; a LF right after it is part of that CRLF.
    if (this.#sawCR && text.startsWith('\n')) text = text.slice(1);
    this.#sawCR = text.endsWith('\r');
    this.#buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (!match) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** Ends the stream; an event without its blank line is discarded, as the format says. */
  end(): SseEvent[] {
    this.#buffer = '';
    return [];
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.#data.length === 0) {
        this.#event = '';
        return undefined;
      }
      const event: SseEvent = {
        event: this.#event || 'message',
        data: this.#data.join('\n'),
        ...(this.#id === undefined ? {} : { id: this.#id }),
        ...(this.#retry === undefined ? {} : { retry: this.#retry }),
      };
      this.#data = [];
      this.#event = '';
      this.#retry = undefined;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\u0000')) this.#id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retry = Number(value);
    return undefined;
  }
}
