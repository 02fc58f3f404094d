/**
 * The host side of MCP Apps: runs a view in an iframe sandboxed to scripts only (an opaque origin, no access to the
 * host's page, storage or cookies) with the Content Security Policy it declared, speaks the extension's JSON-RPC over
 * postMessage (`ui/initialize`, tool calls, resource reads, notifications, size changes, teardown) and relays what the
 * view asks of its server through the host's consent hooks. A view may call only tools of its own server whose
 * visibility includes "app"; it is rate limited, its messages are bounded in size and in number in flight, and what
 * it sends that breaks those rules is refused without reaching the server.
 */
import { buildCsp } from '../csp.js';
import { isAppCallable } from '../visibility.js';
import { UI_METHODS, UI_PROTOCOL_VERSION, type UiDisplayMode } from '../wire.js';
import type { AppBridgeOptions, AppBridgeProblem, Consent } from './bridge-types.js';
import { TokenBucket } from './rate-limit.js';
import { MAX_VIEW_HTML_BYTES, viewDocument } from './view-document.js';

type Id = string | number;
interface Message {
  jsonrpc: '2.0';
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A JSON-RPC error for the view. */
class ViewError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const refused = (what: string): ViewError => new ViewError(-32000, `${what} was refused by the host`);

/** See the module comment. */
export class AppBridge {
  readonly #options: AppBridgeOptions;
  readonly #window: Window;
  readonly #bucket: TokenBucket;
  readonly #maxBytes: number;
  readonly #maxPending: number;
  #pending = 0;
  #nextId = 1;
  readonly #waiting = new Map<Id, (message: Message) => void>();
  #tools: Promise<ReadonlyMap<string, boolean>> | undefined;
  #initialized = false;
  #closed = false;
  #lastProblem: AppBridgeProblem | undefined;
  #displayMode: UiDisplayMode = 'inline';
  #ready!: () => void;
  /** Resolves once the view has sent `ui/notifications/initialized`. */
  readonly initialized: Promise<void> = new Promise((resolve) => (this.#ready = resolve));
  readonly #listener = (event: MessageEvent): void => this.#receive(event);

  constructor(options: AppBridgeOptions) {
    this.#options = options;
    const win = options.window ?? options.iframe.ownerDocument.defaultView;
    if (!win) throw new TypeError('the iframe is not in a window');
    this.#window = win;
    const limits = options.limits ?? {};
    this.#bucket = new TokenBucket(limits.messagesPerSecond ?? 50, limits.burst ?? 100);
    this.#maxBytes = limits.maxMessageBytes ?? 1024 * 1024;
    this.#maxPending = limits.maxPending ?? 8;
  }

  /**
   * Loads the view into the iframe (sandbox; the CSP in the document, or the host's server sends it with `src`) and
   * starts listening; await `initialized` for the handshake. Throws a `TypeError` unless exactly one of `html` and an
   * http(s) `src` is given.
   */
  start(): void {
    const { iframe, html, src, resourceMeta } = this.#options;
    if ((html === undefined) === (src === undefined)) throw new TypeError('an app bridge needs exactly one of html and src');
    if (src !== undefined && !/^https?:\/\//i.test(src)) throw new TypeError('the src of a view must be an http(s) URL');
    if (html !== undefined && new TextEncoder().encode(html).length > MAX_VIEW_HTML_BYTES)
      throw new RangeError(`the view's HTML is larger than ${MAX_VIEW_HTML_BYTES} bytes`);
    const srcdoc = html === undefined ? undefined : viewDocument(html, buildCsp(resourceMeta?.csp));
    this.#window.addEventListener('message', this.#listener);
    // Sandboxed before anything loads: the view runs in an opaque origin whichever way its document comes.
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    if (srcdoc !== undefined) iframe.srcdoc = srcdoc;
    else iframe.src = src!;
  }

  /** Sends the complete tool arguments (`ui/notifications/tool-input`). */
  sendToolInput(args: Record<string, unknown>): void {
    this.#notify(UI_METHODS.toolInput, { arguments: args });
  }

  /** Sends partial tool arguments while they stream. */
  sendToolInputPartial(args: Record<string, unknown>): void {
    this.#notify(UI_METHODS.toolInputPartial, { arguments: args });
  }

  /** Sends the tool's result (`ui/notifications/tool-result`). */
  sendToolResult(result: Record<string, unknown>): void {
    this.#notify(UI_METHODS.toolResult, result);
  }

  /** Tells the view the tool call was cancelled. */
  sendToolCancelled(reason: string): void {
    this.#notify(UI_METHODS.toolCancelled, { reason });
  }

  /** Sends changed host context fields (theme, display mode, dimensions…). */
  setHostContext(changes: Record<string, unknown>): void {
    if (typeof changes.displayMode === 'string') this.#displayMode = changes.displayMode as UiDisplayMode;
    this.#notify(UI_METHODS.hostContextChanged, changes);
  }

  /**
   * Asks the view to tear down (`ui/resource-teardown`, whose params are empty), waits for its answer at most
   * `timeoutMs`, then stops listening and empties the iframe. A view that does not answer is torn down all the same
   * (reported as `teardown-timeout`).
   */
  async teardown(timeoutMs = 2000): Promise<void> {
    if (this.#closed) return;
    if (this.#initialized) {
      const id = `host-${this.#nextId++}`;
      const answered = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        this.#waiting.set(id, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      this.#post({ jsonrpc: '2.0', id, method: UI_METHODS.teardown, params: {} });
      if (!(await answered)) this.#problem('teardown-timeout', `the view did not answer ${UI_METHODS.teardown} within ${timeoutMs} ms`);
      this.#waiting.delete(id);
    }
    this.dispose();
  }

  /** Stops at once: no more messages either way, the iframe emptied. */
  dispose(): void {
    this.#closed = true;
    this.#window.removeEventListener('message', this.#listener);
    // An empty srcdoc replaces whichever document the frame holds (srcdoc takes precedence over src).
    this.#options.iframe.removeAttribute('src');
    this.#options.iframe.srcdoc = '';
  }

  #receive(event: MessageEvent): void {
    if (this.#closed || event.source !== this.#options.iframe.contentWindow) return;
    const data = event.data as unknown;
    const request =
      data !== null && typeof data === 'object' && typeof (data as Message).method === 'string' ? (data as Message) : undefined;
    const id = request && (typeof request.id === 'string' || typeof request.id === 'number') ? request.id : undefined;
    if (!this.#bucket.take()) {
      // Beyond the budget nothing is relayed or answered: answering a flood would be a flood of our own.
      this.#problem('flood', 'the view sends more messages than its budget; the excess is dropped');
      return;
    }
    let size: number;
    try {
      size = JSON.stringify(data)?.length ?? 0;
    } catch {
      size = Infinity;
    }
    if (size > this.#maxBytes) {
      this.#problem('oversized', `a message of more than ${this.#maxBytes} bytes was refused`);
      if (id !== undefined) this.#error(id, new ViewError(-32600, `message larger than ${this.#maxBytes} bytes`));
      return;
    }
    if (data === null || typeof data !== 'object' || (data as Message).jsonrpc !== '2.0') {
      this.#problem('malformed', 'a message that is not JSON-RPC 2.0 was ignored');
      return;
    }
    const message = data as Message;
    if (request === undefined) {
      // A response to a request of ours (teardown).
      if (message.id !== undefined) this.#waiting.get(message.id)?.(message);
      return;
    }
    if (request.params !== undefined && (request.params === null || typeof request.params !== 'object' || Array.isArray(request.params))) {
      if (id !== undefined) this.#error(id, new ViewError(-32602, 'params must be an object'));
      return;
    }
    if (id === undefined) {
      this.#notification(request.method!, request.params ?? {});
      return;
    }
    if (this.#pending >= this.#maxPending) {
      this.#error(id, new ViewError(-32000, `too many requests in flight (at most ${this.#maxPending})`));
      return;
    }
    this.#pending++;
    this.#handle(request.method!, request.params ?? {})
      .then((result) => this.#post({ jsonrpc: '2.0', id, result }))
      .catch((error: unknown) => this.#error(id, error))
      .finally(() => this.#pending--);
  }

  async #handle(method: string, params: Record<string, unknown>): Promise<unknown> {
    const { consent = {}, server } = this.#options;
    if (method === UI_METHODS.initialize) return this.#initializeResult();
    if (method === 'ping') return {};
    if (!this.#initialized && method !== UI_METHODS.teardown) throw new ViewError(-32600, `send ${UI_METHODS.initialize} first`);
    switch (method) {
      case 'tools/call': {
        const name = params.name;
        const args = params.arguments ?? {};
        if (typeof name !== 'string' || name === '' || args === null || typeof args !== 'object' || Array.isArray(args)) {
          throw new ViewError(-32602, 'tools/call needs a tool name and an arguments object');
        }
        await this.#checkCallable(name);
        await this.#ask(
          consent.callTool,
          { name, arguments: args as Record<string, unknown> },
          true,
          `the call of tool '${name.slice(0, 64)}'`,
        );
        return server.callTool(name, args as Record<string, unknown>);
      }
      case 'resources/read': {
        const uri = params.uri;
        if (typeof uri !== 'string' || uri === '') throw new ViewError(-32602, 'resources/read needs a uri');
        await this.#ask(consent.readResource, { uri }, true, 'the read');
        return server.readResource(uri);
      }
      case UI_METHODS.openLink: {
        const url = params.url;
        if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new ViewError(-32602, 'ui/open-link needs an http(s) url');
        await this.#ask(consent.openLink, { url }, false, 'opening the link');
        return {};
      }
      case UI_METHODS.message:
        await this.#ask(consent.message, { role: String(params.role), content: params.content }, false, 'the message');
        return {};
      case UI_METHODS.updateModelContext:
        await this.#ask(
          consent.updateModelContext,
          { content: params.content, structuredContent: params.structuredContent },
          false,
          'the context update',
        );
        return {};
      case UI_METHODS.requestDisplayMode: {
        const modes = this.#options.displayModes ?? ['inline'];
        if (modes.includes(params.mode as UiDisplayMode)) this.#displayMode = params.mode as UiDisplayMode;
        return { mode: this.#displayMode };
      }
      default:
        throw new ViewError(-32601, `Method not found: ${method.slice(0, 64)}`);
    }
  }

  #notification(method: string, params: Record<string, unknown>): void {
    switch (method) {
      case UI_METHODS.initialized:
        if (this.#initialized) return;
        this.#initialized = true;
        if (this.#options.toolInput !== undefined) this.sendToolInput(this.#options.toolInput);
        this.#ready();
        return;
      case UI_METHODS.sizeChanged:
        this.#resize(params);
        return;
      case 'notifications/message':
        this.#options.onLog?.(params);
        return;
      default:
      // Unknown notifications are ignored, as JSON-RPC allows.
    }
  }

  #initializeResult(): Record<string, unknown> {
    const { consent = {}, resourceMeta, hostInfo } = this.#options;
    const hostCapabilities: Record<string, unknown> = {
      serverTools: {},
      serverResources: {},
      logging: {},
      sandbox: { csp: resourceMeta?.csp ?? {}, permissions: {} },
    };
    if (consent.openLink) hostCapabilities.openLinks = {};
    const hostContext = {
      displayMode: this.#displayMode,
      availableDisplayModes: this.#options.displayModes ?? ['inline'],
      ...this.#options.hostContext,
    };
    return { protocolVersion: UI_PROTOCOL_VERSION, hostInfo, hostCapabilities, hostContext };
  }

  /** The tool must be one of the server's, with "app" in its visibility (the list is read once, again for a name it lacks). */
  async #checkCallable(name: string): Promise<void> {
    const load = (): Promise<ReadonlyMap<string, boolean>> =>
      this.#options.server.listAllTools().then((tools) => new Map(tools.map((tool) => [tool.name, isAppCallable(tool)])));
    let tools = await (this.#tools ??= load());
    if (!tools.has(name)) tools = await (this.#tools = load());
    const callable = tools.get(name);
    if (callable === undefined) throw new ViewError(-32602, `Unknown tool: '${name.slice(0, 64)}'`);
    if (!callable) {
      this.#problem('forbidden-tool', `the view called '${name.slice(0, 64)}', which is not visible to apps`);
      throw new ViewError(-32000, `tool '${name.slice(0, 64)}' may not be called by an app (its visibility excludes "app")`);
    }
  }

  async #ask<T>(hook: Consent<T> | undefined, request: T, byDefault: boolean, what: string): Promise<void> {
    const allowed = hook ? await hook(request) : byDefault;
    if (allowed !== true) throw refused(what);
  }

  #resize(params: Record<string, unknown>): void {
    const iframe = this.#options.iframe;
    const maxHeight = this.#options.limits?.maxHeight ?? 4000;
    const size: { width?: number; height?: number } = {};
    if (typeof params.height === 'number' && Number.isFinite(params.height) && params.height >= 0) {
      size.height = Math.min(params.height, maxHeight);
      iframe.style.height = `${size.height}px`;
    }
    if (typeof params.width === 'number' && Number.isFinite(params.width) && params.width >= 0) size.width = params.width;
    this.#options.onSizeChange?.(size);
  }

  #notify(method: string, params: Record<string, unknown>): void {
    if (!this.#initialized || this.#closed) throw new Error(`the view is not initialised: ${method} cannot be sent yet`);
    this.#post({ jsonrpc: '2.0', method, params });
  }

  #error(id: Id, error: unknown): void {
    const code =
      error instanceof ViewError
        ? error.code
        : typeof (error as { code?: unknown })?.code === 'number'
          ? (error as { code: number }).code
          : -32603;
    const message =
      error instanceof ViewError || typeof (error as { code?: unknown })?.code === 'number'
        ? String((error as Error).message).slice(0, 500)
        : 'Internal error';
    this.#post({ jsonrpc: '2.0', id, error: { code, message } });
  }

  #post(message: Message): void {
    if (this.#closed) return;
    // The view's origin is opaque (a sandbox without allow-same-origin, srcdoc or src alike): '*' is the only target
    // origin that reaches it; the message goes to that one window only.
    this.#options.iframe.contentWindow?.postMessage(message, '*');
  }

  #problem(problem: AppBridgeProblem, detail: string): void {
    if (this.#lastProblem === problem) return;
    this.#lastProblem = problem;
    this.#options.onProblem?.(problem, detail);
  }
}
