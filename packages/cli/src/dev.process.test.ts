/**
 * `wiremcp dev`: a client connected through it sees a new tool after the server's file is edited, without
 * reconnecting; a syntax error is reported and the old server keeps answering; everything started is stopped.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { WIREMCP } from './cli.test-util.js';
import { gone, PACKAGE, serverSource, waitFor } from './dev.test-util.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const pidOf = async (client: McpClient): Promise<number> =>
  Number(((await client.callTool('pid', {})).content[0] as { text: string }).text);

test.each([['legacy'], ['modern']] as const)(
  '%s client: an edit restarts the server, the client sees the new tool; a syntax error keeps the old one serving',
  async (era) => {
    const dir = mkdtempSync(join(PACKAGE, '.dev-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const entry = join(dir, 'server.ts');
    writeFileSync(entry, serverSource({ tools: ['first'] }));

    const transport = new StdioClientTransport({ command: process.execPath, args: [WIREMCP, 'dev', entry], stderr: 'pipe' });
    const client = new McpClient({ name: 'dev-test-client', version: '1.0.0' }, { era });
    cleanups.push(() => client.close());
    let stderr = '';
    const listeners = new Set<() => void>();
    await client.connect(transport);
    transport.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (const listener of listeners) listener();
    });
    const seen = (predicate: (text: string) => boolean): Promise<void> =>
      waitFor(
        () => stderr,
        (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        predicate,
      );
    let changes = 0;
    const changed = new Set<() => void>();
    // Modern: through a listen stream the client opens; ready once it is open.
    await client.onToolsListChanged(() => {
      changes += 1;
      for (const listener of changed) listener();
    }).ready;

    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['pid', 'first']);
    const firstPid = await pidOf(client);

    const notified = new Promise<void>((resolve) => changed.add(resolve));
    writeFileSync(entry, serverSource({ tools: ['first', 'second'] }));
    await notified;
    expect(changes).toBe(1);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['pid', 'first', 'second']);
    expect((await client.callTool('second', {})).content).toEqual([{ type: 'text', text: 'second' }]);
    const secondPid = await pidOf(client);
    expect(secondPid).not.toBe(firstPid);
    expect(await gone(firstPid)).toBe(true);
    await seen((text) => /restarted \(3 tools\)/.test(text));

    writeFileSync(entry, serverSource({ tools: ['first', 'second', 'third'], broken: true }));
    await seen((text) => /the build failed; the running server keeps serving\n[\s\S]*server\.ts:\d+:\d+/.test(text));
    expect(await pidOf(client)).toBe(secondPid);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['pid', 'first', 'second']);
    expect(changes).toBe(1);

    await client.close();
    expect(await gone(secondPid)).toBe(true);
    // The bundle's directory goes with it (closing the transport waits for the dev process to exit).
    expect(existsSync(join(dir, '.wiremcp-dev'))).toBe(false);
  },
  90_000,
);
