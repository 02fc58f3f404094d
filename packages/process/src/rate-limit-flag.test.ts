// `--rate-limit` and `--rate-limit-by`: bad values are usage errors with examples (never echoing a long value whole);
// good ones install the limiter on the server, which refuses past the limit over HTTP (429 + Retry-After, both eras)
// and over stdio (-32029 with a retry hint); a server without `use` cannot start.
import { McpServer } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { fakeProcess, type FakeProcess } from './main-process.test-util.js';
import { formatUsage, parseServerArgs } from './parse-server-args.js';
import { runServerMain } from './run-server-main.js';

describe('the command line', () => {
  test('absent: no limiter; rules from every --rate-limit, by principal unless told', () => {
    expect(parseServerArgs(['--http', '1'])).not.toHaveProperty('rateLimit');
    expect(parseServerArgs(['--rate-limit', 'tools/call=10/s,*=100/m', '--rate-limit', 'tools/call:search=2/5s'])).toMatchObject({
      kind: 'run',
      rateLimit: {
        by: 'principal',
        rules: [
          { method: 'tools/call', capacity: 10, periodMs: 1000 },
          { method: '*', capacity: 100, periodMs: 60_000 },
          { method: 'tools/call', name: 'search', capacity: 2, periodMs: 5000 },
        ],
      },
    });
    expect(parseServerArgs(['--rate-limit', 'ping=1/s', '--rate-limit-by', 'address'])).toMatchObject({ rateLimit: { by: 'address' } });
  });

  test('bad values: usage errors naming the problem, with examples, the value cut short', () => {
    expect(parseServerArgs(['--rate-limit-by', 'session'])).toEqual({
      kind: 'error',
      message: '--rate-limit-by applies to --rate-limit only',
    });
    expect(parseServerArgs(['--rate-limit', 'ping=1/s', '--rate-limit-by', 'ip'])).toEqual({
      kind: 'error',
      message: '--rate-limit-by must be principal, session or address, got "ip"',
    });
    for (const bad of ['tools/call', 'tools/call=ten/s', 'tools/call=10/w', '=1/s', '*:x=1/s', 'tools/call=0/s']) {
      const parsed = parseServerArgs(['--rate-limit', bad]);
      expect(parsed).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--rate-limit: bad rate limit '/) });
      expect((parsed as { message: string }).message).toContain('e.g. tools/call=10/s');
    }
    const long = `tools/call=${'9'.repeat(5000)}/s`;
    const parsed = parseServerArgs(['--rate-limit', long]) as { kind: string; message: string };
    expect(parsed.kind).toBe('error');
    expect(parsed.message.length).toBeLessThan(400);
  });

  test('the usage names both flags with an example', () => {
    const usage = formatUsage('x', 'A server.');
    expect(usage).toContain('  --rate-limit METHOD[:NAME]=COUNT/UNIT[,…]\n');
    expect(usage).toContain('e.g. tools/call=10/s');
    expect(usage).toContain('  --rate-limit-by principal|session|address\n');
  });
});

function echoServer(): McpServer {
  const server = new McpServer({ name: 'limited', version: '1.0.0' }, { onInternalError: () => {} });
  server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return server;
}

function serving(process: FakeProcess): Promise<URL> {
  return new Promise((resolve) => {
    const check = (): void => {
      const match = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(process.err());
      if (match) resolve(new URL(match[1]!));
      else process.stderr.once('data', check);
    };
    check();
  });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = 'application/json, text/event-stream';
const call = (id: number, meta?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {}, ...(meta ? { _meta: meta } : {}) } });

describe('served', () => {
  test('over HTTP: two calls a minute, the third refused with 429 and Retry-After, in both eras (one bucket)', async () => {
    const process = fakeProcess(['--http', '127.0.0.1:0', '--rate-limit', 'tools/call=2/m']);
    const done = runServerMain({ name: 'limited', version: '1', usage: 'x', createServer: echoServer, process });
    try {
      const url = await serving(process);
      const modern = (id: number) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'echo',
          },
          body: call(id, META),
        });
      expect((await modern(1)).status).toBe(200);
      const init = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
      });
      await init.text();
      const session = {
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-session-id': init.headers.get('mcp-session-id')!,
        'mcp-protocol-version': '2025-11-25',
      };
      await (
        await fetch(url, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).text();
      expect((await fetch(url, { method: 'POST', headers: session, body: call(2) })).status).toBe(200);
      for (const refused of [await modern(3), await fetch(url, { method: 'POST', headers: session, body: call(4) })]) {
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await refused.json()).toMatchObject({ error: { code: -32029, data: { limit: 'tools/call=2/60000ms' } } });
      }
    } finally {
      process.signal('SIGTERM');
      expect(await done).toBe(0);
    }
  });

  test('over stdio: the refused request gets -32029 with retryAfterMs', async () => {
    const process = fakeProcess(['--rate-limit', 'tools/call=1/h']);
    const done = runServerMain({ name: 'limited', version: '1', usage: 'x', createServer: echoServer, process });
    process.stdin.write(`${call(1, META)}\n${call(2, META)}\n`);
    // Both answers, in whichever order they come (the refusal needs no tool run).
    await process.untilOut(/"id":[12][^\n]*\n[^\n]*"id":[12]/);
    const answers = process
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result?: unknown; error?: { code: number; data: { retryAfterMs: number } } });
    expect(answers.find((a) => a.id === 1)?.result).toBeDefined();
    const refused = answers.find((a) => a.id === 2)!;
    expect(refused.error?.code).toBe(-32029);
    expect(refused.error?.data.retryAfterMs).toBeGreaterThan(0);
    process.stdin.end();
    expect(await done).toBe(0);
  });

  test('a server that takes no middleware cannot start (exit 1)', async () => {
    const process = fakeProcess(['--rate-limit', 'ping=1/s']);
    const server = { connect: async () => ({ close: async () => {} }) };
    expect(await runServerMain({ name: 'plain', version: '1', usage: 'x', createServer: () => server, process })).toBe(1);
    expect(process.err()).toContain('plain: cannot start: --rate-limit needs a server that takes middleware');
  });
});
