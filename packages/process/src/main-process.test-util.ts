// A MainProcess double for running a server main inside a test: in-memory streams, signals and fatal errors
// the test raises, and an exit that is recorded instead of ending the test runner.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { MainProcess, ShutdownSignal } from './main-process.js';
import type { Servable } from './serve-mode.js';

/** The double, with what the main wrote and how it exited. */
export interface FakeProcess extends MainProcess {
  readonly stdin: PassThrough;
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** The codes passed to `exit()`, in order (a real process stops at the first). */
  readonly exits: number[];
  /** Everything written to stdout / stderr so far. */
  out(): string;
  err(): string;
  /** Delivers a signal to the listeners the main installed. */
  signal(signal: ShutdownSignal): void;
  /** Raises an uncaught error. */
  fatal(error: unknown): void;
  /** Resolves once stdout holds text matching `pattern`. */
  untilOut(pattern: RegExp): Promise<void>;
}

/** A fresh process double with `argv`. */
export function fakeProcess(argv: readonly string[] = []): FakeProcess {
  const events = new EventEmitter();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exits: number[] = [];
  return {
    argv,
    stdin,
    stdout,
    stderr,
    exits,
    exit: (code) => void exits.push(code),
    onSignal: (signal, listener) => void events.on(signal, listener),
    onFatal: (listener) => void events.on('fatal', listener),
    out: () => out,
    err: () => err,
    signal: (signal) => void events.emit(signal, signal),
    fatal: (error) => void events.emit('fatal', error),
    untilOut: (pattern) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!pattern.test(out)) return;
          stdout.removeListener('data', check);
          resolve();
        };
        stdout.on('data', check);
        check();
      }),
  };
}

/** A promise with its resolver. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * A small JSON-RPC server straight on the transport (no engine): `echo` answers its params; `hold` opens
 * `started` and answers `{ held: true }` once the test calls `release()`. At the end of input and on `close()`
 * it lets what is in progress finish, then closes the transport, as an McpServer connection does.
 */
export function testServer() {
  const started = gate();
  const release = gate();
  const server: Servable = {
    async connect(transport) {
      const inflight = new Set<Promise<void>>();
      const finish = async (): Promise<void> => {
        await Promise.all(inflight);
        await transport.close();
      };
      transport.onmessage = (message) => {
        const { id, method, params } = message as { id: number; method: string; params?: Record<string, unknown> };
        if (method === 'echo') void transport.send({ jsonrpc: '2.0', id, result: params ?? {} });
        if (method !== 'hold') return;
        started.open();
        const answered = release.promise.then(() => transport.send({ jsonrpc: '2.0', id, result: { held: true } }));
        inflight.add(answered);
      };
      transport.onend = () => void finish();
      await transport.start();
      return { close: finish };
    },
  };
  return { server, started: started.promise, release: release.open };
}
