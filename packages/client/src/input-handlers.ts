/**
 * Running the client's input handlers (sampling, elicitation, roots) for the server, in both eras: as handlers of
 * legacy server→client requests, and for the `inputRequests` of modern input-required results.
 */
import { LocalError, quoteInput, type Era, type InputRequestMethod, type Spec2025_11_25 } from '@wiremcp/protocol';
import type { RequestContext } from '@wiremcp/jsonrpc';
import type { InputContext, InputHandlers } from './options.js';
import type { ClientPeer, CreateMessageParams, ElicitParams, InputResponse } from './types.js';

/** One input the server asks for: a method and its params (a legacy request, or an `inputRequests` entry). */
export interface AskedInput {
  readonly method: unknown;
  readonly params?: unknown;
}

/** The capability (handler) each input method needs. */
const KIND: Readonly<Record<InputRequestMethod, keyof InputHandlers>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

function missingHandler(method: string, kind: string): LocalError {
  return new LocalError('CAPABILITY_NOT_SUPPORTED', `The server asked for '${method}' but the client has no ${kind} handler`, {
    details: { method, capability: kind },
  });
}

/** Runs the handler of one input request; rejects with `CAPABILITY_NOT_SUPPORTED` when there is none. */
export function runInputRequest(handlers: InputHandlers | undefined, request: AskedInput, context: InputContext): Promise<InputResponse> {
  const method = request.method;
  const kind = typeof method === 'string' && Object.hasOwn(KIND, method) ? KIND[method as InputRequestMethod] : undefined;
  if (kind === undefined) {
    return Promise.reject(
      new LocalError('INVALID_RESULT', `The server asked for an unknown kind of input: ${quoteInput(method)}`, { details: request }),
    );
  }
  // The server's params, passed to the handler as the spec types them (handlers check what they rely on).
  const params = request.params ?? {};
  try {
    switch (kind) {
      case 'sampling': {
        const handler = handlers?.sampling;
        if (!handler) throw missingHandler(method as string, kind);
        return Promise.resolve(handler(params as CreateMessageParams, context));
      }
      case 'elicitation': {
        const handler = handlers?.elicitation;
        if (!handler) throw missingHandler(method as string, kind);
        return Promise.resolve(handler(params as ElicitParams, context));
      }
      case 'roots': {
        const handler = handlers?.roots;
        if (!handler) throw missingHandler(method as string, kind);
        return Promise.resolve(handler(context));
      }
    }
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The context of a legacy request handler; `signal` is read lazily (the engine creates it on first use). */
function legacyContext(rpc: Pick<RequestContext, 'signal' | 'id'>, protocolVersion: () => string): InputContext {
  return {
    get signal() {
      return rpc.signal;
    },
    era: 'legacy' as Era,
    get protocolVersion() {
      return protocolVersion();
    },
    requestId: rpc.id,
  };
}

/**
 * Registers the legacy server→client request handlers on `peer`: one per input handler given, and `ping` (which
 * either side may send in every legacy revision). Methods without a handler get `-32601` from the engine, which
 * is what the spec asks for (e.g. roots not supported).
 */
export function installLegacyHandlers(peer: ClientPeer, handlers: InputHandlers | undefined, protocolVersion: () => string): void {
  peer.setRequestHandler('ping', () => ({}));
  const sampling = handlers?.sampling;
  if (sampling) {
    // The handler answers in the shape of the negotiated revision (a 2026-07-28 tool result is typed more loosely).
    peer.setRequestHandler(
      'sampling/createMessage',
      async (params, rpc) => (await sampling(params, legacyContext(rpc, protocolVersion))) as Spec2025_11_25.CreateMessageResult,
    );
  }
  const elicitation = handlers?.elicitation;
  if (elicitation) peer.setRequestHandler('elicitation/create', (params, rpc) => elicitation(params, legacyContext(rpc, protocolVersion)));
  const roots = handlers?.roots;
  if (roots) peer.setRequestHandler('roots/list', (_params, rpc) => roots(legacyContext(rpc, protocolVersion)));
}
