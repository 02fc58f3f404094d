/**
 * Authorization, decided in one place. A request is authenticated once, before its body is read (the token, and the
 * scopes every request needs); then every message it carries is authorized on its own by {@link authorizeMessage},
 * from the validated body alone, on every route: a 2026-07-28 POST, a legacy session POST (each member of a
 * 2025-03-26 batch), `initialize`, a 2024-11-05 HTTP+SSE message. What a message acts on is read with
 * `requestTargets` of `@wiremcp/protocol` (the tool, the prompt, the resource URIs of a read, a subscription or a
 * listen stream, the prompt or resource template a completion refers to); a task follow-up also needs what the
 * operation that created the task needed.
 *
 * Headers never decide. `Mcp-Method` and `Mcp-Name` (decoded by `decodeHeaderValue`, the one decoder the body check
 * uses too) only choose which scopes a refusal before the body names ({@link announcedOperation}); a header that
 * disagrees with the body is refused with 400 by the body check, before authorization.
 */
import { MessageKind, messageKind, type MessageInfo } from '@wiremcp/jsonrpc';
import { decodeHeaderValue, ErrorCode, requestTargets, targetOfName, type RequestId, type RequestTarget } from '@wiremcp/protocol';
import type { Call, HandlerCore } from './call.js';
import { rpcErrorResponse } from './responses.js';
import type { HttpReply, HttpRequestHeaders } from './adapter-contract.js';
import { replyFromWeb } from './fetch-adapter.js';

/** What the headers of a request announce, for the challenge of a refusal before its body is read. */
export interface AnnouncedOperation {
  readonly method: string;
  readonly targets?: readonly RequestTarget[];
}

/** The operation `Mcp-Method` and `Mcp-Name` announce, decoded as the body check decodes them; `undefined` for none. */
export function announcedOperation(headers: HttpRequestHeaders): AnnouncedOperation | undefined {
  const method = headers.get('mcp-method')?.trim();
  if (!method) return undefined;
  const header = headers.get('mcp-name');
  const name = header === null ? undefined : decodeHeaderValue(header);
  const target = name === undefined ? undefined : targetOfName(method, name);
  return target === undefined ? { method } : { method, targets: [target] };
}

/** Where a message was sent: its era, and the legacy session it belongs to (which owns the tasks it names). */
export interface MessageOrigin {
  readonly era: 'legacy' | 'modern';
  readonly session?: { readonly sessionId: string; readonly principalKey?: string };
}

const MODERN: MessageOrigin = { era: 'modern' };

/** The origin of a 2026-07-28 message. */
export function modernOrigin(): MessageOrigin {
  return MODERN;
}

/**
 * The refusal of a message the caller may not send (403 `insufficient_scope` naming every scope the operation
 * needs, or 400 `-32602` when what it acts on cannot be read), or `undefined` when it may be served. Synchronous
 * unless the message follows up a task (its origin is looked up). Without an authenticator every message may be.
 */
export function authorizeMessage(
  core: HandlerCore,
  call: Call,
  message: unknown,
  origin: MessageOrigin,
): HttpReply | undefined | Promise<HttpReply | undefined> {
  const authenticator = core.options.authenticator;
  const resource = call.resource;
  if (authenticator === undefined || resource === undefined) return undefined;
  const m = message as { id?: unknown; method?: unknown; params?: unknown } | null;
  if (typeof m?.method !== 'string') {
    // A response to the server's own request carries no operation; the token and the scopes every request needs were
    // checked before the body was read. Anything else (a batch, a malformed message) is refused, never let through.
    const kind = messageKind(message);
    if (kind === MessageKind.Result || kind === MessageKind.Error) return undefined;
    return rpcErrorResponse(400, null, ErrorCode.InvalidRequest, 'Invalid request: only one JSON-RPC message can be authorized');
  }
  const method = m.method;
  const read = requestTargets(method, m.params);
  if ('invalid' in read) return rpcErrorResponse(400, idOf(m.id), ErrorCode.InvalidParams, `Invalid params: ${read.invalid}`);
  const decide = (operation: string, targets: readonly RequestTarget[]): HttpReply | undefined => {
    const refused = authenticator.authorize(call.principal, { resource, method: operation, targets });
    return refused === undefined ? undefined : replyFromWeb(refused);
  };
  const task = read.targets.find((target) => target.kind === 'task');
  const lookup = core.server.taskOrigin;
  if (task === undefined || lookup === undefined) return decide(method, read.targets);
  // A follow-up may do what the operation that created the task did (read its result, cancel it): it needs that
  // operation's scopes as well as its own. A task the caller cannot see has no origin here; the server answers it.
  return lookup
    .call(core.server, task.name, origin.era, taskLookupInfo(origin))
    .then((created) => (created === undefined ? undefined : decide(created.method, created.targets)) ?? decide(method, read.targets));
}

function taskLookupInfo(origin: MessageOrigin): MessageInfo {
  return origin.session === undefined ? {} : { ...origin.session };
}

function idOf(id: unknown): RequestId | null {
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
