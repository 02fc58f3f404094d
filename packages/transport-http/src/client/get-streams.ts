/**
 * The GET streams of a legacy (2025-03-26 … 2025-11-25) session: the optional standalone stream, kept open and
 * reconnected with `Last-Event-ID` for as long as the transport is, and the resumption of a POST stream the
 * server closed before its response (2025-11-25 polling: a priming event with an id and a `retry`, then a close;
 * the client comes back with GET and `Last-Event-ID` after `retry`).
 */
import { LocalError } from '@wiremcp/protocol';
import { Backoff, sleep } from './backoff.js';
import { discard, type HttpRequester } from './http-requester.js';
import { httpError, httpStatusOf } from './errors.js';
import { isBrokenStream, readMessages, type LivePosition, type StreamPosition } from './read-messages.js';

/** What the GET streams need from their transport. */
export interface GetStreamHost {
  readonly url: URL;
  readonly http: HttpRequester;
  /** Aborts when the transport closes. */
  readonly closed: AbortSignal;
  /** The session headers of the moment (`Accept` is added here). */
  sessionHeaders(): Record<string, string>;
  /** The session id of the moment (a 404 on a request that carried one means it expired). */
  sessionId(): string | undefined;
  /** A 404 on a request that carried `session`: resolves true once a new session replaced it (the stream may go on). */
  expired(session: string): Promise<boolean>;
  /** Takes each message read. */
  receive(message: unknown): void;
  /** Informational errors (a stream that failed and will be retried, or given up). */
  report(error: Error): void;
}

const SSE_ACCEPT = 'text/event-stream';

/** The GET streams of one transport. */
export class GetStreams {
  readonly #host: GetStreamHost;
  readonly #backoff: Backoff;
  #standalone = false;

  constructor(host: GetStreamHost, backoff: Backoff) {
    this.#host = host;
    this.#backoff = backoff;
  }

  /** Opens the standalone stream (once); it runs until the transport closes, the server refuses it, or retries run out. */
  openStandalone(): void {
    if (this.#standalone) return;
    this.#standalone = true;
    void this.#runStandalone().catch((error: unknown) => {
      if (!this.#host.closed.aborted) this.#host.report(error instanceof Error ? error : new Error(String(error)));
    });
  }

  async #runStandalone(): Promise<void> {
    const host = this.#host;
    // Kept up to date as events arrive: a stream that breaks (its server process died) resumes where it stood.
    const position: LivePosition = { lastEventId: '', retry: undefined };
    let attempt = 0;
    while (!host.closed.aborted) {
      let progressed = false;
      try {
        // Opened without Last-Event-ID, the stream is a new one: its ids may repeat the old one's.
        if (position.lastEventId === '') position.seen = undefined;
        const response = await this.#get(position.lastEventId);
        if (response === 'refused') return;
        // A new session numbers its events anew.
        if (response === 'renewed') position.lastEventId = '';
        else {
          await readMessages(response, {
            what: 'the standalone GET stream',
            maxResponseBytes: host.http.options.maxResponseBytes,
            maxEventBytes: host.http.options.maxEventBytes,
            position,
            receive: (message) => {
              progressed = true;
              host.receive(message);
            },
          });
        }
      } catch (error) {
        if (host.closed.aborted) return;
        // The events after the last one seen are gone (a 400 to Last-Event-ID): the stream goes on without them.
        if (httpStatusOf(error) === 400 && position.lastEventId !== '') position.lastEventId = '';
        host.report(asError(error));
      }
      attempt = progressed ? 0 : attempt + 1;
      if (attempt > this.#backoff.maxRetries) {
        host.report(new LocalError('CONNECTION_CLOSED', `The standalone GET stream failed ${attempt} times in a row; not reopening it`));
        return;
      }
      await sleep(this.#backoff.delay(Math.max(0, attempt - 1), position.retry), host.closed).catch(() => undefined);
    }
  }

  /**
   * Resumes a POST stream that ended (or broke) at `from` while responses were still owed: GET with `Last-Event-ID`
   * after the server's `retry`, again while `done()` is false, until the responses arrive or retries run out (a
   * resumption that brings an event resets the count). `signal` (the request's own) stops it. Rejects with
   * `CONNECTION_CLOSED` when the stream cannot be resumed: retries ran out, or the server cannot resume it (a 4xx).
   */
  async resume(from: StreamPosition, what: string, done: () => boolean, signal: AbortSignal): Promise<void> {
    const host = this.#host;
    const position: LivePosition = { lastEventId: from.lastEventId, retry: from.retry, seen: from.seen };
    let attempt = 0;
    let last: unknown;
    while (!done()) {
      if (attempt > this.#backoff.maxRetries) {
        throw new LocalError('CONNECTION_CLOSED', `Could not resume the response stream of ${what} after ${attempt} attempts`, {
          cause: last,
        });
      }
      await sleep(this.#backoff.delay(attempt, position.retry), signal);
      let progressed = false;
      try {
        const response = await this.#get(position.lastEventId, signal);
        if (response === 'refused')
          throw new LocalError(
            'CONNECTION_CLOSED',
            `The response stream of ${what} ended and the server does not resume streams (GET refused)`,
          );
        if (response === 'renewed')
          throw new LocalError('CONNECTION_CLOSED', `The session expired while the response of ${what} was pending`);
        await readMessages(response, {
          what,
          maxResponseBytes: host.http.options.maxResponseBytes,
          maxEventBytes: host.http.options.maxEventBytes,
          position,
          receive: (message) => {
            progressed = true;
            host.receive(message);
          },
          done,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        const status = httpStatusOf(error);
        if (status !== undefined && status < 500 && status !== 408 && status !== 429) {
          throw new LocalError(
            'CONNECTION_CLOSED',
            `The response stream of ${what} broke and the server cannot resume it (HTTP ${status})`,
            {
              cause: error,
            },
          );
        }
        if (!isBrokenStream(error) && !(error instanceof LocalError && (error.code === 'SEND_FAILED' || error.code === 'HTTP_ERROR')))
          throw error;
        last = error;
      }
      attempt = progressed ? 0 : attempt + 1;
    }
  }

  /** One GET: the response to read, `'refused'` (405: no GET stream here), or `'renewed'` (the session was replaced). */
  async #get(lastEventId: string, signal: AbortSignal = this.#host.closed): Promise<Response | 'refused' | 'renewed'> {
    const host = this.#host;
    const headers: Record<string, string> = { ...host.sessionHeaders(), accept: SSE_ACCEPT };
    if (lastEventId !== '') headers['last-event-id'] = lastEventId;
    const session = host.sessionId();
    const response = await host.http.request('GET', host.url, headers, undefined, signal);
    if (response.ok) return response;
    await discard(response);
    if (response.status === 405) return 'refused';
    if (response.status === 404 && session !== undefined) {
      if (await host.expired(session)) return 'renewed';
      return 'refused';
    }
    throw httpError('GET (SSE stream)', response, undefined);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
