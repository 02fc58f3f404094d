import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FileAuthStore } from './file-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wiremcp-auth-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('FileAuthStore', () => {
  test('keeps clients by issuer and tokens by server, in a file only the user can read', async () => {
    const path = join(dir, 'nested', 'auth.json');
    const store = new FileAuthStore(path);
    expect(await store.loadTokens('https://mcp.example.com/mcp')).toBeUndefined();
    await Promise.all([
      store.saveClient('https://as.example.com', { clientId: 'c1', tokenEndpointAuthMethod: 'none', kind: 'dynamic' }),
      store.saveTokens('https://mcp.example.com/mcp', {
        issuer: 'https://as.example.com',
        clientId: 'c1',
        accessToken: 'a',
        tokenType: 'bearer',
      }),
      store.saveClient('https://other.example.com', { clientId: 'c2', tokenEndpointAuthMethod: 'none', kind: 'dynamic' }),
    ]);
    const again = new FileAuthStore(path);
    expect((await again.loadClient('https://as.example.com'))?.clientId).toBe('c1');
    expect((await again.loadClient('https://other.example.com'))?.clientId).toBe('c2');
    expect((await again.loadTokens('https://mcp.example.com/mcp'))?.accessToken).toBe('a');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await again.deleteTokens('https://mcp.example.com/mcp');
    await again.deleteClient('https://other.example.com');
    const contents = JSON.parse(await readFile(path, 'utf8')) as { clients: object; tokens: object };
    expect(Object.keys(contents.clients)).toEqual(['https://as.example.com']);
    expect(contents.tokens).toEqual({});
  });

  test('a corrupt file is a storage_failed error, not a crash or a silent reset', async () => {
    const path = join(dir, 'auth.json');
    await writeFile(path, '{ not json');
    await expect(new FileAuthStore(path).loadClient('x')).rejects.toMatchObject({ code: 'storage_failed' });
    await writeFile(path, JSON.stringify({ version: 2 }));
    await expect(new FileAuthStore(path).loadTokens('x')).rejects.toMatchObject({ code: 'storage_failed' });
  });
});
