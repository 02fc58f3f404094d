import { expect, test } from 'vitest';
import { parseStdioServerArgs } from './stdio-server-cli.js';

test('defaults to auto framing; accepts both flag spellings and extra flags', () => {
  expect(parseStdioServerArgs([])).toEqual({ kind: 'run', framing: 'auto', values: {} });
  expect(parseStdioServerArgs(['--framing', 'content-length', '--table=x.yaml'], { table: { type: 'string' } })).toEqual({
    kind: 'run',
    framing: 'content-length',
    values: { framing: 'content-length', table: 'x.yaml' },
  });
});

test('help wins; bad framing, unknown flags and positionals are usage errors naming the problem', () => {
  expect(parseStdioServerArgs(['--framing', 'ndjson', '-h'])).toEqual({ kind: 'help' });
  expect(parseStdioServerArgs(['--framing', 'xml'])).toEqual({
    kind: 'error',
    message: '--framing must be one of ndjson, content-length, auto, got "xml"',
  });
  expect(parseStdioServerArgs(['--framing'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--framing') });
  expect(parseStdioServerArgs(['--verbose'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--verbose') });
  expect(parseStdioServerArgs(['stdio'])).toMatchObject({ kind: 'error', message: expect.stringContaining('stdio') });
});
