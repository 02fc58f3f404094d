/**
 * Reading response bodies within bounds: JSON bodies (the fast path is `response.text()` when `Content-Length`
 * fits; otherwise counted chunk by chunk) and SSE bodies (bytes straight into the incremental parser).
 */
import { LocalError } from '@wiremcp/protocol';
import { SseParser, type ParsedSseEvent } from '../sse/parse.js';
import { discard } from './http-requester.js';

/** The media type of a response (`application/json`, `text/event-stream`), lower-cased, without parameters. */
export function mediaType(response: Response): string {
  const value = response.headers.get('content-type');
  if (value === null) return '';
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

const utf8 = new TextDecoder();

/**
 * The body as text, refusing more than `maxBytes` (`FRAME_TOO_LARGE`) without reading it all: a declared
 * `Content-Length` above the bound is refused at once; without one, the count is kept while reading.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = response.headers.get('content-length');
  if (declared !== null) {
    const length = Number(declared);
    if (Number.isFinite(length) && length > maxBytes) {
      await discard(response);
      throw tooLarge(maxBytes);
    }
    if (Number.isFinite(length)) return response.text();
  }
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return utf8.decode(all);
}

/** The body parsed as JSON, within `maxBytes`; `PARSE_ERROR` when it is not JSON. */
export async function readJson(response: Response, maxBytes: number): Promise<unknown> {
  const text = await readBoundedText(response, maxBytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LocalError('PARSE_ERROR', 'The server sent a response body that is not valid JSON', { cause: error });
  }
}

/**
 * The body of an error response, if it is a small JSON value (at most 64 KiB is read); `undefined` otherwise.
 * Used to tell a JSON-RPC error apart from any other refusal.
 */
export async function readErrorBody(response: Response): Promise<unknown> {
  if (mediaType(response) !== 'application/json') {
    await discard(response);
    return undefined;
  }
  try {
    return JSON.parse(await readBoundedText(response, 64 * 1024));
  } catch {
    return undefined;
  }
}

/** How {@link readSse} reports what it reads. */
export interface SseSink {
  /** Each event with data. Return `false` to stop reading (the body is cancelled). */
  event(event: ParsedSseEvent): boolean | void;
  /** Each `retry` value. */
  retry?(ms: number): void;
}

/**
 * Reads an SSE body to its end (or until the sink says stop, or `signal` aborts), feeding the parser with the
 * bytes as they come. Returns the parser (its `lastEventId` and `retry` say where the stream stood). Rejects
 * with the parser's `FRAME_TOO_LARGE`, or with the stream's error.
 */
export async function readSse(response: Response, sink: SseSink, maxEventBytes: number): Promise<SseParser> {
  let stop = false;
  const parser = new SseParser({
    maxEventBytes,
    onEvent: (event) => {
      if (!stop && sink.event(event) === false) stop = true;
    },
    onRetry: sink.retry && ((ms) => sink.retry!(ms)),
  });
  const body = response.body;
  if (body === null) return parser;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
      if (stop) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    parser.end();
  }
  return parser;
}

function tooLarge(maxBytes: number): LocalError {
  return new LocalError('FRAME_TOO_LARGE', `The response body exceeds ${maxBytes} bytes`, { details: { maxResponseBytes: maxBytes } });
}
