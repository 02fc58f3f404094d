// runServerMain inside the test process, on a process double: every path to an exit, with its code and its
// messages. Real processes and real signals are in server-main.process.test.ts.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { fakeProcess, testServer } from './main-process.test-util.js';
import { runServerMain, type ServerMainOptions } from './run-server-main.js';
import { UsageError } from './server-flags.js';

afterEach(() => {
  vi.useRealTimers();
});

const USAGE = 'A test server.\n\nOptions:\n  --level N  how much\n';

function main(argv: string[], overrides: Partial<ServerMainOptions<{ level: number }>> = {}) {
  const process = fakeProcess(argv);
  const { server, started, release } = testServer();
  const done = runServerMain<{ level: number }>({
    name: 'test-server',
    version: '1.2.3',
    usage: USAGE,
    options: { level: { type: 'string' } },
    parseArgs: (values) => {
      const level = Number(values.level ?? 1);
      if (!Number.isInteger(level)) throw new UsageError(`--level must be an integer, got ${JSON.stringify(values.level)}`);
      return { level };
    },
    createServer: () => server,
    process,
    ...overrides,
  });
  return { process, done, started, release };
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';

describe('the command line', () => {
  test('--help: the usage on stderr (the bin part and the shared part), nothing on stdout, exit 0', async () => {
    const { process, done } = main(['--help']);
    expect(await done).toBe(0);
    expect(process.exits).toEqual([0]);
    expect(process.err()).toMatch(/^Usage: test-server \[options\]\n\nA test server\.\n\nOptions:\n {2}--level N/);
    expect(process.err()).toContain('--framing ndjson|content-length|auto');
    expect(process.err()).toContain('Exit codes: 0 when stdin closes');
    expect(process.out()).toBe('');
  });

  test('--version: name and version on stderr, exit 0', async () => {
    const { process, done } = main(['--version']);
    expect(await done).toBe(0);
    expect(process.err()).toBe('test-server 1.2.3\n');
  });

  test('a bad flag or value: one line and a hint on stderr, exit 2, no server built', async () => {
    const createServer = vi.fn();
    for (const [argv, line] of [
      [['--verbose'], "test-server: unknown option '--verbose'"],
      [['--level', 'x'], 'test-server: --level must be an integer, got "x"'],
      [['--framing', 'xml'], 'test-server: --framing must be one of ndjson, content-length, auto, got "xml"'],
    ] as const) {
      const { process, done } = main([...argv], { createServer });
      expect(await done).toBe(2);
      expect(process.err()).toBe(`${line}\nRun 'test-server --help' for usage.\n`);
      expect(process.out()).toBe('');
    }
    expect(createServer).not.toHaveBeenCalled();
  });
});

describe('serving', () => {
  test('the arguments reach createServer; a start line on stderr; stdin EOF after the answers exits 0', async () => {
    const createServer = vi.fn(() => testServer().server);
    const { process, done } = main(['--level', '3', '--framing', 'ndjson'], { createServer });
    process.stdin.write(request(1, 'echo', { hello: 'world' }));
    await process.untilOut(/"id":1/);
    expect(createServer).toHaveBeenCalledWith({ level: 3 }, expect.objectContaining({ log: expect.any(Function) }));
    expect(process.err()).toBe('test-server 1.2.3: serving MCP on stdio (framing: ndjson)\n');
    process.stdin.end();
    expect(await done).toBe(0);
    expect(process.out()).toBe('{"jsonrpc":"2.0","id":1,"result":{"hello":"world"}}\n');
  });

  test('stdin EOF with a request in progress: it is answered, then exit 0', async () => {
    const { process, done, started, release } = main([]);
    process.stdin.write(request(7, 'hold'));
    await started;
    process.stdin.end();
    release();
    expect(await done).toBe(0);
    expect(process.out()).toBe('{"jsonrpc":"2.0","id":7,"result":{"held":true}}\n');
  });

  test('a server that cannot be built: "cannot start" with the reason, exit 1', async () => {
    const { process, done } = main([], {
      createServer: () => {
        throw new Error('the table at /tmp/x.yaml has 2 problems');
      },
    });
    expect(await done).toBe(1);
    expect(process.err()).toBe('test-server: cannot start: the table at /tmp/x.yaml has 2 problems\n');
  });

  test('a bug while building the server is shown with its stack', async () => {
    const { process, done } = main([], {
      createServer: async () => {
        await Promise.resolve();
        throw new TypeError("Cannot read properties of undefined (reading 'tools')");
      },
    });
    expect(await done).toBe(1);
    expect(process.err()).toMatch(/^test-server: cannot start: TypeError: Cannot read properties[^\n]*\n {4}at /);
  });

  test('the context logs on stderr with the name, and internal errors with their stack', async () => {
    const { process, done } = main([], {
      createServer: (_args, context) => {
        context.log('loaded 300 rows');
        context.onInternalError(new Error('handler bug'));
        return testServer().server;
      },
    });
    process.stdin.end();
    expect(await done).toBe(0);
    expect(process.err()).toMatch(/^test-server: loaded 300 rows\ntest-server: internal error: Error: handler bug\n {4}at /);
  });

  test('an uncaught error: printed with its stack, exit 1', async () => {
    const { process, done } = main([]);
    await process.untilOut(/^$/);
    process.stdin.write(request(1, 'echo'));
    await process.untilOut(/"id":1/);
    process.fatal(new Error('boom'));
    expect(await done).toBe(1);
    expect(process.err()).toMatch(/test-server: uncaught error: Error: boom\n {4}at /);
  });

  test('a connection that breaks (stdout gone): the reason on stderr, exit 1', async () => {
    const { process, done } = main(['--framing', 'ndjson']);
    process.stdin.write(request(1, 'echo'));
    await process.untilOut(/"id":1/);
    process.stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(await done).toBe(1);
    expect(process.err()).toMatch(/test-server: connection closed: The client closed the output pipe \(EPIPE\)\n$/);
  });
});

describe('signals', () => {
  test('SIGTERM: a request in progress is finished and answered, then exit 0', async () => {
    const { process, done, started, release } = main([]);
    process.stdin.write(request(1, 'hold'));
    await started;
    process.signal('SIGTERM');
    expect(process.err()).toMatch(/test-server: SIGTERM, shutting down\n$/);
    release();
    expect(await done).toBe(0);
    expect(process.out()).toBe('{"jsonrpc":"2.0","id":1,"result":{"held":true}}\n');
  });

  test('a shutdown that does not finish within shutdownTimeoutMs exits 1', async () => {
    vi.useFakeTimers();
    const { process, done, started } = main([], { shutdownTimeoutMs: 1500 });
    process.stdin.write(request(1, 'hold'));
    await started;
    process.signal('SIGINT');
    await vi.advanceTimersByTimeAsync(1499);
    expect(process.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe(1);
    expect(process.err()).toMatch(/test-server: not stopped 1500 ms after SIGINT; exiting\n$/);
  });

  test('a second signal exits at once with 128 + its number', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const { process, done, started } = main([]);
      process.stdin.write(request(1, 'hold'));
      await started;
      process.signal(signal);
      process.signal(signal);
      expect(await done).toBe(code);
      expect(process.err()).toMatch(new RegExp(`${signal}, shutting down\\ntest-server: ${signal} again, exiting now\\n$`));
    }
  });
});
