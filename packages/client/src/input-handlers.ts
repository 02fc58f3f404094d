/**
 * Running the client's input handlers (sampling, elicitation, roots) for the server, in both eras: as handlers of
 * legacy server→client requests, and for the `inputRequests` of modern input-required results.
 */
import { LocalError, type Era } from '@wiremcp/protocol';
import type { Peer, RequestContext } from '@wiremcp/jsonrpc';
import type { InputContext, InputHandlers } from './options.js';
import type { CreateMessageParams, ElicitParams, InputRequest, InputResponse } from './protocol-types.js';

/** The capability (handler) each input method needs. */
const KIND: Readonly<Record<string, keyof InputHandlers>> = {
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
export function runInputRequest(handlers: InputHandlers | undefined, request: InputRequest, context: InputContext): Promise<InputResponse> {
  const method = (request as { method?: unknown }).method;
  const kind = typeof method === 'string' ? KIND[method] : undefined;
  if (kind === undefined) {
    return Promise.reject(
      new LocalError('INVALID_RESULT', `The server asked for an unknown kind of input: ${JSON.stringify(method)}`, { details: request }),
    );
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
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
function legacyContext(rpc: RequestContext, protocolVersion: () => string): InputContext {
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
export function installLegacyHandlers(peer: Peer, handlers: InputHandlers | undefined, protocolVersion: () => string): void {
  peer.setRequestHandler('ping', () => ({}));
  for (const method of Object.keys(KIND)) {
    const kind = KIND[method]!;
    if (!handlers?.[kind]) continue;
    peer.setRequestHandler(method, (params, rpc) =>
      runInputRequest(handlers, { method, params } as InputRequest, legacyContext(rpc, protocolVersion)),
    );
  }
}
