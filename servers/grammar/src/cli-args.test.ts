import { parseServerArgs } from '@wiremcp/process';
import { expect, test } from 'vitest';
import { OPTIONS, parseCliArgs } from './cli-args.js';

const parse = (argv: string[]) => parseServerArgs(argv, { options: OPTIONS, parseArgs: parseCliArgs });

test('the bundled table by default; --table in both spellings', () => {
  expect(parse([])).toMatchObject({ kind: 'run', args: { table: undefined } });
  expect(parse(['--table', 'x.yaml', '--framing', 'ndjson'])).toMatchObject({
    args: { table: 'x.yaml' },
    target: { description: 'stdio (framing: ndjson)' },
  });
  expect(parse(['--table=y.yaml'])).toMatchObject({ args: { table: 'y.yaml' } });
});

test('an empty file name and unknown flags are usage errors', () => {
  expect(parse(['--table='])).toEqual({ kind: 'error', message: '--table needs a file name' });
  expect(parse(['--tables', 'x'])).toEqual({ kind: 'error', message: "unknown option '--tables'" });
});
