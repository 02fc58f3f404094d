// The HTTP serve mode: `--http [host:]port`, `--path`, `--legacy-sse`, `--allow-origin` parsed, and a real server
// main serving an McpServer on 127.0.0.1 (real sockets) on a process double: the start line names the URL, both
// eras answer on the one endpoint, and SIGTERM ends listen streams gracefully before the sockets close.
import { McpServer, type TaskStore } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { parseHttpAddress } from './http-mode.js';
import { fakeProcess } from './main-process.test-util.js';
import { formatUsage, parseServerArgs } from './parse-server-args.js';
import { runServerMain } from './run-server-main.js';

describe('the command line', () => {
  test('--http [host:]port, with the loopback default', () => {
    expect(parseHttpAddress('3000')).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(parseHttpAddress('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseHttpAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(parseHttpAddress('mcp.local:1')).toEqual({ host: 'mcp.local', port: 1 });
    for (const bad of ['', 'abc', '70000', 'host:', '::1:80', 'a b:80'])
      expect(() => parseHttpAddress(bad)).toThrow(/--http needs \[host:\]port/);
  });

  test('the target and its description; HTTP-only flags refused without --http', () => {
    expect(parseServerArgs(['--http', '3000'])).toMatchObject({ kind: 'run', target: { description: 'http://127.0.0.1:3000/mcp' } });
    expect(parseServerArgs(['--http=[::1]:8080', '--path', '/api/mcp', '--legacy-sse'])).toMatchObject({
      target: { description: 'http://[::1]:8080/api/mcp' },
    });
    expect(parseServerArgs(['--path', '/x'])).toEqual({ kind: 'error', message: '--path applies to --http only' });
    expect(parseServerArgs(['--http', '1', '--framing', 'ndjson'])).toEqual({ kind: 'error', message: '--framing applies to stdio only' });
    expect(parseServerArgs(['--http', '1', '--path', 'mcp'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--path must start with '\/'/),
    });
    expect(parseServerArgs(['--http', '1', '--allow-origin', 'evil'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--allow-origin needs/),
    });
    expect(
      parseServerArgs(['--http', '1', '--allow-origin', 'https://a.example', '--allow-origin', 'http://localhost:5173']),
    ).toMatchObject({ kind: 'run' });
  });

  test('--redis URL and --allow-host: checked, and refused without --http', () => {
    expect(parseServerArgs(['--redis', 'redis://127.0.0.1:6379'])).toEqual({ kind: 'error', message: '--redis applies to --http only' });
    expect(parseServerArgs(['--allow-host', 'a.example'])).toEqual({ kind: 'error', message: '--allow-host applies to --http only' });
    expect(parseServerArgs(['--http', '1', '--redis', 'localhost:6379'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--redis needs a URL such as redis:\/\/127\.0\.0\.1:6379/),
    });
    expect(parseServerArgs(['--http', '1', '--allow-host', 'a b'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--allow-host needs/),
    });
    expect(
      parseServerArgs([
        '--http',
        '1',
        '--redis',
        'rediss://user:pw@redis.example:6380/2',
        '--allow-host',
        'mcp.example.com',
        '--allow-host',
        '[::1]:8080',
      ]),
    ).toMatchObject({ kind: 'run' });
  });

  test('positional arguments reach the bin when it takes some; otherwise they are usage errors', () => {
    const spec = {
      positionals: '<directory>...',
      parseArgs: (_values: unknown, positionals: readonly string[]) => ({ dirs: [...positionals] }),
    };
    expect(parseServerArgs(['/a', '--http', '3000', '/b'], spec)).toMatchObject({ kind: 'run', args: { dirs: ['/a', '/b'] } });
    expect(parseServerArgs(['/a'])).toEqual({ kind: 'error', message: "unexpected argument '/a' (only options are accepted)" });
    expect(formatUsage('fs', 'Serves files.', '<directory>...')).toMatch(/^Usage: fs \[options\] <directory>\.\.\.\n\nServes files\./);
    expect(formatUsage('fs', 'x')).toContain('  --http [host:]port | unix:PATH\n');
  });
});

function httpServer(): McpServer {
  const server = new McpServer({ name: 'http-main', version: '1.0.0' }, { onInternalError: () => {} });
  server.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({
      content: [{ type: 'text', text: args.text ?? '' }],
    }),
  );
  return server;
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const modern = (method: string, params: Record<string, unknown> = {}, id = 1) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
});

describe('serving over HTTP', () => {
  test('the start line names the URL; both eras answer; SIGTERM ends listen streams gracefully, then exit 0', async () => {
    const process = fakeProcess(['--http', '127.0.0.1:0', '--path', '/rpc']);
    const done = runServerMain({ name: 'http-main', version: '1.0.0', usage: 'A server.', createServer: httpServer, process });
    const line = await new Promise<string>((resolve) => {
      const check = (): void => {
        const match = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/rpc) \(Streamable HTTP, every revision\)/.exec(process.err());
        if (match) resolve(match[1]!);
        else process.stderr.once('data', check);
      };
      check();
    });
    const url = new URL(line);
    const listed = await fetch(url, modern('tools/list'));
    expect(await listed.json()).toMatchObject({ result: { tools: [{ name: 'echo' }] } });
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }),
    });
    expect(init.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const listen = await fetch(url, modern('subscriptions/listen', { notifications: { toolsListChanged: true } }, 9));
    const reader = listen.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain('notifications/subscriptions/acknowledged');
    process.signal('SIGTERM');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).toContain('"method":"notifications/cancelled"');
    expect(rest).toMatch(/"id":9,"result"/);
    expect(await done).toBe(0);
    expect(process.err()).toContain('http-main: SIGTERM, shutting down');
    await expect(fetch(url, modern('tools/list'))).rejects.toThrow();
  });

  test('a signal while the server is still being built: it starts, then shuts down gracefully (exit 0)', async () => {
    let build!: () => void;
    const built = new Promise<void>((resolve) => (build = resolve));
    let entered!: () => void;
    const building = new Promise<void>((resolve) => (entered = resolve));
    const process = fakeProcess(['--http', '0']);
    const done = runServerMain({
      name: 'slow',
      version: '1',
      usage: 'x',
      createServer: async () => {
        entered();
        await built;
        return httpServer();
      },
      process,
    });
    await building;
    process.signal('SIGTERM');
    build();
    expect(await done).toBe(0);
    expect(process.err()).toMatch(/slow: SIGTERM, shutting down\n[\s\S]*serving MCP on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  test('an address in use: cannot start, exit 1', async () => {
    const first = fakeProcess(['--http', '0']);
    const running = runServerMain({ name: 'a', version: '1', usage: 'x', createServer: httpServer, process: first });
    const port = await new Promise<string>((resolve) => {
      const check = (): void => {
        const match = /127\.0\.0\.1:(\d+)\//.exec(first.err());
        if (match) resolve(match[1]!);
        else first.stderr.once('data', check);
      };
      check();
    });
    const second = fakeProcess(['--http', port]);
    expect(await runServerMain({ name: 'b', version: '1', usage: 'x', createServer: httpServer, process: second })).toBe(1);
    expect(second.err()).toMatch(/b: cannot start: .*EADDRINUSE/);
    first.signal('SIGTERM');
    expect(await running).toBe(0);
  });
});

describe('--redis', () => {
  test('a Redis that cannot be reached: cannot start, exit 1, the URL named without its password', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    const process = fakeProcess(['--http', '0', '--redis', `redis://user:secret@127.0.0.1:${port}`]);
    expect(await runServerMain({ name: 'r', version: '1', usage: 'x', createServer: httpServer, process })).toBe(1);
    expect(process.err()).toMatch(new RegExp(`r: cannot start: cannot reach Redis at redis://\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
    expect(process.err()).not.toContain('secret');
  });

  test('a real Redis: createServer gets the shared task store, and a task it keeps is in Redis for every process', async () => {
    const { startTestRedis } = await import('../../redis/test/redis-server.test-util.js');
    const { connectRedisState } = await import('@wiremcp/redis');
    const redis = await startTestRedis();
    const other = await connectRedisState({ url: redis.url, onError: () => {} });
    try {
      const process = fakeProcess(['--http', '127.0.0.1:0', '--redis', redis.url]);
      let store: TaskStore | undefined;
      const done = runServerMain({
        name: 'r',
        version: '1',
        usage: 'x',
        createServer: (_args, context) => {
          store = context.tasks?.store;
          return new McpServer({ name: 'r', version: '1' }, context.tasks === undefined ? {} : { tasks: context.tasks });
        },
        process,
      });
      await new Promise<void>((resolve) => {
        const check = (): void => (/serving MCP on/.test(process.err()) ? resolve() : void process.stderr.once('data', check));
        check();
      });
      expect(process.err()).toContain('state in Redis');
      const now = new Date().toISOString();
      await store!.create({
        taskId: 'e2e',
        era: 'modern',
        method: 'tools/call',
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 60_000,
      });
      expect(await other.taskStore.get('e2e')).toMatchObject({ taskId: 'e2e', status: 'working' });
      process.signal('SIGTERM');
      expect(await done).toBe(0);
    } finally {
      await other.close();
      await redis.stop();
    }
  }, 120_000);

  test('/readyz stays 200 while Redis holds back the commands in flight (writes paused, as in a failover); 503 while Redis hangs or is gone', async () => {
    const { startTestRedis } = await import('../../redis/test/redis-server.test-util.js');
    const { connectRedisState } = await import('@wiremcp/redis');
    const redis = await startTestRedis();
    const admin = await connectRedisState({ url: redis.url, onError: () => {} });
    const process = fakeProcess(['--http', '127.0.0.1:0', '--redis', redis.url, '--health']);
    const done = runServerMain({ name: 'r', version: '1', usage: 'x', createServer: httpServer, process });
    let paused = false;
    let terminated = false;
    try {
      const url = new URL(
        await new Promise<string>((resolve) => {
          const check = (): void => {
            const match = /serving MCP on (http:\/\/\S+)/.exec(process.err());
            if (match) resolve(match[1]!);
            else process.stderr.once('data', check);
          };
          check();
        }),
      );
      const readyz = async () => {
        const response = await fetch(new URL('/readyz', url));
        return { status: response.status, body: (await response.json()) as unknown };
      };
      /** Probes until `/readyz` answers `status` (a check is reused for 1 s; bounded). */
      const until = async (status: number) => {
        for (let attempt = 0; ; attempt += 1) {
          const answer = await readyz();
          if (answer.status === status || attempt > 100) return answer;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await admin.client.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      paused = true;
      // A burst of new sessions: the server writes each one's state on its command connection, where Redis holds it.
      const burst = Array.from({ length: 5 }, (_, id) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }),
        }).then((response) => response.status),
      );
      for (let attempt = 0; !/^blocked_clients:[1-9]/m.test(await admin.client.info('clients')); attempt += 1) {
        if (attempt > 500) throw new Error('Redis never held the server’s writes back');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ok' } });
      await admin.client.call('CLIENT', 'UNPAUSE');
      paused = false;
      // Each session was opened, or refused 503 once its write timed out: answered, never hung.
      for (const status of await Promise.all(burst)) expect([200, 503]).toContain(status);
      redis.pause();
      try {
        expect(await until(503)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'redis unreachable' } });
      } finally {
        redis.resume();
      }
      expect(await until(200)).toEqual({ status: 200, body: { status: 'ok' } });
      await admin.close();
      await redis.stop();
      expect(await until(503)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'redis unreachable' } });
      terminated = true;
      process.signal('SIGTERM');
      expect(await done).toBe(0);
    } finally {
      if (paused) await admin.client.call('CLIENT', 'UNPAUSE');
      if (!terminated) {
        process.signal('SIGTERM');
        await done;
      }
      await admin.close();
      await redis.stop();
    }
  }, 120_000);
});
