/**
 * The `MessageInfo` a request's messages carry to handlers (`ctx.transportInfo`): its headers (lower-cased names,
 * built on first read only), the authenticated principal, and for legacy sessions the session id and the stream
 * controls of SEP-1699 polling.
 */
import type { MessageInfo } from '@wiremcp/jsonrpc';
import type { HttpRequest } from './adapter-contract.js';

/** What a legacy session adds to a message's info. */
export interface SessionInfo {
  /** The `Mcp-Session-Id`. */
  readonly sessionId: string;
  /**
   * The key of the principal the session is bound to (the handler's `principalKey` of the caller), when requests
   * are authenticated: with the session id it names the owner of what the session creates (its tasks).
   */
  readonly principalKey?: string;
  /**
   * Closes the connection of this request's SSE stream without ending the stream (SEP-1699 polling): the client
   * reconnects with `GET` and `Last-Event-ID` and receives what was sent meanwhile. Only offered when the handler
   * has an event store; a no-op for a request answered with JSON.
   */
  readonly closeSseStream?: () => void;
  /** Closes the connection of the session's standalone GET stream the same way. */
  readonly closeStandaloneSseStream?: () => void;
}

const REQUEST = Symbol('request');
const HEADERS = Symbol('headers');

interface InfoWithRequest {
  [REQUEST]: HttpRequest;
  [HEADERS]?: Readonly<Record<string, string>>;
}

/**
 * `headers`, built on first read: an own enumerable accessor (a copy of the info, `{ ...info }` as batches make,
 * reads it), defined with one shared getter. A getter written in an object literal would be a new closure for
 * every request, and V8 keeps such objects (and the request they hold) alive through young-generation collections.
 */
const LAZY_HEADERS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: InfoWithRequest): Readonly<Record<string, string>> {
    let headers = this[HEADERS];
    if (headers === undefined) {
      const record: Record<string, string> = {};
      this[REQUEST].headers.forEach((value, name) => {
        record[name] = value;
      });
      headers = this[HEADERS] = record;
    }
    return headers;
  },
};

/** Who sent an HTTP request, as middleware sees it (`MiddlewareContext.principalKey`, `clientAddress`). */
export interface SenderInfo {
  /** The handler's `principalKey` of the authenticated principal. */
  readonly principalKey?: string | undefined;
  /** The TCP peer's address (the node adapter's `remoteAddress`). */
  readonly clientAddress?: string | undefined;
}

/** The info of the messages of one HTTP request (`transport: 'http'`). */
export function httpMessageInfo(request: HttpRequest, auth: unknown, session?: SessionInfo, sender?: SenderInfo): MessageInfo {
  const info = { [REQUEST]: request, transport: 'http' } as InfoWithRequest & {
    headers: Readonly<Record<string, string>>;
    auth?: unknown;
    transport: 'http';
    clientAddress?: string;
  } & Partial<SessionInfo>;
  Object.defineProperty(info, 'headers', LAZY_HEADERS);
  if (auth !== undefined) info.auth = auth;
  if (sender?.principalKey !== undefined) (info as { principalKey: string }).principalKey = sender.principalKey;
  if (sender?.clientAddress !== undefined) info.clientAddress = sender.clientAddress;
  if (session !== undefined) {
    (info as { sessionId: string }).sessionId = session.sessionId;
    if (session.principalKey !== undefined) (info as { principalKey: string }).principalKey = session.principalKey;
    if (session.closeSseStream) (info as { closeSseStream: () => void }).closeSseStream = session.closeSseStream;
    if (session.closeStandaloneSseStream)
      (info as { closeStandaloneSseStream: () => void }).closeStandaloneSseStream = session.closeStandaloneSseStream;
  }
  return info as unknown as MessageInfo;
}
