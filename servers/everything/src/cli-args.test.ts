import { expect, test } from 'vitest';
import { parseCliArgs } from './cli-args.js';

test('defaults: auto framing, server page size', () => {
  expect(parseCliArgs([])).toEqual({ kind: 'run', options: { framing: 'auto', pageSize: undefined } });
});

test('--framing and --page-size, separate or with =', () => {
  expect(parseCliArgs(['--framing', 'content-length', '--page-size', '10'])).toEqual({
    kind: 'run',
    options: { framing: 'content-length', pageSize: 10 },
  });
  expect(parseCliArgs(['--framing=ndjson', '--page-size=3'])).toEqual({ kind: 'run', options: { framing: 'ndjson', pageSize: 3 } });
});

test('help', () => {
  expect(parseCliArgs(['--framing', 'auto', '-h'])).toEqual({ kind: 'help' });
  expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
});

test('errors name the problem', () => {
  expect(parseCliArgs(['--framing', 'xml'])).toEqual({
    kind: 'error',
    message: '--framing must be one of ndjson, content-length, auto, got "xml"',
  });
  expect(parseCliArgs(['--framing'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--framing') });
  expect(parseCliArgs(['--page-size', '0'])).toMatchObject({ kind: 'error', message: expect.stringContaining('positive integer') });
  expect(parseCliArgs(['--page-size', '1.5'])).toMatchObject({ kind: 'error' });
  expect(parseCliArgs(['stdio'])).toMatchObject({ kind: 'error', message: expect.stringContaining("'stdio'") });
  expect(parseCliArgs(['--verbose'])).toMatchObject({ kind: 'error', message: expect.stringContaining("'--verbose'") });
});
