/**
 * `wiremcp --config <file> inspect <server>`: a configured server becomes the inspector's target with its own
 * command, arguments, variables and working directory (or URL and headers), named by its configured name only; a
 * wrong name, a disabled server, extra words and target flags are refused with a clear usage error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CliError } from '../exit-codes.js';
import { configTarget } from './config-target.js';

const dir = mkdtempSync(join(tmpdir(), 'wiremcp-config-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'mcp.json');
writeFileSync(
  file,
  JSON.stringify({
    mcpServers: {
      files: { type: 'stdio', command: 'node', args: ['server.js', '--token', '${input:token}'], env: { API_KEY: 'k1' }, cwd: dir },
      remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t1' } },
      off: { type: 'stdio', command: 'node', disabled: true },
    },
  }),
);
const warnings: string[] = [];
const base = { files: [file], inputs: ['token=s3cret'], cwd: dir, warn: (text: string) => void warnings.push(text), options: {} };

describe('configTarget', () => {
  test('a stdio server: command, arguments with inputs resolved, variables and cwd; named without its secrets', async () => {
    const chosen = await configTarget({ ...base, words: ['files'], options: { timeoutMs: 5000 } });
    expect(chosen.target).toEqual({ kind: 'stdio', command: 'node', args: ['server.js', '--token', 's3cret'] });
    expect(chosen.options).toEqual({ timeoutMs: 5000, env: ['API_KEY=k1'], cwd: dir });
    expect(chosen.label).toBe(`files (${file})`);
    expect(chosen.label).not.toContain('s3cret');
  });

  test('an HTTP server: its URL and headers', async () => {
    const chosen = await configTarget({ ...base, words: ['remote'] });
    expect(chosen.target).toEqual({ kind: 'http', url: new URL('http://127.0.0.1:9/mcp') });
    expect(chosen.options.headers).toEqual(['Authorization: Bearer t1']);
  });

  test('refusals: an unknown name (the configured ones listed), a disabled server, extra words, target flags', async () => {
    await expect(configTarget({ ...base, words: ['nope'] })).rejects.toThrow(
      `no server named "nope" in ${file} (configured: files, remote, off)`,
    );
    await expect(configTarget({ ...base, words: ['off'] })).rejects.toThrow(/disabled/);
    await expect(configTarget({ ...base, words: ['files', 'extra'] })).rejects.toThrow(/the name of one configured server/);
    await expect(configTarget({ ...base, words: [] })).rejects.toThrow(CliError);
    await expect(configTarget({ ...base, words: ['files'], options: { headers: ['A: b'] } })).rejects.toThrow(
      /--header applies to a target/,
    );
    await expect(configTarget({ ...base, words: ['files'], options: { env: ['A=b'] } })).rejects.toThrow(/--env applies to a target/);
  });
});
