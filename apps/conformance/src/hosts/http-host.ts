/**
 * HTTP transports (Streamable HTTP, stateful or stateless, and the HTTP+SSE transport of 2024-11-05): one server
 * can hold many sessions at once, so a registry server is started once per server × transport — at warm-up — and
 * every cell opens its own session on it; cells run in parallel. A `process: fresh` scenario gets a server process
 * of its own. A `--url` server is reached as it is (the app cannot restart it). WebSocket works the same way: one
 * server process per server (started with `--ws`), one connection per cell.
 */
import type { Cell, CellResult } from '../runner/cell-types.js';
import { errorResult } from '../runner/run-cell.js';
import { CellSession } from '../session/cell-session.js';
import { connectHttp, owning, startHttpServer, type StartedHttpServer } from '../session/open-session.js';
import type { TargetTransport } from '../targets/target.js';
import type { CellRunner, Host } from './host.js';

type HttpTransport = Extract<TargetTransport, { kind: 'http' }>;

/** Options of an {@link HttpHost}. */
export interface HttpHostOptions {
  readonly startupTimeoutMs: number;
}

/** Cells over one HTTP transport of one server. */
export class HttpHost implements Host {
  readonly #transport: HttpTransport;
  readonly #options: HttpHostOptions;
  #shared: Promise<StartedHttpServer> | undefined;
  #processes = 0;

  constructor(transport: HttpTransport, options: HttpHostOptions) {
    this.#transport = transport;
    this.#options = options;
  }

  /** True when the app starts this server (a registry server); false for `--url`. */
  get startsServer(): boolean {
    return this.#transport.start !== undefined;
  }

  #startProcess(): Promise<StartedHttpServer> {
    this.#processes += 1;
    return startHttpServer(this.#transport, this.#options.startupTimeoutMs);
  }

  /** The URL cells connect to: the shared server's (started on first use, normally at warm-up), or `--url`'s. */
  async url(): Promise<string> {
    if (!this.startsServer) return this.#transport.url;
    this.#shared ??= this.#startProcess();
    return (await this.#shared).url;
  }

  processCount(): number {
    return this.#processes;
  }

  async runFresh(cell: Cell, run: CellRunner): Promise<CellResult> {
    if (!this.startsServer) {
      const session = new CellSession(connectHttp(this.#transport.url, this.#transport.id), { revision: cell.revision, owns: true });
      return run(cell, session, {
        process: 'shared',
        notes: ['the scenario asks for a fresh process, but a --url server cannot be restarted'],
      });
    }
    let server: StartedHttpServer;
    try {
      server = await this.#startProcess();
    } catch (error) {
      return errorResult(cell, `the server could not be started: ${(error as Error).message}`);
    }
    const session = new CellSession(owning(connectHttp(server.url, this.#transport.id), server), { revision: cell.revision, owns: true });
    return run(cell, session, { process: 'fresh', notes: [] });
  }

  async runShared(cells: readonly Cell[], run: CellRunner, onResult: (result: CellResult) => void, signal?: AbortSignal): Promise<void> {
    let url: string;
    try {
      url = await this.url();
    } catch (error) {
      for (const cell of cells) onResult(errorResult(cell, `the server could not be started: ${(error as Error).message}`));
      return;
    }
    const shared = this.#shared ? await this.#shared : undefined;
    for (const cell of cells) {
      if (signal?.aborted) break;
      const note = shared ? '' : `reached at ${url}`;
      const base = connectHttp(url, this.#transport.id, note);
      const view = new CellSession(shared ? withStderr(base, shared) : base, { revision: cell.revision, owns: true });
      onResult(await run(cell, view, { process: 'shared', notes: [] }));
    }
  }

  async close(): Promise<void> {
    const shared = this.#shared;
    this.#shared = undefined;
    if (shared) await (await shared.catch(() => undefined))?.stop();
  }
}

/** A session on a shared server: its stderr tail is the server's (closing it leaves the server running). */
function withStderr(session: ReturnType<typeof connectHttp>, server: StartedHttpServer): ReturnType<typeof connectHttp> {
  const wrapped = owning(session, server);
  return { ...wrapped, close: () => session.close() };
}
