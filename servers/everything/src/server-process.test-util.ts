/**
 * Drives the built `wiremcp-everything` bin as a child process over stdio, in either framing, for tests.
 * Every process started is tracked; `stopAll()` (call it in afterEach) kills the ones still running, so a
 * failing test leaves nothing behind.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The committed bin script (it imports the built `dist/bin.js`). */
export const BIN = fileURLToPath(new URL('../bin/wiremcp-everything.js', import.meta.url));
/** The build output the bin needs. */
export const BUILT_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const running = new Set<ServerProcess>();

/** Kills every process still running (SIGKILL) and waits for them to exit. */
export async function stopAll(): Promise<void> {
  const processes = [...running];
  running.clear();
  for (const process of processes) process.kill('SIGKILL');
  await Promise.all(processes.map((process) => process.exited));
}

/** Throws a readable error when the bin has not been built. */
export function assertBuilt(): void {
  if (!existsSync(BUILT_BIN)) throw new Error(`${BUILT_BIN} is missing: run \`turbo run build\` before these tests`);
}

type Framing = 'ndjson' | 'content-length';

/** A JSON-RPC message from the server, as parsed (its members are checked by the tests, with toMatchObject). */
export interface Message {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** One running server and what it wrote. */
export class ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  /** Every byte written to stdout, for checking that nothing but protocol messages appeared. */
  stdout = Buffer.alloc(0);
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #framing: Framing;
  #buffer = Buffer.alloc(0);
  #waiters: Array<{ match: (message: Message) => boolean; resolve: (message: Message) => void }> = [];

  constructor(args: readonly string[], framing: Framing) {
    this.#framing = framing;
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(this);
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdout = Buffer.concat([this.stdout, chunk]);
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    // Writes after the child exited fail with EPIPE; the test sees that through `exited`.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        running.delete(this);
        resolve({ code, signal });
      });
    });
  }

  /** Sends one message in this process's framing. */
  send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(
      this.#framing === 'ndjson'
        ? Buffer.concat([body, Buffer.from('\n')])
        : Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]),
    );
  }

  /** Sends raw bytes. */
  sendRaw(bytes: string | Uint8Array): void {
    this.child.stdin.write(bytes);
  }

  /** Resolves with the first message (already received or future) that matches, or rejects after `timeoutMs`. */
  next(match: (message: Message) => boolean, timeoutMs = 5000): Promise<Message> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.#waiters.push({
        match,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  }

  /** Sends a request and resolves with its response message. */
  request(id: number | string, method: string, params?: Record<string, unknown>): Promise<Message> {
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.next((message) => message.id === id && !('method' in message));
  }

  /** Closes stdin (the spec's first shutdown step). */
  endInput(): void {
    this.child.stdin.end();
  }

  /** Sends a signal, unless the process has exited. */
  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  #parse(): void {
    for (;;) {
      let body: Buffer;
      if (this.#framing === 'ndjson') {
        const newline = this.#buffer.indexOf(0x0a);
        if (newline < 0) return;
        body = this.#buffer.subarray(0, newline);
        this.#buffer = this.#buffer.subarray(newline + 1);
      } else {
        const end = this.#buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const header = /^Content-Length: (\d+)$/i.exec(this.#buffer.subarray(0, end).toString('ascii'));
        if (!header) throw new Error(`bad header on stdout: ${this.#buffer.subarray(0, end).toString('ascii')}`);
        const length = Number(header[1]);
        if (this.#buffer.length < end + 4 + length) return;
        body = this.#buffer.subarray(end + 4, end + 4 + length);
        this.#buffer = this.#buffer.subarray(end + 4 + length);
      }
      const message = JSON.parse(body.toString('utf8')) as Message;
      this.messages.push(message);
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const waiter of waiters) {
        if (waiter.match(message)) waiter.resolve(message);
        else this.#waiters.push(waiter);
      }
    }
  }
}

/** Starts the bin with `args`, speaking `framing` to it. */
export function startServer(args: readonly string[] = [], framing: Framing = 'ndjson'): ServerProcess {
  return new ServerProcess(args, framing);
}

/** The initialize request of a legacy client. */
export function initializeParams(protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}) {
  return { protocolVersion, capabilities, clientInfo: { name: 'bin-test', version: '1.0.0' } };
}

/** A 2026-07-28 `_meta`. */
export function modernMeta(capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'bin-test', version: '1.0.0' },
  };
}
