/**
 * What the inspector page works with: one connection to the target fixed on the command line, the operations the
 * page may ask for (a closed list: nothing reaches another server), the server's requests (sampling, elicitation,
 * roots) waiting for an answer from the page, and the events the page follows (wire entries, notifications, inputs).
 */
import type { InputHandlers, McpClient } from '@wiremcp/client';
import { createSchemaCompiler, type SchemaCompiler } from '@wiremcp/json-schema';
import type { Connection } from '../connect.js';
import { InspectorLogin, type LoginRunner } from './inspector-login.js';
import { WireLog, type WireEntry } from './wire-log.js';

/** An event the page receives on its event stream. */
export type InspectorEvent =
  | { readonly type: 'wire'; readonly entry: WireEntry }
  | { readonly type: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly type: 'input'; readonly id: number; readonly method: string; readonly params: unknown }
  | { readonly type: 'input-done'; readonly id: number; readonly outcome: 'answered' | 'cancelled' }
  | { readonly type: 'closed'; readonly reason: string }
  | { readonly type: 'conformance'; readonly run: number; readonly event: Record<string, unknown> }
  | { readonly type: 'task'; readonly task: Record<string, unknown> }
  | { readonly type: 'task-lost'; readonly taskId: string; readonly reason: string }
  | { readonly type: 'login'; readonly status: 'open' | 'done' | 'failed'; readonly url?: string; readonly message?: string };

/** An operation added to the closed list (`InspectorSession.extend`): it gets the page's params. */
export type ExtraOperation = (params: Record<string, unknown>) => unknown;

/** A failure the page is told about, with the HTTP status it gets. */
export class InspectorError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'InspectorError';
    this.status = status;
  }
}

interface PendingInput {
  readonly method: string;
  readonly params: unknown;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** The operations on the target the page may ask for; nothing else runs. */
const TARGET_OPERATIONS = new Set([
  'tools',
  'validate',
  'call',
  'resources',
  'templates',
  'read',
  'subscribe',
  'unsubscribe',
  'prompts',
  'prompt',
  'complete',
  'ping',
]);

/** The most server requests kept waiting for the page at once; more are refused. */
const MAX_PENDING_INPUTS = 64;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function text(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string' || value.length === 0 || value.length > 8192)
    throw new InspectorError(`'${key}' must be a non-empty string`);
  return value;
}

function record(params: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = params[key] ?? {};
  if (!isRecord(value)) throw new InspectorError(`'${key}' must be an object`);
  return value;
}

/** The page's side of one inspected connection. */
export class InspectorSession {
  readonly wire = new WireLog();
  readonly #listeners = new Set<(event: InspectorEvent) => void>();
  readonly #pending = new Map<number, PendingInput>();
  readonly #compiler: SchemaCompiler = createSchemaCompiler();
  #tools = new Map<string, { inputSchema?: object }>();
  readonly #extra = new Map<string, ExtraOperation>();
  #connection: Connection | undefined;
  #login: InspectorLogin | undefined;
  #nextInput = 1;
  #closed: string | undefined;

  /**
   * @param target how the page names the target
   * @param redact hides secrets in text from the target that reaches the page (`redact-secrets.ts`): the reason the
   *   connection closed (it may quote the server's stderr) and error messages
   */
  constructor(
    readonly target: string,
    readonly redact: (text: string) => string = (text) => text,
  ) {
    this.wire.subscribe((entry) => this.#emit({ type: 'wire', entry }));
  }

  /** The input handlers to give the client: each request waits for the page's answer (or the server's cancel). */
  readonly handlers: InputHandlers = {
    sampling: (params, context) => this.#ask('sampling/createMessage', params, context.signal) as never,
    elicitation: (params, context) => this.#ask('elicitation/create', params, context.signal) as never,
    roots: (context) => this.#ask('roots/list', {}, context.signal) as never,
  };

  /** Attaches the open connection and forwards its notifications and close to the page. */
  attach(connection: Connection): void {
    this.#connection = connection;
    connection.client.onNotification((notification) =>
      this.#emit({ type: 'notification', method: notification.method, params: (notification as { params?: unknown }).params ?? {} }),
    );
    connection.client.onClose((error) => this.markClosed(error ? error.message : 'the server closed the connection'));
  }

  /** Offers the page a login (the target refused the connection with 401): `run` logs in and attaches. */
  offerLogin(reason: string, run: LoginRunner): void {
    this.#login = new InspectorLogin(reason, run, (event) => this.#emit(event));
  }

  /** Records that the connection ended; pending inputs are cancelled and the page is told. */
  markClosed(reason: string): void {
    if (this.#closed !== undefined) return;
    reason = this.redact(reason);
    this.#closed = reason;
    for (const [id, pending] of this.#pending) {
      pending.reject(new Error('the connection closed'));
      this.#emit({ type: 'input-done', id, outcome: 'cancelled' });
    }
    this.#pending.clear();
    this.#emit({ type: 'closed', reason });
  }

  /** Calls `listener` with every event; returns the function that stops it. */
  subscribe(listener: (event: InspectorEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The inputs still waiting, for a page that (re)connects. */
  pendingInputs(): InspectorEvent[] {
    return [...this.#pending].map(([id, { method, params }]) => ({ type: 'input' as const, id, method, params }));
  }

  /**
   * Adds operations the page may ask for (the Conformance tab's), by name; they run whether or not the target is
   * still connected. Names already taken are refused.
   */
  extend(operations: Readonly<Record<string, ExtraOperation>>): void {
    for (const [name, operation] of Object.entries(operations)) {
      if (TARGET_OPERATIONS.has(name) || this.#extra.has(name) || ['state', 'wire', 'answer'].includes(name))
        throw new Error(`the inspector operation ${name} exists already`);
      this.#extra.set(name, operation);
    }
  }

  /** The connected client, for added operations; an {@link InspectorError} (409) once the connection is gone. */
  connectedClient(): McpClient {
    const client = this.#connection?.client;
    if (!client || this.#closed !== undefined) throw new InspectorError(`not connected: ${this.#closed ?? 'connecting'}`, 409);
    return client;
  }

  /** Validation errors of a call of tool `name` with `args` (the tools must have been listed). */
  validateCall(name: string, args: Record<string, unknown>): Promise<readonly string[]> {
    return this.#validate(name, args);
  }

  /** Sends `event` to every page. */
  publish(event: InspectorEvent): void {
    this.#emit(event);
  }

  #emit(event: InspectorEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #ask(method: string, params: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    if (this.#pending.size >= MAX_PENDING_INPUTS) return Promise.reject(new Error('too many requests are waiting for an answer'));
    const id = this.#nextInput++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#pending.delete(id)) return;
        reject(new Error('cancelled by the server'));
        this.#emit({ type: 'input-done', id, outcome: 'cancelled' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        method,
        params,
        resolve: (result) => (signal?.removeEventListener('abort', onAbort), resolve(result)),
        reject: (error) => (signal?.removeEventListener('abort', onAbort), reject(error)),
      });
      this.#emit({ type: 'input', id, method, params });
    });
  }

  /** The state the page shows first: target, era, revision, server info, capabilities, instructions. */
  state(): Record<string, unknown> {
    const client = this.#connection?.client;
    return {
      target: this.target,
      connected: client?.connected ?? false,
      closed: this.#closed ?? null,
      era: client?.era ?? null,
      protocolVersion: client?.protocolVersion ?? null,
      serverInfo: client?.serverInfo ?? null,
      serverCapabilities: client?.serverCapabilities ?? null,
      clientCapabilities: client?.clientCapabilities ?? null,
      instructions: client?.instructions ?? null,
      login: this.#login?.view ?? null,
    };
  }

  /** Runs one of the page's operations; anything else is refused. */
  async run(op: unknown, params: unknown): Promise<unknown> {
    if (typeof op !== 'string') throw new InspectorError("'op' must be a string");
    const p = isRecord(params) ? params : {};
    if (op === 'state') return this.state();
    if (op === 'wire') return { entries: this.wire.entries(), dropped: this.wire.dropped };
    if (op === 'answer') return this.#answer(p);
    if (op === 'login') {
      if (!this.#login) throw new InspectorError('the target asked for no login', 404);
      if (!this.#login.start()) throw new InspectorError(`a login is ${this.#login.view.status === 'done' ? 'done' : 'under way'}`, 409);
      return {};
    }
    const extra = this.#extra.get(op);
    if (extra) return await extra(p);
    if (!TARGET_OPERATIONS.has(op)) throw new InspectorError(`unknown operation ${JSON.stringify(op.slice(0, 40))}`, 404);
    const client = this.#connection?.client;
    if (!client || this.#closed !== undefined) throw new InspectorError(`not connected: ${this.#closed ?? 'connecting'}`, 409);
    switch (op) {
      case 'tools': {
        const tools = await client.listAllTools();
        this.#tools = new Map(tools.map((tool) => [tool.name, tool as { inputSchema?: object }]));
        return { tools };
      }
      case 'validate':
        return { errors: await this.#validate(text(p, 'name'), record(p, 'arguments')) };
      case 'call': {
        const name = text(p, 'name');
        const args = record(p, 'arguments');
        const errors = await this.#validate(name, args);
        if (errors.length > 0) return { invalid: errors };
        return { result: await client.callTool(name, args) };
      }
      case 'resources':
        return { resources: await client.listAllResources() };
      case 'templates':
        return { resourceTemplates: await client.listAllResourceTemplates() };
      case 'read':
        return await client.readResource(text(p, 'uri'));
      case 'subscribe':
        await client.subscribeResource(text(p, 'uri'));
        return {};
      case 'unsubscribe':
        await client.unsubscribeResource(text(p, 'uri'));
        return {};
      case 'prompts':
        return { prompts: await client.listAllPrompts() };
      case 'prompt': {
        const args = record(p, 'arguments');
        for (const [key, value] of Object.entries(args))
          if (typeof value !== 'string') throw new InspectorError(`prompt argument '${key}' must be a string`);
        return await client.getPrompt(text(p, 'name'), args as Record<string, string>);
      }
      case 'complete': {
        const ref = record(p, 'ref');
        const argument = record(p, 'argument');
        const context = record(p, 'context');
        return await client.complete({ ref, argument, ...(Object.keys(context).length ? { context } : {}) } as never);
      }
      case 'ping':
        return await client.ping();
      default:
        throw new InspectorError(`unknown operation ${JSON.stringify(op.slice(0, 40))}`, 404);
    }
  }

  /** Validation errors of `args` against the tool's input schema, by the json-schema rules the servers use. */
  async #validate(name: string, args: Record<string, unknown>): Promise<readonly string[]> {
    const tool = this.#tools.get(name);
    if (!tool) throw new InspectorError(`unknown tool ${JSON.stringify(name.slice(0, 100))}: list the tools first`, 404);
    if (!tool.inputSchema) return [];
    try {
      const validator = await this.#compiler.compile(tool.inputSchema);
      return validator(args).errors;
    } catch (error) {
      return [`the tool's input schema cannot be used: ${error instanceof Error ? error.message : String(error)}`];
    }
  }

  #answer(p: Record<string, unknown>): Record<string, never> {
    const id = p.id;
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (pending === undefined) throw new InspectorError('no such request is waiting (answered, or cancelled by the server)', 404);
    this.#pending.delete(id as number);
    if (p.error !== undefined) pending.reject(new Error(typeof p.error === 'string' ? p.error.slice(0, 500) : 'refused in the inspector'));
    else pending.resolve(p.result ?? {});
    this.#emit({ type: 'input-done', id: id as number, outcome: 'answered' });
    return {};
  }
}
