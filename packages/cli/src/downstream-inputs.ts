/**
 * The upstream server's own requests — `sampling/createMessage`, `elicitation/create`, `roots/list` — answered by
 * the downstream client. The upstream `McpClient` gets {@link DownstreamInputs.handlers} (so it declares sampling,
 * elicitation with form and URL mode, and roots: the upstream connection exists before any downstream client has
 * said what it supports), and each one asks the downstream client through the `HandlerContext` of the downstream
 * request being served (`context.sample`, `context.elicit`, `context.listRoots`). The server API hides the era:
 * a legacy downstream client gets a server→client request; a 2026-07-28 one gets an input-required result, and
 * the bridge's handler runs again on its retry (the upstream request is cancelled and sent again, and the answer
 * is then at hand) — so an upstream tool that asks for input runs once per round, as MRTR runs handlers anyway.
 *
 * Which downstream request: the one whose upstream request is in flight on this upstream connection. Each
 * downstream connection has its own upstream connection (see `proxy.ts`), so every request in flight on a legacy
 * connection comes from the same client, and any of them can ask it. A 2026-07-28 request is answered in its own
 * rounds, so it must be the right one: a 2026-07-28 upstream server's input request names the request it serves
 * (the tool, prompt or resource), a legacy one's names none; when several remain, the upstream server gets a clear
 * error rather than an answer meant for another request. With none in flight, a legacy downstream connection is
 * asked directly (a server asking for roots after `notifications/roots/list_changed`).
 *
 * The upstream server gets `-32601` when the downstream client did not declare what it asks for, or when no
 * downstream client can be asked.
 */
import type { InputContext, InputHandlers } from '@wiremcp/client';
import { ErrorCode, hasCapability, isLocalError, RpcError, type InputRequestMethod } from '@wiremcp/protocol';
import { InputRequiredError, type HandlerContext, type ServerConnection } from '@wiremcp/server';

/** What an input-capable request is about: its method, and the tool or prompt name or the resource URI. */
export interface InputSubject {
  readonly method: 'tools/call' | 'prompts/get' | 'resources/read';
  readonly name: string;
}

/** One downstream request whose upstream request is in flight. */
interface InFlight {
  readonly context: HandlerContext;
  readonly subject: InputSubject | undefined;
  /** Aborts the upstream request (the downstream request was cancelled, or its round ended for input). */
  readonly controller: AbortController;
}

/** The capability path of each input method, as the downstream client declares it. */
const CAPABILITY: Readonly<Record<InputRequestMethod, readonly string[]>> = {
  'sampling/createMessage': ['sampling'],
  'elicitation/create': ['elicitation'],
  'roots/list': ['roots'],
};

function notSupported(method: string, why: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `The proxy cannot forward ${method}: ${why}`);
}

/** See the module comment; one per upstream connection. */
export class DownstreamInputs {
  readonly #inFlight = new Set<InFlight>();
  /** The downstream connection this upstream connection serves (none for stateless 2026-07-28 requests). */
  connection: ServerConnection | undefined;

  /** The upstream client's input handlers. */
  readonly handlers: InputHandlers = {
    sampling: (params, input) => this.#ask('sampling/createMessage', params, input, (context) => context.sample(params)),
    elicitation: (params, input) => this.#ask('elicitation/create', params, input, (context) => context.elicit(params)),
    roots: (input) => this.#ask('roots/list', {}, input, (context) => context.listRoots()),
  };

  /**
   * Runs the upstream request of a downstream request: `send` gets the signal to send it with (aborted when the
   * downstream request is cancelled, or when its round ends waiting for input). `subject` is given for the
   * input-capable methods; a 2026-07-28 request of any other method cannot ask its client, so it is not a candidate.
   */
  async forward<T>(context: HandlerContext, send: (signal: AbortSignal) => Promise<T>, subject?: InputSubject): Promise<T> {
    const controller = new AbortController();
    const downstream = context.signal;
    const cancel = () => controller.abort(downstream.reason);
    if (downstream.aborted) cancel();
    else downstream.addEventListener('abort', cancel, { once: true });
    const entry: InFlight = { context, subject, controller };
    const candidate = subject !== undefined || context.era === 'legacy';
    if (candidate) this.#inFlight.add(entry);
    try {
      return await send(controller.signal);
    } finally {
      if (candidate) this.#inFlight.delete(entry);
      downstream.removeEventListener('abort', cancel);
    }
  }

  /**
   * The downstream request to ask, `undefined` with none in flight; throws when it cannot be told. A 2026-07-28
   * upstream server's input request names the request it serves (`origin`): only those about the same tool,
   * prompt or resource are candidates then.
   */
  #requestFor(method: string, input: InputContext): InFlight | undefined {
    let entries = [...this.#inFlight];
    const origin = input.origin;
    if (origin !== undefined && entries.length > 1) {
      const name = origin.params.name ?? origin.params.uri;
      const matching = entries.filter((entry) => entry.subject?.method === origin.method && entry.subject.name === name);
      if (matching.length > 0) entries = matching;
    }
    if (entries.length <= 1) return entries[0];
    // The same legacy client is behind all of them: ask through the latest.
    if (entries.every((entry) => entry.context.era === 'legacy')) return entries.at(-1);
    throw new RpcError(
      ErrorCode.InternalError,
      `The proxy cannot forward ${method}: ${entries.length} downstream requests are in flight and the request does not say which one it serves`,
    );
  }

  async #ask<T>(method: InputRequestMethod, params: object, input: InputContext, ask: (context: HandlerContext) => Promise<T>): Promise<T> {
    const entry = this.#requestFor(method, input);
    if (entry === undefined) return this.#askConnection(method, params);
    try {
      return await ask(entry.context);
    } catch (error) {
      if (error instanceof InputRequiredError) {
        // A 2026-07-28 downstream client answers on the retry of its request: end this round.
        entry.controller.abort(error);
        throw new RpcError(ErrorCode.InternalError, `The proxy asked the downstream client; ${method} is answered on the retry`);
      }
      if (
        isLocalError(error, 'CAPABILITY_NOT_SUPPORTED') ||
        (error instanceof RpcError && error.code === ErrorCode.MissingRequiredClientCapability)
      ) {
        throw notSupported(method, `the downstream client does not support it (${error.message})`);
      }
      throw error;
    }
  }

  /** Asks a legacy downstream connection outside any request of its own. */
  #askConnection<T>(method: InputRequestMethod, params: object): Promise<T> {
    const connection = this.connection;
    const session = connection?.session;
    if (connection === undefined || session === undefined) {
      return Promise.reject(notSupported(method, 'no downstream client is connected that it could ask'));
    }
    if (!hasCapability(session.clientCapabilities, CAPABILITY[method])) {
      return Promise.reject(notSupported(method, 'the downstream client did not declare it'));
    }
    return connection.peer.request(method, params as never) as Promise<T>;
  }
}
