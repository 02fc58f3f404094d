/**
 * `McpHost` lifecycle against real processes: concurrent start, a server that exits at start and one that hangs
 * (neither holds the others back; both end `failed` after their retries), a server killed while ready (restarted, its
 * tools back), an HTTP server that goes away and comes back (reconnected), secrets kept out of failures, and nothing
 * left behind by `close()`.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { isHostError } from './host-error.js';
import { McpHost } from './mcp-host.js';
import { formatStatusTable } from './status-table.js';
import {
  BINS,
  configOf,
  EXITS_AT_START,
  expectNoLeak,
  HANGS,
  kill,
  node,
  pidsOf,
  resources,
  startHttpServer,
  stateOf,
} from './host.test-util.js';

const hosts: McpHost[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(children.splice(0).map(kill));
});

function track(host: McpHost): McpHost {
  hosts.push(host);
  return host;
}

const FAST_RETRIES = { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 2 };

describe('start, failures and close', () => {
  test('every server at once; one exiting at start and one hanging do not hold the others back; nothing leaks', async () => {
    const before = resources();
    const config = await configOf({
      grammar: node(BINS.grammar),
      everything: node(BINS.everything),
      exits: EXITS_AT_START,
      hangs: { ...HANGS, connectTimeoutMs: 800 },
      off: { ...node(BINS.grammar), disabled: true },
    });
    const host = track(new McpHost(config, { restart: FAST_RETRIES }));
    const failed = Promise.all([stateOf(host, 'exits', 'failed'), stateOf(host, 'hangs', 'failed')]);
    await host.start();
    await failed;
    const rows = Object.fromEntries(host.status().map((row) => [row.name, row]));
    expect(rows.grammar).toMatchObject({ state: 'ready', transport: 'stdio', connectedOver: 'stdio', era: 'modern', counts: { tools: 4 } });
    expect(rows.everything!.state).toBe('ready');
    expect(rows.exits).toMatchObject({ state: 'failed', failures: 2 });
    expect(rows.exits!.lastError).toMatch(/exited with code 3/);
    expect(rows.hangs).toMatchObject({ state: 'failed', failures: 2 });
    expect(rows.hangs!.lastError).toMatch(/did not connect within 800 ms/);
    expect(rows.off!.state).toBe('disabled');
    const names = host.catalogue.tools().map((t) => t.name);
    expect(names).toContain('grammar.lookup_spanish');
    expect(names).toContain('everything.test_simple_text');
    expect(names.every((name) => name.startsWith('grammar.') || name.startsWith('everything.'))).toBe(true);
    expect(formatStatusTable(host.status())).toMatch(/^SERVER\s+STATE\s+TRANSPORT[\s\S]*\nexits\s+failed\s+stdio/m);

    const pids = pidsOf(host);
    expect(pids).toHaveLength(2);
    await host.close();
    expect(host.status().every((row) => row.state === 'closed')).toBe(true);
    await expect(host.callTool('grammar.lookup_spanish', {})).rejects.toSatisfy((e) => isHostError(e, 'HOST_CLOSED'));
    await expectNoLeak(before, pids);
  });

  test('a ready server that dies is restarted, and its tools come back', async () => {
    const host = track(new McpHost(await configOf({ grammar: node(BINS.grammar) }), { restart: FAST_RETRIES }));
    await host.start();
    const [first] = pidsOf(host);
    const back = stateOf(host, 'grammar', 'retrying').then(() => stateOf(host, 'grammar', 'ready'));
    process.kill(first!, 'SIGKILL');
    await back;
    const row = host.status()[0]!;
    expect(row).toMatchObject({ state: 'ready', restarts: 1, failures: 0 });
    expect(row.pid).not.toBe(first);
    const result = await host.callTool('grammar.lookup_spanish', { english_form: 'ate' });
    expect(result.content).toEqual([{ type: 'text', text: 'comió' }]);
  });

  test('a call to a server that is not ready says which server and why', async () => {
    const host = track(new McpHost(await configOf({ exits: EXITS_AT_START }), { restart: { maxAttempts: 1 } }));
    await host.start();
    const error = await host.callTool('exits.anything', {}).catch((e: unknown) => e);
    expect(isHostError(error, 'SERVER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/^server "exits" is failed: Server process .* exited with code 3/);
    await expect(host.callTool('nobody.tool', {})).rejects.toSatisfy((e) => isHostError(e, 'UNKNOWN_NAME'));
  });

  test('restart() stops the process and starts a new one', async () => {
    const host = track(new McpHost(await configOf({ grammar: node(BINS.grammar) })));
    await host.start();
    const [first] = pidsOf(host);
    await host.restart('grammar');
    expect(host.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
    expect(() => process.kill(first!, 0)).toThrow();
  });

  test('no configured secret appears in a failure, the status table, or an event', async () => {
    const secret = 'tok-9f8e7d6c5b4a';
    const config = await configOf(
      { leaky: node('-e', 'console.error(process.argv[1]); process.exit(2)', '${env:MY_SECRET}') },
      { MY_SECRET: secret },
    );
    const host = track(new McpHost(config, { restart: { maxAttempts: 1 } }));
    const seen: string[] = [];
    host.on('state', (e) => seen.push(e.error ?? ''));
    await host.start();
    const row = host.status()[0]!;
    expect(row.lastError).toMatch(/exited with code 2/);
    expect(row.lastError).toContain('[redacted]');
    expect(JSON.stringify([row, seen, formatStatusTable(host.status())])).not.toContain(secret);
  });
});

describe('over HTTP', () => {
  test('a server that goes away is reconnected when it comes back', async () => {
    const first = await startHttpServer(BINS.grammar);
    children.push(first.child);
    const host = track(
      new McpHost(await configOf({ grammar: { type: 'http', url: first.url } }), { restart: { initialDelayMs: 50, maxAttempts: 50 } }),
    );
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'ready', transport: 'http', connectedOver: 'modern', era: 'modern' });
    await kill(first.child);
    // 2026-07-28 HTTP is stateless: the host learns of the loss from the next call.
    const lost = stateOf(host, 'grammar', 'retrying');
    await expect(host.callTool('grammar.lookup_spanish', { english_form: 'ate' })).rejects.toSatisfy(
      (e) => (e as { code?: string }).code === 'SEND_FAILED',
    );
    await lost;
    const again = await startHttpServer(BINS.grammar, first.port);
    children.push(again.child);
    await stateOf(host, 'grammar', 'ready');
    expect(host.status()[0]!.restarts).toBe(1);
    const result = await host.callTool('grammar.lookup_spanish', { english_form: 'ate' });
    expect(result.content).toEqual([{ type: 'text', text: 'comió' }]);
  });

  test('HTTP+SSE (type "sse") reaches the 2024-11-05 endpoints, and only those', async () => {
    const server = await startHttpServer(BINS.grammar, 0, ['--legacy-sse']);
    children.push(server.child);
    const plain = await startHttpServer(BINS.grammar);
    children.push(plain.child);
    const sse = new URL('/sse', server.url).href;
    // `plain` serves no HTTP+SSE endpoints: a `sse` server there fails rather than falling back to another transport.
    const config = await configOf({ old: { type: 'sse', url: sse }, wrong: { type: 'sse', url: plain.url } });
    const host = track(new McpHost(config, { restart: { maxAttempts: 1 } }));
    await host.start();
    expect(host.status()[0]).toMatchObject({
      state: 'ready',
      transport: 'sse',
      connectedOver: 'sse',
      era: 'legacy',
    });
    expect(host.status()[1]).toMatchObject({ state: 'failed', transport: 'sse' });
    expect((await host.callTool('old.lookup_spanish', { english_form: 'ate' })).content).toEqual([{ type: 'text', text: 'comió' }]);
  });
});
