/**
 * Reading the JSON-RPC messages of a successful response: one JSON body (an object, or an array on 2025-03-26),
 * or an SSE stream whose `message` events each carry one message (empty priming events and other event types are
 * skipped). Whatever is read is handed over one message at a time, as it arrives.
 */
import { LocalError } from '@wiremcp/protocol';
import type { ParsedSseEvent } from '../sse/parse.js';
import { mediaType, readJson, readSse } from './body-reader.js';
import { unsupportedContentType } from './errors.js';

/** Where a stream stood when it ended: what a resumption needs. */
export interface StreamPosition {
  readonly lastEventId: string;
  readonly retry: number | undefined;
  /** The ids of the stream's latest events, so that a resumption repeating one delivers it once. */
  readonly seen?: RecentEventIds;
}

/** A stream position kept up to date as events arrive, so it is known when the stream breaks too. */
export interface LivePosition {
  lastEventId: string;
  retry: number | undefined;
  /** Cleared when a new stream starts (one opened without `Last-Event-ID` may number its events anew). */
  seen?: RecentEventIds;
}

/** How many of a stream's latest event ids are remembered. */
const REMEMBERED_IDS = 1024;

/**
 * The latest event ids of one stream (bounded: the oldest are forgotten). An event sent again with an id already
 * seen — a server replaying from before the client's `Last-Event-ID`, or a stream handed between processes that
 * both sent it — is handed over once.
 */
export class RecentEventIds {
  readonly #ids = new Set<string>();

  /** Remembers `id`; false when it was already remembered. */
  add(id: string): boolean {
    const ids = this.#ids;
    if (ids.has(id)) return false;
    if (ids.size >= REMEMBERED_IDS) ids.delete(ids.values().next().value!);
    ids.add(id);
    return true;
  }
}

/** What {@link readMessages} needs. */
export interface ReadContext {
  /** Names the exchange in errors (`POST tools/call`). */
  readonly what: string;
  readonly maxResponseBytes: number;
  readonly maxEventBytes: number;
  /** Takes each message. */
  readonly receive: (message: unknown) => void;
  /** Stop reading an SSE stream once this says so (every response it owed has arrived). */
  readonly done?: () => boolean;
  /** Updated with each event's id and each `retry`, as they arrive (it holds where a broken stream stood). */
  readonly position?: LivePosition;
}

/**
 * Reads the messages of a 2xx response with a JSON or SSE body; resolves with the stream's position for an SSE
 * body (`undefined` for JSON). Rejects with `UNSUPPORTED_CONTENT_TYPE`, `PARSE_ERROR` (a body or event that is not
 * JSON) or `FRAME_TOO_LARGE`, or with the connection's own error when it breaks (then `context.position` says
 * where the stream stood).
 */
export async function readMessages(response: Response, context: ReadContext): Promise<StreamPosition | undefined> {
  const type = mediaType(response);
  if (type === 'application/json') {
    const value = await readJson(response, context.maxResponseBytes);
    if (Array.isArray(value)) for (const message of value) context.receive(message);
    else context.receive(value);
    return undefined;
  }
  if (type !== 'text/event-stream') {
    await response.body?.cancel().catch(() => undefined);
    throw unsupportedContentType(context.what, response);
  }
  const position = context.position;
  const parser = await readSse(
    response,
    {
      event: (event) => {
        if (position !== undefined && event.lastEventId !== '') {
          position.lastEventId = event.lastEventId;
          if (event.hasId === true && !(position.seen ??= new RecentEventIds()).add(event.lastEventId)) return context.done?.() !== true;
        }
        receiveEvent(event, context);
        return context.done?.() !== true;
      },
      ...(position === undefined ? {} : { retry: (ms: number) => (position.retry = ms) }),
    },
    context.maxEventBytes,
  );
  return { lastEventId: parser.lastEventId, retry: parser.retry, ...(position?.seen === undefined ? {} : { seen: position.seen }) };
}

/** Hands over the message of one `message` event; throws `PARSE_ERROR` when its data is not JSON. */
export function receiveEvent(event: ParsedSseEvent, context: Pick<ReadContext, 'receive' | 'what'>): void {
  if (event.type !== 'message' || event.data === '') return;
  let message: unknown;
  try {
    message = JSON.parse(event.data);
  } catch (error) {
    throw new LocalError('PARSE_ERROR', `An event of the response stream of ${context.what} is not valid JSON`, { cause: error });
  }
  if (Array.isArray(message)) for (const item of message) context.receive(item);
  else context.receive(message);
}

/** True for a failure of the connection itself (not a protocol error): a stream that broke may be resumed. */
export function isBrokenStream(error: unknown): boolean {
  return !(error instanceof LocalError);
}
