import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClient } from '@wiremcp/client';
import { afterEach, describe, expect, test } from 'vitest';
import { httpTransportFactory } from '../client/http-transport-factory.js';
import { testHandler } from '../server/http.test-util.js';
import { listen } from './listen.js';
import { nodeFetch } from './node-fetch.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wiremcp-unix-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('Streamable HTTP over a Unix domain socket', () => {
  test.each(['modern', 'legacy'] as const)('the %s era: the client dials the socket (mode 0600); closing removes it', async (era) => {
    const socketPath = join(scratch(), 'mcp.sock');
    const listening = await listen(testHandler().handler, { socketPath });
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(listening.url.href).toBe('http://localhost/mcp');
    const fetch = nodeFetch({ socketPath });
    const client = new McpClient({ name: 'unix', version: '1.0.0' }, { era });
    await client.connect(httpTransportFactory(listening.url, { fetch, standaloneStream: false }));
    expect(client.era).toBe(era);
    expect((await client.callTool('echo', { text: 'over a socket file' })).content).toEqual([{ type: 'text', text: 'over a socket file' }]);
    await client.close();
    fetch.close();
    await listening.close();
    expect(() => statSync(socketPath)).toThrow(/ENOENT/);
  });

  test('a stale socket file (its server died) is replaced; a live one and a regular file are errors', async () => {
    const dir = scratch();
    const stale = join(dir, 'stale.sock');
    // A socket file nobody accepts on: a server process bound it and was killed (SIGKILL) before it could unlink it.
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`,
    ]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(statSync(stale).isSocket()).toBe(true);
    const listening = await listen(testHandler().handler, { socketPath: stale });
    cleanups.push(() => listening.close());
    await expect(listen(testHandler().handler, { socketPath: stale })).rejects.toThrow(/in use by another server/);
    const regular = join(dir, 'file.sock');
    writeFileSync(regular, 'keep me');
    await expect(listen(testHandler().handler, { socketPath: regular })).rejects.toThrow(/not a socket/);
    expect(statSync(regular).isFile()).toBe(true);
  });
});
