/**
 * The command line: directories, policies, sizes with suffixes, the transport choice, and readable errors.
 */
import { expect, test } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { DEFAULT_LIMITS } from '../src/config.js';

test('directories and defaults', () => {
  const parsed = parseCliArgs(['/a', '/b']);
  expect(parsed).toMatchObject({
    kind: 'run',
    target: { description: 'stdio (framing: auto)' },
    args: {
      directories: ['/a', '/b'],
      readOnly: false,
      allowDelete: false,
      deny: [],
      roots: 'intersect',
      rootsFallback: 'operator',
      writeMode: 'in-place',
      allowHardLinks: false,
      limits: DEFAULT_LIMITS,
    },
  });
});

test('policies, repeated deny globs, sizes with k/m suffixes', () => {
  const parsed = parseCliArgs([
    '--read-only',
    '--deny',
    '**/.env',
    '--deny=*.pem',
    '--roots',
    'replace',
    '--allow-hardlinks',
    '--write-mode',
    'atomic',
    '--roots-fallback',
    'refuse',
    '--max-read-bytes',
    '256k',
    '--max-response-bytes',
    '2m',
    '--time-budget-ms',
    '5000',
    '/w',
  ]);
  expect(parsed).toMatchObject({
    kind: 'run',
    args: {
      readOnly: true,
      deny: ['**/.env', '*.pem'],
      roots: 'replace',
      rootsFallback: 'refuse',
      writeMode: 'atomic',
      allowHardLinks: true,
      limits: { maxReadBytes: 262_144, maxResponseBytes: 2_097_152, timeBudgetMs: 5000 },
    },
  });
});

test('--http [host:]port selects Streamable HTTP (loopback by default); the directories stay positional', () => {
  expect(parseCliArgs(['--http', '3000', '/w'])).toMatchObject({
    kind: 'run',
    target: { description: 'http://127.0.0.1:3000/mcp' },
    args: { directories: ['/w'] },
  });
  expect(parseCliArgs(['/a', '--http', '0.0.0.0:8080', '--path', '/fs', '/b'])).toMatchObject({
    target: { description: 'http://0.0.0.0:8080/fs' },
    args: { directories: ['/a', '/b'] },
  });
  expect(parseCliArgs(['--http', 'nope', '/w'])).toMatchObject({ kind: 'error', message: expect.stringContaining('[host:]port') });
  expect(parseCliArgs(['--http', '3000', '--framing', 'ndjson', '/w'])).toEqual({
    kind: 'error',
    message: '--framing applies to stdio only',
  });
});

test('usage errors say what is wrong', () => {
  expect(parseCliArgs([])).toEqual({ kind: 'error', message: 'give at least one directory' });
  expect(parseCliArgs(['--roots', 'merge', '/w'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--roots must be') });
  expect(parseCliArgs(['--write-mode', 'copy', '/w'])).toMatchObject({
    kind: 'error',
    message: expect.stringContaining('--write-mode must be'),
  });
  expect(parseCliArgs(['--roots-fallback', 'x', '/w'])).toMatchObject({
    kind: 'error',
    message: expect.stringContaining('--roots-fallback'),
  });
  expect(parseCliArgs(['--max-read-bytes', '12x', '/w'])).toMatchObject({
    kind: 'error',
    message: expect.stringContaining('--max-read-bytes'),
  });
  expect(parseCliArgs(['--max-read-bytes', '8m', '--max-response-bytes', '4m', '/w'])).toMatchObject({ kind: 'error' });
  expect(parseCliArgs(['--read-only', '--allow-delete', '/w'])).toMatchObject({ kind: 'error' });
  expect(parseCliArgs(['--deny', ' ', '/w'])).toMatchObject({ kind: 'error', message: '--deny needs a glob' });
  expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
});
