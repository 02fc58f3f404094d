import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Framing } from '@wiremcp/framing';
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';
import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import { buildChildEnvironment } from './child-environment.js';
import { MessageReader } from './message-reader.js';
import { checkBatchBytes, MessageWriter, RESOLVED } from './message-writer.js';
import { formatCommand, serverExitError, spawnError, type ServerExitDetails } from './server-exit-error.js';
import { StderrTail } from './stderr-tail.js';
import { DEFAULT_STOP_GRACE_MS, stopChildProcess } from './stop-child-process.js';
import { swallowLateErrors } from './swallow-errors.js';

/** Options of a {@link StdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The program to run. Not run through a shell (`shell: false`): on Windows name `npx.cmd`, not `npx`. */
  command: string;
  /** Its arguments (default none). */
  args?: readonly string[];
  /**
   * Variables to set on top of the default inherited set (`DEFAULT_INHERITED_ENV_VARS`: PATH, HOME, USER,
   * locale…); a key set to `undefined` is removed. Pass `{ ...process.env }` to inherit everything.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Working directory of the server (default: this process's). */
  cwd?: string;
  /**
   * The server's stderr (its logs): `'inherit'` (default) shares this process's stderr; `'pipe'` exposes
   * it as {@link StdioClientTransport.stderr} and quotes its last lines in exit errors; `'ignore'` drops it.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** The framing to speak (default `'ndjson'`, the MCP standard). */
  framing?: Framing;
  /** Largest inbound message in bytes (default 16 MiB). */
  maxFrameBytes?: number;
  /** Largest Content-Length header block in bytes (default 8 KiB). */
  maxHeaderBytes?: number;
  /** Largest oversized Content-Length body counted through to reach the next frame (default 4 × `maxFrameBytes`). */
  maxSkipBytes?: number;
  /** How long each shutdown stage waits for the process to exit, in ms (default 2000). */
  shutdownTimeoutMs?: number;
  /**
   * Messages sent in one turn (a burst of requests, the answers to a chunk of pipelined requests) are written
   * together. With this set (e.g. 2048), once that many bytes are queued they go out at once, so a peer on another
   * CPU starts on them while the rest are made. Default `Infinity`: one write per turn, whatever its size.
   */
  writeBatchBytes?: number;
}

/** Default wait of each shutdown stage (stdin closed, then SIGTERM) before the next one. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = DEFAULT_STOP_GRACE_MS;

// Once one sign of the end arrives (exit, stdout EOF, stdin failure), the others normally follow within a
// millisecond; this bounds the wait for them (a grandchild holding the pipes open, a process that closed
// its stdout but lives on) so pending requests fail promptly anyway.
const END_GRACE_MS = 100;

type State = 'new' | 'starting' | 'open' | 'closed';

/**
 * The client side of the stdio transport: spawns the server as a child process (`shell: false`) and
 * speaks JSON-RPC over its stdin/stdout, with the same parsing and write coalescing as the server side.
 *
 * - `start()` resolves once the process has spawned; rejects with `LocalError('SERVER_EXITED')` naming the
 *   command when it cannot be started (ENOENT, EACCES), after firing `onclose`.
 * - `close()`: the spec's shutdown sequence. Flush and end the child's stdin, wait `shutdownTimeoutMs`,
 *   SIGTERM, wait again, SIGKILL; resolves once the child has exited. Idempotent; `onclose` fires once.
 * - If the child exits, dies, or closes its stdout without being asked, the transport closes at once with
 *   `closeReason` = `LocalError('SERVER_EXITED', "Server process 'node server.js' exited with code 1: <stderr
 *   tail>")`, so the engine fails every pending request with it; a child still running is then shut down.
 */
export class StdioClientTransport implements Transport {
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;

  readonly #options: StdioClientTransportOptions;
  readonly #command: string;
  readonly #shutdownTimeoutMs: number;
  readonly #reader: MessageReader;
  readonly #tail: StderrTail | undefined;
  #writer: MessageWriter | undefined;
  #child: ChildProcess | undefined;
  #state: State = 'new';
  #closeReason: Error | undefined;
  /** close() was called: the end that follows is expected, not an error. */
  #closeRequested = false;
  #closing: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** The process is gone: it exited, or it never started. */
  #gone = false;
  #stdoutEnded = false;
  #stderrEnded = true;
  #endHint: { what: string; cause?: unknown } | undefined;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #exited = deferred();
  readonly #closed = deferred();

  readonly #onStdout = (chunk: Buffer): void => this.#reader.push(chunk);
  readonly #onStdoutEnd = (): void => {
    if (this.#stdoutEnded) return;
    this.#stdoutEnded = true;
    this.#reader.end();
    this.#endHint ??= { what: 'closed its stdout' };
    this.#checkEnd();
  };
  readonly #onStderr = (chunk: Buffer): void => this.#tail?.append(chunk);
  readonly #onStderrEnd = (): void => {
    if (this.#stderrEnded) return;
    this.#stderrEnded = true;
    this.#tail?.end();
    this.#checkEnd();
  };
  readonly #onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.#exit ??= { code, signal };
    this.#gone = true;
    this.#exited.resolve();
    this.#checkEnd();
  };
  readonly #onChildError = (error: Error): void => {
    // After a successful spawn this is a failed kill() or similar: informational.
    this.onerror?.(error);
  };

  constructor(options: StdioClientTransportOptions) {
    if (typeof options?.command !== 'string' || options.command === '') {
      throw new LocalError('INVALID_ARGUMENT', 'StdioClientTransport needs a command');
    }
    const framing = options.framing ?? 'ndjson';
    if (framing !== 'ndjson' && framing !== 'content-length') {
      throw new LocalError('INVALID_ARGUMENT', `framing must be 'ndjson' or 'content-length', got ${String(framing)}`);
    }
    this.#options = { ...options, framing };
    this.#command = formatCommand(options.command, options.args ?? []);
    const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs < 0) {
      throw new LocalError('INVALID_ARGUMENT', `shutdownTimeoutMs must be a finite number ≥ 0, got ${String(shutdownTimeoutMs)}`);
    }
    this.#shutdownTimeoutMs = shutdownTimeoutMs;
    checkBatchBytes(options.writeBatchBytes);
    this.#tail = options.stderr === 'pipe' ? new StderrTail() : undefined;
    this.#reader = new MessageReader(
      { framing, maxFrameBytes: options.maxFrameBytes, maxHeaderBytes: options.maxHeaderBytes, maxSkipBytes: options.maxSkipBytes },
      {
        deliver: (message) => this.onmessage?.(message),
        fail: (error) => this.onerror?.(error),
      },
    );
  }

  /** Why the transport closed when it was not asked to (`SERVER_EXITED`); `undefined` after a normal close. */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  /** The child's process id, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The exit code: `undefined` while running (or never started), `null` when killed by a signal. */
  get exitCode(): number | null | undefined {
    return this.#exit?.code;
  }

  /** The signal that killed the child, `null` if it exited by itself, `undefined` while running. */
  get signalCode(): NodeJS.Signals | null | undefined {
    return this.#exit?.signal;
  }

  /** The child's stderr with `stderr: 'pipe'`, once spawned (read it freely: the transport only listens). */
  get stderr(): Readable | null {
    return this.#tail === undefined ? null : (this.#child?.stderr ?? null);
  }

  /** The last few KB of the child's stderr (`stderr: 'pipe'` only; otherwise empty). */
  get stderrTail(): string {
    return this.#tail?.text ?? '';
  }

  /** Spawns the server; see the class comment. Rejects with `ALREADY_CONNECTED` when called twice. */
  start(): Promise<void> {
    if (this.#state !== 'new') {
      return Promise.reject(
        this.#state === 'closed'
          ? new LocalError('CONNECTION_CLOSED', 'StdioClientTransport is closed')
          : new LocalError('ALREADY_CONNECTED', 'StdioClientTransport already started'),
      );
    }
    this.#state = 'starting';
    const options = this.#options;
    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args ?? [], {
        cwd: options.cwd,
        env: buildChildEnvironment(options.env),
        stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'],
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      // Invalid arguments (a NUL byte, a bad cwd type) throw synchronously instead of emitting 'error'.
      return Promise.reject(this.#spawnFailed(error));
    }
    this.#child = child;
    this.#attach(child);
    return new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.removeListener('error', onSpawnError);
        child.on('error', this.#onChildError);
        if (this.#state === 'starting') this.#state = 'open';
        resolve();
      };
      const onSpawnError = (error: Error): void => {
        child.removeListener('spawn', onSpawn);
        reject(this.#spawnFailed(error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onSpawnError);
    });
  }

  /** Queues a message for the child's stdin; rejects with `NOT_CONNECTED` unless started and open. */
  send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    const writer = this.#writer;
    if (this.#state !== 'open' || writer === undefined) {
      return Promise.reject(new LocalError('NOT_CONNECTED', `Server process '${this.#command}' is not running`));
    }
    return writer.send(message);
  }

  /** Runs the shutdown sequence; resolves once the child has exited and `onclose` has fired. Idempotent. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closeRequested = true;
    if (this.#state === 'new') {
      this.#finalize();
      this.#closing = RESOLVED;
    } else {
      this.#closing = this.#terminate().then(() => this.#closed.promise);
    }
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #attach(child: ChildProcess): void {
    child.on('exit', this.#onExit);
    const stdout = child.stdout!;
    stdout.on('data', this.#onStdout);
    stdout.on('end', this.#onStdoutEnd);
    stdout.on('close', this.#onStdoutEnd);
    stdout.on('error', this.#onStdoutEnd);
    const stderr = child.stderr;
    if (this.#tail !== undefined && stderr) {
      this.#stderrEnded = false;
      stderr.on('data', this.#onStderr);
      stderr.on('end', this.#onStderrEnd);
      stderr.on('close', this.#onStderrEnd);
      stderr.on('error', this.#onStderrEnd);
    }
    this.#writer = new MessageWriter(
      child.stdin!,
      this.#options.framing,
      (error) => {
        // EPIPE: the child closed its stdin, usually because it is exiting; the exit explains it better.
        this.#endHint ??= { what: `stopped reading its stdin (${error.message})`, cause: error };
        this.#checkEnd();
      },
      { batchBytes: this.#options.writeBatchBytes },
    );
  }

  #spawnFailed(error: unknown): LocalError {
    const reason = spawnError(this.#command, error);
    this.#closeReason = reason;
    this.#gone = true;
    this.#exited.resolve();
    this.#finalize();
    return reason;
  }

  /**
   * Called on each sign of the end. Closes once the exit and the end of the piped streams have all been
   * seen (so responses and stderr written before the exit are not lost), or when the grace period after
   * the first sign runs out.
   */
  #checkEnd(): void {
    if (this.#state === 'closed') return;
    const complete = this.#exit !== undefined && this.#stdoutEnded && this.#stderrEnded;
    if (!complete && this.#graceTimer === undefined) {
      this.#graceTimer = setTimeout(() => this.#finalize(), END_GRACE_MS);
      return;
    }
    if (complete) this.#finalize();
  }

  /** Closes the transport: settles closeReason, detaches from the child, fires onclose once. */
  #finalize(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#graceTimer !== undefined) clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
    if (!this.#closeRequested && this.#closeReason === undefined) {
      const hint = this.#endHint;
      this.#closeReason = serverExitError(this.#details(), hint?.what, this.#tail?.lastLines() ?? '', hint?.cause);
    }
    this.#detach();
    // A child that closed its stdout or stdin but lives on is shut down; close() waits for that too.
    if (this.#child !== undefined && !this.#gone && !this.#closeRequested) {
      this.#closing = this.#terminate();
    }
    this.#closed.resolve();
    const onclose = this.onclose;
    onclose?.();
  }

  #details(): ServerExitDetails {
    return {
      command: this.#command,
      pid: this.#child?.pid,
      exitCode: this.#exit?.code,
      signal: this.#exit?.signal,
      stderrTail: this.#tail?.text ?? '',
    };
  }

  /** Stops listening to the child's streams; what the transport is done with cannot raise unhandled errors. */
  #detach(): void {
    const child = this.#child;
    if (child === undefined) return;
    // Queued messages still go to a living child: the shutdown sequence starts by closing stdin after them.
    this.#writer?.finish(false);
    const stdout = child.stdout;
    if (stdout) {
      stdout.removeListener('data', this.#onStdout);
      swallowLateErrors(stdout);
      if (!this.#stdoutEnded) stdout.destroy();
    }
    const stderr = child.stderr;
    if (stderr && this.#tail !== undefined) {
      stderr.removeListener('data', this.#onStderr);
      swallowLateErrors(stderr);
      // Left for a user who reads transport.stderr; destroyed only when nobody does, so it cannot hold the loop.
      if (!this.#stderrEnded && stderr.listenerCount('data') === 0) stderr.destroy();
    }
  }

  /** The spec's shutdown sequence (see `stopChildProcess`), after handing over what is queued for stdin. */
  async #terminate(): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#gone) return;
    this.#writer?.finish(false);
    await stopChildProcess(child, { graceMs: this.#shutdownTimeoutMs });
    await this.#exited.promise;
  }
}

/** A promise with its resolver, for the two lifecycle milestones. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}
