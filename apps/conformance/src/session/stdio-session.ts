/**
 * A raw stdio session: the server as a child process, bytes written to its stdin, its stdout decoded with the
 * cell's framing by `@wiremcp/framing`.
 *
 * Everything on stdout must be a valid frame of that framing holding one UTF-8 JSON value: anything else
 * (a log line, a banner, a Content-Length frame in an NDJSON cell, invalid UTF-8) is recorded as a violation,
 * which fails the cell. stderr is free-form (the spec allows logging there) and is kept for the report.
 */
import type { ChildProcess } from 'node:child_process';
import { createDecoder, encodeFrame, type FrameDecoder, type Framing } from '@wiremcp/framing';
import type { TransportId } from '../scenario/scenario-types.js';
import { spawnServer, stopServer, type SpawnSpec } from './child-processes.js';
import { EventLog, type RawSession, type SendOutcome } from './session.js';

const STDERR_KEEP = 8 * 1024;
// Servers may legitimately send big results (a 16 MiB frame test echoes a large request); stay generous.
const MAX_INBOUND_FRAME = 64 * 1024 * 1024;

/** How a stdout frame that is not JSON is reported (followed by the frame, quoted, at most 200 characters). */
export const NOT_JSON_ON_STDOUT = 'stdout holds something that is not a JSON-RPC message: ';

function excerpt(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 200)).toString('utf8');
  return JSON.stringify(bytes.length > 200 ? `${text}…` : text);
}

function hint(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return ' (no such command: is it installed, and on PATH?)';
  if (code === 'EACCES') return ' (permission denied: is the file executable?)';
  return '';
}

/** A server over stdio with one framing. */
export class StdioSession implements RawSession {
  readonly transport: TransportId;
  readonly log = new EventLog();
  readonly #child: ChildProcess;
  readonly #framing: Framing;
  readonly #decoder: FrameDecoder;
  readonly #text = new TextDecoder('utf-8', { fatal: true });
  #stderr = '';
  /** Characters written to stderr since the start (the tail keeps only the last {@link STDERR_KEEP}). */
  #stderrTotal = 0;
  #closed: Promise<void> | undefined;
  #started = false;
  #markStarted: () => void = () => {};
  #startError: string | undefined;
  readonly started: Promise<void>;

  constructor(spec: SpawnSpec, transport: TransportId) {
    this.transport = transport;
    this.#framing = transport === 'stdio-content-length' ? 'content-length' : 'ndjson';
    this.#decoder = createDecoder({
      framing: this.#framing,
      maxFrameBytes: MAX_INBOUND_FRAME,
      onFrame: (payload) => this.#frame(payload),
      onError: (error) =>
        this.log.push({
          kind: 'violation',
          message: `stdout is not a valid ${this.#framing} stream (${error.code}): ${error.message}`,
          at: this.log.now(),
        }),
    });
    this.started = new Promise((resolve) => {
      this.#markStarted = () => {
        this.#started = true;
        resolve();
      };
    });
    this.#child = spawnServer(spec);
    const child = this.#child;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!this.#started) this.#markStarted();
      this.#decoder.push(chunk);
    });
    child.stdout!.on('end', () => {
      try {
        this.#decoder.end();
      } catch {
        // Reported through onError.
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_KEEP);
      this.#stderrTotal += chunk.length;
    });
    // A server that exits early makes writes fail with EPIPE; the exit event is what the runner reports.
    child.stdin!.on('error', () => {});
    child.on('error', (error) => {
      // Only a spawn failure (ENOENT, EACCES…) comes before the process exists; later errors are about signals.
      if (child.pid === undefined) this.#startError ??= `${error.message}${hint(error)}`;
      this.log.push({ kind: 'violation', message: `could not start the server: ${error.message}`, at: this.log.now() });
      this.#markStarted();
    });
    child.on('exit', (code, signal) => {
      this.log.push({ kind: 'exit', code, signal, at: this.log.now() });
      this.#markStarted();
    });
  }

  #frame(payload: Uint8Array): void {
    let text: string;
    try {
      text = this.#text.decode(payload);
    } catch {
      this.log.push({ kind: 'violation', message: `stdout frame is not valid UTF-8: ${excerpt(payload)}`, at: this.log.now() });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.log.push({
        kind: 'violation',
        message: `${NOT_JSON_ON_STDOUT}${excerpt(payload)}`,
        at: this.log.now(),
      });
      return;
    }
    this.log.push({ kind: 'message', message, at: this.log.now() });
  }

  #write(bytes: Uint8Array): Promise<void> {
    const stdin = this.#child.stdin!;
    if (stdin.destroyed || stdin.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      // Resolve once flushed to the pipe (or failed: the exit event tells the story).
      stdin.write(bytes, () => resolve());
    });
  }

  send(message: unknown): Promise<SendOutcome> {
    return this.sendPayload(new TextEncoder().encode(JSON.stringify(message))).then(() => ({}));
  }

  async sendPayload(payload: Uint8Array): Promise<SendOutcome> {
    // encodeFrame refuses payloads NDJSON cannot carry (raw newlines); such a test belongs in sendRaw.
    await this.#write(encodeFrame(payload, this.#framing));
    return {};
  }

  sendRaw(bytes: Uint8Array): Promise<void> {
    return this.#write(bytes);
  }

  cancelByTransport(): boolean {
    return false;
  }

  closeInput(): Promise<void> {
    this.#child.stdin!.end();
    return Promise.resolve();
  }

  stderrTail(since = 0): string {
    const fresh = this.#stderrTotal - since;
    return fresh >= this.#stderr.length ? this.#stderr : this.#stderr.slice(-Math.max(0, fresh));
  }

  /** A mark for {@link stderrTail}: what the server writes to stderr after this point. */
  stderrMark(): number {
    return this.#stderrTotal;
  }

  isStarted(): boolean {
    return this.#started;
  }

  startError(): string | undefined {
    return this.#startError;
  }

  /** True once the process has exited (or could not be started). */
  hasExited(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null || this.#startError !== undefined;
  }

  /** Stops the server: closes stdin, waits `graceMs` for it to exit, then signals its process group. */
  close(graceMs = 500): Promise<void> {
    this.#closed ??= stopServer(this.#child, graceMs);
    return this.#closed;
  }
}
