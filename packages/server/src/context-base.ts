/**
 * What every handler context shares (internal): the request's identity and scope read through, and the three
 * input requests (`elicit`, `sample`, `listRoots`) with their capability paths, each handed to the subclass's
 * `ask` — a request's context asks in the request's era, a task's context on the task's own terms.
 */
import type { InputParamsOf, InputRequestMethod, InputResultOf, ProtocolVersion, RequestId } from '@wiremcp/protocol';
import type { MessageInfo } from '@wiremcp/jsonrpc';
import type { InputOptions, RequestScope } from './handler-context.js';
import type { ServerRequestContext } from './server-peer.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, Implementation, ListRootsResult } from './types.js';

/** See the module comment. */
export abstract class ContextBase {
  readonly scope: RequestScope;
  protected readonly rpc: ServerRequestContext;

  constructor(rpc: ServerRequestContext, scope: RequestScope) {
    this.rpc = rpc;
    this.scope = scope;
  }

  get requestId(): RequestId {
    return this.rpc.id;
  }
  get era(): 'legacy' | 'modern' {
    return this.scope.era;
  }
  get protocolVersion(): ProtocolVersion {
    return this.scope.protocolVersion;
  }
  get clientCapabilities(): RequestScope['clientCapabilities'] {
    return this.scope.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.scope.clientInfo;
  }
  get signal(): AbortSignal {
    return this.rpc.signal;
  }
  get meta(): Record<string, unknown> | undefined {
    return this.rpc.meta;
  }
  get transportInfo(): MessageInfo | undefined {
    return this.rpc.info;
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    const path = params.mode === 'url' ? ['elicitation', 'url'] : ['elicitation'];
    return this.ask('elicit', 'elicitation/create', params, path, options);
  }

  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult> {
    const path = params.tools !== undefined ? ['sampling', 'tools'] : ['sampling'];
    return this.ask('sample', 'sampling/createMessage', params, path, options);
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.ask('roots', 'roots/list', {}, ['roots'], options);
  }

  /** Asks the client for input of `kind` (the default key's prefix), the client's capability at `path` required. */
  protected abstract ask<M extends InputRequestMethod>(
    kind: string,
    method: M,
    params: InputParamsOf<M>,
    path: readonly string[],
    options: InputOptions | undefined,
  ): Promise<InputResultOf<M>>;
}
