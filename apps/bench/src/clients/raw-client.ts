// The raw client: speaks NDJSON to the server directly, with pre-serialised requests, one JSON.parse per response
// line and writes coalesced per microtask (`raw`: a round per write) or one write per request (`raw-each`). It does
// the least a client can do, so that what a row with this client costs is (nearly) all server.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { stopChildProcess } from '@wiremcp/process';
import { argumentsFor, type ToolName } from '../workload.js';
import { LEGACY_VERSION, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, MODERN_VERSION, type Era } from '../wire.js';
import type { ClientSession, ServerCommand } from './session.js';

const CLIENT_INFO = { name: 'bench-raw', version: '1.0.0' };
const MODERN_META = { [META_PROTOCOL_VERSION]: MODERN_VERSION, [META_CLIENT_CAPABILITIES]: {}, [META_CLIENT_INFO]: CLIENT_INFO };
/** Calls cycle through this many argument sets (a multiple of the echo texts and of the 300 table rows). */
const CYCLE = 300;

interface Pending {
  readonly id: number;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

class RawSession implements ClientSession {
  readonly serverPid: number;
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  // Pending requests by id in a ring of slots (ids are sequential and few are in flight), not a Map: once a full GC
  // has promoted a Map, V8 makes each new backing table in the old generation and a replaced table keeps its entries,
  // so every settled request stays alive through the scavenges until the next full GC (@wiremcp/jsonrpc's
  // RequestTable says more). The reference client must not pay GC that a careful hand-written client avoids.
  #slots: Array<Pending | undefined> = new Array<Pending | undefined>(1024).fill(undefined);
  #mask = 1023;
  readonly #params: Record<ToolName, string[]>;
  readonly #era: Era;
  #nextId = 0;
  #carry = '';
  #queued = '';
  #scheduled = false;
  #closed: Error | undefined;
  readonly #flush = (): void => {
    this.#scheduled = false;
    const data = this.#queued;
    this.#queued = '';
    if (data !== '' && this.#closed === undefined) this.#child.stdin.write(data);
  };

  readonly #eachOnItsOwn: boolean;

  constructor(child: ChildProcessByStdio<Writable, Readable, null>, era: Era, eachOnItsOwn: boolean) {
    this.#child = child;
    this.#eachOnItsOwn = eachOnItsOwn;
    this.serverPid = child.pid!;
    this.#era = era;
    const meta = era === 'modern' ? MODERN_META : undefined;
    const params = (tool: ToolName): string[] =>
      Array.from({ length: CYCLE }, (_, i) =>
        JSON.stringify(
          meta ? { name: tool, arguments: argumentsFor(tool, i), _meta: meta } : { name: tool, arguments: argumentsFor(tool, i) },
        ),
      );
    this.#params = { echo: params('echo'), conjugate: params('conjugate') };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.#onData(chunk));
    const onEnd = (): void => this.#fail(new Error('the server closed its stdout'));
    child.stdout.on('end', onEnd);
    child.on('exit', onEnd);
    child.stdin.on('error', (error) => this.#fail(error));
  }

  /** Sends one request (params already serialised) and resolves with its result. */
  request(method: string, paramsJson: string | undefined): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    // JSON.stringify rather than `+ id +`: a number converted by concatenation stays in V8's number-string cache,
    // which keeps every id's string alive into the old heap and charges the reference client GC it need not pay.
    const idText = JSON.stringify(id);
    const line =
      paramsJson === undefined
        ? '{"jsonrpc":"2.0","id":' + idText + ',"method":"' + method + '"}\n'
        : '{"jsonrpc":"2.0","id":' + idText + ',"method":"' + method + '","params":' + paramsJson + '}\n';
    this.#send(line);
    return new Promise((resolve, reject) => this.#hold({ id, resolve, reject }));
  }

  notify(method: string): void {
    this.#send('{"jsonrpc":"2.0","method":"' + method + '"}\n');
  }

  async handshake(): Promise<void> {
    if (this.#era === 'modern') {
      await this.request('server/discover', JSON.stringify({ _meta: MODERN_META }));
      return;
    }
    await this.request('initialize', JSON.stringify({ protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO }));
    this.notify('notifications/initialized');
  }

  listTools(): Promise<unknown> {
    return this.request('tools/list', this.#era === 'modern' ? JSON.stringify({ _meta: MODERN_META }) : undefined);
  }

  call(tool: ToolName, i: number): Promise<unknown> {
    return this.request('tools/call', this.#params[tool][i % CYCLE]);
  }

  /**
   * Ends stdin and waits for the server to exit (SIGTERM after `graceMs`, default 2 s). A server run with
   * `--cpu-prof` writes its profile only on a clean exit, which can take longer than that on a busy machine.
   */
  async close(graceMs?: number): Promise<void> {
    this.#fail(new Error('closed'));
    await stopChildProcess(this.#child, graceMs === undefined ? {} : { graceMs });
  }

  #send(line: string): void {
    if (this.#eachOnItsOwn) {
      if (this.#closed === undefined) this.#child.stdin.write(line);
      return;
    }
    this.#queued += line;
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(this.#flush);
    }
  }

  #onData(chunk: string): void {
    const text = this.#carry + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const message = JSON.parse(text.slice(start, end)) as { id?: number; result?: unknown; error?: { message?: string } };
      start = end + 1;
      if (message.id === undefined) continue; // a notification
      const slot = message.id & this.#mask;
      const pending = this.#slots[slot];
      if (pending === undefined || pending.id !== message.id) continue;
      this.#slots[slot] = undefined;
      if (message.error !== undefined) pending.reject(new Error(`JSON-RPC error: ${JSON.stringify(message.error)}`));
      else pending.resolve(message.result);
    }
    this.#carry = text.slice(start);
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    const pending = this.#slots.filter((entry) => entry !== undefined);
    this.#slots.fill(undefined);
    for (const entry of pending) entry.reject(error);
  }

  /** Puts `entry` in its slot, doubling the ring while the slot holds an older request still pending. */
  #hold(entry: Pending): void {
    while (this.#slots[entry.id & this.#mask] !== undefined) {
      const slots = new Array<Pending | undefined>(this.#slots.length * 2).fill(undefined);
      const mask = slots.length - 1;
      for (const held of this.#slots) if (held !== undefined) slots[held.id & mask] = held;
      this.#slots = slots;
      this.#mask = mask;
    }
    this.#slots[entry.id & this.#mask] = entry;
  }
}

/**
 * The environment servers get: the few variables the SDK clients pass by default (their `getDefaultEnvironment`),
 * so that every client starts its server alike. Inheriting everything would not be neutral: a variable such as
 * NODE_EXTRA_CA_CERTS alone adds ~30 ms to every Node start on the bench machine.
 */
export function serverEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

/** Spawns the server and runs the handshake of `era` over raw NDJSON; the requests of a round in one write. */
export function openRawSession(server: ServerCommand, era: Era): Promise<ClientSession> {
  return openRaw(server, era, false);
}

/** As {@link openRawSession}, but every request in a write of its own. */
export function openRawEachSession(server: ServerCommand, era: Era): Promise<ClientSession> {
  return openRaw(server, era, true);
}

async function openRaw(server: ServerCommand, era: Era, eachOnItsOwn: boolean): Promise<ClientSession> {
  const child = spawn(server.command, server.args, { stdio: ['pipe', 'pipe', 'inherit'], env: serverEnvironment() });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const session = new RawSession(child, era, eachOnItsOwn);
  try {
    await session.handshake();
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}
