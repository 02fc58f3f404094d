import { parseServerArgs } from '@wiremcp/process';
import { expect, test } from 'vitest';
import { OPTIONS, parseCliArgs } from './cli-args.js';

/** The whole command line, as the bin parses it: the flags every server takes, then this server's. */
const parse = (argv: string[]) => parseServerArgs(argv, { options: OPTIONS, parseArgs: parseCliArgs });

test('defaults: auto framing, server page size', () => {
  expect(parse([])).toMatchObject({ kind: 'run', args: { pageSize: undefined }, target: { description: 'stdio (framing: auto)' } });
});

test('--framing and --page-size, separate or with =', () => {
  expect(parse(['--framing', 'content-length', '--page-size', '10'])).toMatchObject({
    kind: 'run',
    args: { pageSize: 10 },
    target: { description: 'stdio (framing: content-length)' },
  });
  expect(parse(['--framing=ndjson', '--page-size=3'])).toMatchObject({
    args: { pageSize: 3 },
    target: { description: 'stdio (framing: ndjson)' },
  });
});

test('help and version', () => {
  expect(parse(['--framing', 'auto', '-h'])).toEqual({ kind: 'help' });
  expect(parse(['--help'])).toEqual({ kind: 'help' });
  expect(parse(['--version'])).toEqual({ kind: 'version' });
});

test('errors name the problem', () => {
  expect(parse(['--framing', 'xml'])).toEqual({
    kind: 'error',
    message: '--framing must be one of ndjson, content-length, auto, got "xml"',
  });
  expect(parse(['--framing'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--framing') });
  expect(parse(['--page-size', '0'])).toEqual({ kind: 'error', message: '--page-size must be a positive integer, got "0"' });
  expect(parse(['--page-size', '1.5'])).toMatchObject({ kind: 'error', message: expect.stringContaining('"1.5"') });
  expect(parse(['stdio'])).toEqual({ kind: 'error', message: "unexpected argument 'stdio' (only options are accepted)" });
  expect(parse(['--verbose'])).toEqual({ kind: 'error', message: "unknown option '--verbose'" });
});
