// The client transport against real child processes (fixtures under test/fixtures).
import { Peer } from '@wiremcp/jsonrpc';
import { LocalError } from '@wiremcp/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { fixture, gate, isAlive, onCleanup, stopEverything, when } from './child-processes.test-util.js';
import { StdioClientTransport, type StdioClientTransportOptions } from './stdio-client-transport.js';

afterEach(stopEverything);

/** A transport running `node <fixture>`, closed (and its process killed) after the test. */
function transportFor(script: string, options: Partial<StdioClientTransportOptions> = {}): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture(script)],
    shutdownTimeoutMs: 500,
    // Piped, so the servers' logs do not clutter the test output (and the tail is checked where it matters).
    stderr: 'pipe',
    ...options,
  });
  onCleanup(async () => {
    const pid = transport.pid;
    await transport.close();
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  return transport;
}

/** A Peer connected to `node <fixture>` through a StdioClientTransport. */
async function clientFor(script: string, options: Partial<StdioClientTransportOptions> = {}) {
  const transport = transportFor(script, options);
  const peer = new Peer({ onInternalError: () => undefined });
  let closes = 0;
  peer.onclose = () => closes++;
  await peer.connect(transport);
  return { peer, transport, closes: () => closes };
}

function rejection(promise: Promise<unknown>): Promise<LocalError> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as LocalError,
  );
}

describe('StdioClientTransport: messages', () => {
  test('round trip over NDJSON, 64 requests in flight, then a clean close', async () => {
    // A long first stage: the close must not need a signal at all.
    const { peer, transport, closes } = await clientFor('echo-server.mjs', { shutdownTimeoutMs: 5000 });
    expect(transport.pid).toBeGreaterThan(0);
    expect(await peer.request('echo', { text: 'comió 日本' })).toEqual({ text: 'comió 日本' });
    const results = await Promise.all(Array.from({ length: 64 }, (_, i) => peer.request('echo', { i })));
    expect(results).toEqual(Array.from({ length: 64 }, (_, i) => ({ i })));
    await transport.close();
    // The echo server exits as soon as its stdin closes: no signal needed.
    expect(transport.exitCode).toBe(0);
    expect(transport.signalCode).toBeNull();
    expect(transport.closeReason).toBeUndefined();
    expect(closes()).toBe(1);
    expect(isAlive(transport.pid!)).toBe(false);
  });

  test('round trip over Content-Length, against an auto-detecting and a Content-Length-only server', async () => {
    for (const serverFraming of ['auto', 'content-length']) {
      const { peer, transport } = await clientFor('echo-server.mjs', {
        framing: 'content-length',
        env: { WIREMCP_FRAMING: serverFraming },
      });
      expect(await peer.request('echo', { text: 'ñandú', serverFraming })).toEqual({ text: 'ñandú', serverFraming });
      await transport.close();
      expect(transport.exitCode).toBe(0);
    }
  });

  test('what is not JSON on the server stdout is reported as PARSE_ERROR, and reading goes on', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', `process.stdout.write('banner: not json\\n{"jsonrpc":"2.0","method":"hello"}\\n')`],
    });
    onCleanup(() => transport.close());
    const messages: unknown[] = [];
    const errors: Error[] = [];
    const received = gate();
    transport.onmessage = (message) => {
      messages.push(message);
      received.open();
    };
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    await received.promise;
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'hello' }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'PARSE_ERROR' });
  });

  test('invalid options are refused up front', () => {
    expect(() => new StdioClientTransport({ command: '' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new StdioClientTransport({ command: 'node', framing: 'auto' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new StdioClientTransport({ command: 'node', shutdownTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new StdioClientTransport({ command: 'node', writeBatchBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  test('send() before start() rejects; start() twice rejects', async () => {
    const transport = transportFor('echo-server.mjs');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
  });
});

describe('StdioClientTransport: shutdown sequence', () => {
  test('a child that ignores stdin EOF but exits on SIGTERM', async () => {
    const { peer, transport, closes } = await clientFor('stubborn-server.mjs', {
      shutdownTimeoutMs: 300,
      env: { WIREMCP_MODE: 'ignore-eof' },
    });
    expect(await peer.request('ping', {})).toEqual({ mode: 'ignore-eof' });
    await transport.close();
    // Closing stdin did not end it; SIGTERM did (the order of the steps is pinned in stop-child-process.test.ts).
    expect(transport.signalCode).toBe('SIGTERM');
    expect(transport.exitCode).toBeNull();
    expect(transport.closeReason).toBeUndefined();
    expect(closes()).toBe(1);
  });

  test('a child that ignores SIGTERM gets SIGKILL', async () => {
    const { peer, transport } = await clientFor('stubborn-server.mjs', {
      shutdownTimeoutMs: 250,
      stderr: 'pipe',
      env: { WIREMCP_MODE: 'ignore-sigterm' },
    });
    expect(await peer.request('ping', {})).toEqual({ mode: 'ignore-sigterm' });
    await transport.close();
    // Every step reached it: stdin EOF, then SIGTERM (logged and ignored), then SIGKILL.
    expect(transport.stderrTail).toMatch(/stdin closed; staying up[\s\S]*ignoring SIGTERM/);
    expect(transport.signalCode).toBe('SIGKILL');
    expect(isAlive(transport.pid!)).toBe(false);
  });

  test('close() is idempotent, works before start(), and onclose fires once', async () => {
    const idle = new StdioClientTransport({ command: process.execPath });
    let idleCloses = 0;
    idle.onclose = () => idleCloses++;
    await idle.close();
    await idle.close();
    expect(idleCloses).toBe(1);
    await expect(idle.start()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });

    const transport = transportFor('echo-server.mjs');
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    const first = transport.close();
    expect(transport.close()).toBe(first);
    await first;
    await transport[Symbol.asyncDispose]();
    expect(closes).toBe(1);
  });
});

describe('StdioClientTransport: the server goes away', () => {
  test('a crash mid-request fails every pending request at once with SERVER_EXITED, exit code and stderr tail', async () => {
    const { peer, transport, closes } = await clientFor('echo-server.mjs', { stderr: 'pipe' });
    const slow = rejection(peer.request('slow', { ms: 10_000 }));
    const crash = rejection(peer.request('crash', { message: 'fatal: the cheese ran out', code: 3 }));
    // The slow request would take 10 s: it fails as soon as the process is gone.
    const error = await slow;
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe('SERVER_EXITED');
    expect(error.message).toMatch(/^Server process '.*echo-server\.mjs' exited with code 3: /);
    expect(error.message).toContain('fatal: the cheese ran out');
    expect(error.details).toMatchObject({ exitCode: 3, pid: transport.pid });
    expect(await crash).toBe(error);
    expect(transport.closeReason).toBe(error);
    expect(transport.exitCode).toBe(3);
    expect(closes()).toBe(1);
    await expect(peer.request('echo', {})).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  test('a child killed by a signal is reported with the signal', async () => {
    const { peer, transport } = await clientFor('echo-server.mjs');
    // Once it answers, it has logged its start-up lines (stderr is written before the reply).
    await peer.request('echo', {});
    const pending = rejection(peer.request('slow', { ms: 10_000 }));
    await when(transport.stderr!, 'data', () => transport.stderrTail.includes('slow started'), 'the slow request to start');
    process.kill(transport.pid!, 'SIGKILL');
    const error = await pending;
    expect(error).toMatchObject({ code: 'SERVER_EXITED' });
    // The last stderr lines follow the cause.
    expect(error.message).toMatch(
      /' was killed by signal SIGKILL: \[echo-server\] starting\n\[echo-server\] ready\n\[echo-server\] slow started$/,
    );
    expect(transport.signalCode).toBe('SIGKILL');
  });

  test('a child that closes its stdout but keeps running: SERVER_EXITED, and it is shut down', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', 'require("node:fs").closeSync(1); setInterval(() => {}, 1000)'],
      shutdownTimeoutMs: 200,
    });
    let closes = 0;
    const { promise: closed, open: onClosed } = gate();
    transport.onclose = () => {
      closes++;
      onClosed();
    };
    await transport.start();
    const pid = transport.pid!;
    onCleanup(() => {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    await closed;
    expect(transport.closeReason).toMatchObject({ code: 'SERVER_EXITED', message: expect.stringMatching(/closed its stdout$/) });
    await transport.close();
    expect(transport.signalCode).toBe('SIGTERM');
    expect(isAlive(pid)).toBe(false);
    expect(closes).toBe(1);
  });

  test('a command that does not exist: start() rejects with SERVER_EXITED naming it', async () => {
    const transport = new StdioClientTransport({ command: 'wiremcp-no-such-command', args: ['--serve'] });
    let closes = 0;
    transport.onclose = () => closes++;
    const error = await rejection(transport.start());
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe('SERVER_EXITED');
    expect(error.message).toContain("'wiremcp-no-such-command --serve'");
    expect(error.message).toContain('ENOENT');
    expect(transport.closeReason).toBe(error);
    expect(closes).toBe(1);
    expect(transport.pid).toBeUndefined();
    await transport.close();
    expect(closes).toBe(1);
  });

  test('a file that is not executable: SERVER_EXITED with EACCES, through Peer.connect too', async () => {
    const transport = new StdioClientTransport({ command: fixture('echo-server.mjs') });
    const peer = new Peer();
    const error = await rejection(peer.connect(transport));
    expect(error).toMatchObject({ code: 'SERVER_EXITED', message: expect.stringContaining('EACCES') });
    expect(peer.transport).toBeUndefined();
  });
});

describe('StdioClientTransport: environment, cwd, stderr', () => {
  test('the child gets the safe default variables plus env, not the whole parent environment', async () => {
    process.env.WIREMCP_TEST_SECRET = 'do-not-leak';
    onCleanup(() => {
      delete process.env.WIREMCP_TEST_SECRET;
    });
    const { peer } = await clientFor('echo-server.mjs', { env: { WIREMCP_GIVEN: 'yes', HOME: undefined }, cwd: '/' });
    const { env, cwd } = (await peer.request('env', {})) as { env: Record<string, string>; cwd: string };
    expect(env.WIREMCP_GIVEN).toBe('yes');
    expect(env.WIREMCP_TEST_SECRET).toBeUndefined();
    expect(env.HOME).toBeUndefined();
    if (process.env.PATH !== undefined) expect(env.PATH).toBe(process.env.PATH);
    expect(cwd).toBe('/');
  });

  test("stderr: 'pipe' exposes the stream and keeps its tail; 'inherit' and 'ignore' expose nothing", async () => {
    const { peer, transport } = await clientFor('echo-server.mjs', { stderr: 'pipe' });
    const seen: Buffer[] = [];
    transport.stderr!.on('data', (chunk: Buffer) => seen.push(chunk));
    await peer.request('log', { text: 'visible on the stream' });
    await when(transport.stderr!, 'data', () => Buffer.concat(seen).toString().includes('visible on the stream'), 'the stderr line');
    expect(transport.stderrTail).toContain('[echo-server] ready');
    expect(transport.stderrTail).toContain('visible on the stream');
    const ignored = transportFor('echo-server.mjs', { stderr: 'ignore' });
    await ignored.start();
    expect(ignored.stderr).toBeNull();
    expect(ignored.stderrTail).toBe('');
  });
});
