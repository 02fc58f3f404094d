/**
 * `wiremcp dev`: a client connected through it sees a new tool after the server's file is edited, without
 * reconnecting; a syntax error is reported and the old server keeps answering; everything started is stopped.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { WIREMCP } from './cli.test-util.js';

// Under the package, so that the server's imports (@wiremcp/server, @wiremcp/process) resolve from its node_modules.
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server with the tool `pid` (its process id) and the tools named in `extra`; `broken` adds a syntax error. */
function serverSource(extra: readonly string[], broken = false): string {
  const tools = ['pid', ...extra]
    .map(
      (name) =>
        `  s.registerTool({ name: '${name}', inputSchema: { type: 'object' } } as const, () => ` +
        `({ content: [{ type: 'text', text: '${name === 'pid' ? "' + String(process.pid) + '" : name}' }] }));`,
    )
    .join('\n');
  return [
    "import { McpServer } from '@wiremcp/server';",
    "import { runServerMain } from '@wiremcp/process';",
    'const build = (): McpServer => {',
    "  const s = new McpServer({ name: 'dev-test', version: '1.0.0' });",
    tools,
    broken ? '  const = ;' : '',
    '  return s;',
    '};',
    "await runServerMain({ name: 'dev-test', version: '1.0.0', usage: '', createServer: () => build() });",
    '',
  ].join('\n');
}

/** Resolves when `predicate` holds for the text seen so far on `stream`; rejects after `ms`. */
function waitFor(
  read: () => string,
  onData: (listener: () => void) => () => void,
  predicate: (text: string) => boolean,
  ms = 30_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let off = (): void => {};
    const timer = setTimeout(() => {
      off();
      reject(new Error(`not seen in time; stderr so far:\n${read()}`));
    }, ms);
    const check = (): void => {
      if (!predicate(read())) return;
      clearTimeout(timer);
      off();
      resolve();
    };
    off = onData(check);
    check();
  });
}

/** Whether process `pid` is gone, waiting for it (bounded). */
async function gone(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 200; tries++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const pidOf = async (client: McpClient): Promise<number> =>
  Number(((await client.callTool('pid', {})).content[0] as { text: string }).text);

test.each([['legacy'], ['modern']] as const)(
  '%s client: an edit restarts the server, the client sees the new tool; a syntax error keeps the old one serving',
  async (era) => {
    const dir = mkdtempSync(join(PACKAGE, '.dev-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const entry = join(dir, 'server.ts');
    writeFileSync(entry, serverSource(['first']));

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
    writeFileSync(entry, serverSource(['first', 'second']));
    await notified;
    expect(changes).toBe(1);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['pid', 'first', 'second']);
    expect((await client.callTool('second', {})).content).toEqual([{ type: 'text', text: 'second' }]);
    const secondPid = await pidOf(client);
    expect(secondPid).not.toBe(firstPid);
    expect(await gone(firstPid)).toBe(true);
    await seen((text) => /restarted \(3 tools\)/.test(text));

    writeFileSync(entry, serverSource(['first', 'second', 'third'], true));
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
