/**
 * Server-Sent Events, the writing side (WHATWG HTML §9.2 "Server-sent events"): one event per MCP message, comment
 * lines for keep-alives, `id` and `retry` fields for resumption. Produces text; the caller encodes it once per
 * write. Web-standard, no dependency.
 */

/** The media type of an SSE stream. */
export const SSE_CONTENT_TYPE = 'text/event-stream';

/** One event as written on the wire. */
export interface SseEvent {
  /** The event id (`id:` field): what a client sends back as `Last-Event-ID`. No CR, LF or NUL. */
  readonly id?: string;
  /** The event type (`event:` field); absent means `message`. No CR or LF. */
  readonly event?: string;
  /** The data; each of its lines becomes one `data:` field. Absent or empty: one empty `data:` field. */
  readonly data?: string;
  /** Reconnection time in milliseconds (`retry:` field), a non-negative integer. */
  readonly retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;
const FORBIDDEN_IN_FIELD = /[\r\n\0]/;

/**
 * Encodes one event: its fields, then the blank line that dispatches it. A data string with line breaks becomes
 * several `data:` lines (the client joins them with `\n`); JSON text never needs that. Throws a `TypeError` for an
 * id or type with a line break (or NUL, for ids), or a `retry` that is not a non-negative integer: those would
 * change the meaning of the stream.
 */
export function encodeSseEvent(event: SseEvent): string {
  let out = '';
  if (event.id !== undefined) {
    if (FORBIDDEN_IN_FIELD.test(event.id)) throw new TypeError('An SSE event id must not contain CR, LF or NUL');
    out += `id: ${event.id}\n`;
  }
  if (event.event !== undefined) {
    if (FORBIDDEN_IN_FIELD.test(event.event)) throw new TypeError('An SSE event type must not contain CR, LF or NUL');
    out += `event: ${event.event}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0) throw new TypeError('An SSE retry must be a non-negative integer');
    out += `retry: ${event.retry}\n`;
  }
  const data = event.data ?? '';
  if (data === '') out += 'data:\n';
  else if (!LINE_BREAK.test(data)) out += `data: ${data}\n`;
  else for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Encodes the event of one JSON message (`data: <json>`, with an `id` when given): the hot path of every SSE
 * stream, so it skips the line-break scan (`JSON.stringify` never emits a raw CR or LF).
 */
export function encodeSseMessage(json: string, id?: string): string {
  return id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;
}

/**
 * A comment line (`: text`), which clients ignore: a keep-alive that stops intermediaries and idle timers from
 * closing a quiet stream. Line breaks in `text` are replaced by spaces.
 */
export function encodeSseComment(text = ''): string {
  return text === '' ? ':\n\n' : `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}
