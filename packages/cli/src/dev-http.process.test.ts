/**
 * `wiremcp dev --http`: clients connected by URL — a 2025-11-25 session and 2026-07-28 listen streams — stay
 * connected across restarts: the session is kept, the new tool is announced and callable, a resource subscription
 * is carried over to the new process, a change of capabilities is reported to the terminal and the clients, and
 * build errors reach the clients as log messages. Faults: the entry deleted while running (the old server keeps
 * serving until the file is back), and a restarted server that no longer offers subscriptions.
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpClient, type EraPreference, type LoggingMessageParams } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { afterEach, expect, test } from 'vitest';
import { startHttp, stopAll, WIREMCP, type Started } from './cli.test-util.js';
import { gone, PACKAGE, serverSource, waitFor, type DevServerShape } from './dev.test-util.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stopAll();
});

/** A client that records every change it hears. */
interface Watched {
  readonly client: McpClient;
  readonly updates: string[];
  readonly logs: LoggingMessageParams[];
  /** Resolves at the next event of that kind. */
  next(kind: 'tools' | 'update' | 'log'): Promise<void>;
}

async function connect(url: string, era: EraPreference): Promise<Watched> {
  const client = new McpClient({ name: `dev-http-${era}`, version: '1.0.0' }, { era, onError: () => {} });
  cleanups.push(() => client.close().catch(() => {}));
  await client.connect(httpTransportFactory(new URL(url)));
  const waiting = new Map<string, Array<() => void>>();
  const fire = (kind: string): void => {
    for (const resolve of waiting.get(kind)?.splice(0) ?? []) resolve();
  };
  const watched: Watched = {
    client,
    updates: [],
    logs: [],
    next: (kind) => new Promise((resolve) => waiting.set(kind, [...(waiting.get(kind) ?? []), resolve])),
  };
  await client.onToolsListChanged(() => fire('tools')).ready;
  client.onResourceUpdated(({ uri }) => (watched.updates.push(uri), fire('update')));
  client.onLogMessage((params) => (watched.logs.push(params), fire('log')));
  return watched;
}

async function startDev(shape: DevServerShape): Promise<{ dev: Started; entry: string; seen(pattern: RegExp): Promise<void> }> {
  const dir = mkdtempSync(join(PACKAGE, '.dev-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const entry = join(dir, 'server.ts');
  writeFileSync(entry, serverSource(shape));
  const dev = await startHttp([WIREMCP, 'dev', '--http', '127.0.0.1:0', entry], 30_000);
  const seen = (pattern: RegExp): Promise<void> =>
    waitFor(
      dev.stderr,
      (listener) => {
        dev.child.stderr!.on('data', listener);
        return () => dev.child.stderr!.off('data', listener);
      },
      (text) => pattern.test(text),
    );
  return { dev, entry, seen };
}

const names = async (client: McpClient): Promise<string[]> => (await client.listAllTools()).map((tool) => tool.name);
const pidOf = async (client: McpClient): Promise<number> =>
  Number(((await client.callTool('pid', {})).content[0] as { text: string }).text);
const logText = (logs: readonly LoggingMessageParams[]): string =>
  logs.map((log) => `${log.level} ${String(log.logger)}: ${String(log.data)}`).join('\n');

/** Resolves once the client's log messages match `pattern`. */
async function logged(watched: Watched, pattern: RegExp): Promise<void> {
  while (!pattern.test(logText(watched.logs))) await watched.next('log');
}

test('an edit restarts the server; the session, the listen streams and the subscription carry over', { timeout: 90_000 }, async () => {
  const { dev, entry, seen } = await startDev({ tools: ['first'], note: true });
  expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const legacy = await connect(dev.url, 'legacy');
  const modern = await connect(dev.url, 'modern');
  expect([legacy.client.protocolVersion, modern.client.era]).toEqual(['2025-11-25', 'modern']);
  await legacy.client.subscribeResource('test://note');
  await modern.client.subscribeResource('test://note');
  const firstPid = await pidOf(legacy.client);

  const told = Promise.all([legacy.next('tools'), modern.next('tools')]);
  writeFileSync(entry, serverSource({ tools: ['first', 'second'], note: true, prompt: true }));
  await told;
  await seen(/restarted \(4 tools\); clients told the lists changed; 1 resource subscription\(s\) carried over/);
  for (const { client } of [legacy, modern]) {
    expect(await names(client)).toEqual(['pid', 'first', 'second', 'touch']);
    expect((await client.callTool('second', {})).content).toEqual([{ type: 'text', text: 'second' }]);
  }
  const secondPid = await pidOf(modern.client);
  expect(secondPid).not.toBe(firstPid);
  expect(await gone(firstPid)).toBe(true);

  // The new process sends the update only if it was subscribed again.
  const updated = Promise.all([legacy.next('update'), modern.next('update')]);
  await legacy.client.callTool('touch', {});
  await updated;
  expect([legacy.updates, modern.updates]).toEqual([['test://note'], ['test://note']]);

  // The prompt the new build adds is a capability the clients were not offered: said in the terminal and to them.
  await seen(/the server now declares prompts; connected clients keep the capabilities of the first start/);
  expect(legacy.client.serverCapabilities?.prompts).toBeUndefined();
  await logged(legacy, /warning wiremcp dev: .*now declares prompts/);

  // A build error reaches the legacy session as an error log; the old process keeps answering.
  writeFileSync(entry, serverSource({ tools: ['first', 'second'], note: true, prompt: true, broken: true }));
  await seen(/the build failed; the running server keeps serving\n[\s\S]*server\.ts:\d+:\d+/);
  await logged(legacy, /error wiremcp dev: the build failed[\s\S]*server\.ts:\d+:\d+/);
  expect(await pidOf(legacy.client)).toBe(secondPid);
  expect(await pidOf(modern.client)).toBe(secondPid);
});

test(
  'fault: the entry deleted while running — reported, the old server serves, the file back restarts it',
  { timeout: 90_000 },
  async () => {
    const { dev, entry, seen } = await startDev({ tools: ['first'] });
    const legacy = await connect(dev.url, 'legacy');
    const pid = await pidOf(legacy.client);

    unlinkSync(entry);
    await seen(/the build failed; the running server keeps serving\n[\s\S]*server\.ts/);
    expect(await pidOf(legacy.client)).toBe(pid);
    expect(await names(legacy.client)).toEqual(['pid', 'first']);

    const told = legacy.next('tools');
    writeFileSync(entry, serverSource({ tools: ['first', 'again'] }));
    await told;
    expect(await names(legacy.client)).toEqual(['pid', 'first', 'again']);
    expect(await pidOf(legacy.client)).not.toBe(pid);
  },
);

test('fault: a restarted server without subscriptions — the subscribers are told, not silently dropped', { timeout: 90_000 }, async () => {
  const { dev, entry, seen } = await startDev({ tools: ['first'], note: true });
  const legacy = await connect(dev.url, 'legacy');
  await legacy.client.subscribeResource('test://note');

  const told = legacy.next('tools');
  writeFileSync(entry, serverSource({ tools: ['first'] }));
  await told;
  await seen(/refused the subscription to test:\/\/note \(it no longer declares resources\.subscribe\)/);
  await seen(/no longer declares resources, resources\.subscribe/);
  await logged(legacy, /warning wiremcp dev: .*refused the subscription to test:\/\/note/);
});
