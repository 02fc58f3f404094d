import { describe, expect, test } from 'vitest';
import { parseCliArgs } from './cli-args.js';

describe('command line', () => {
  test('defaults: stdio with detected framing, five per page, one tick per second', () => {
    expect(parseCliArgs([])).toEqual({ kind: 'run', options: { listen: { kind: 'stdio', framing: 'auto' }, pageSize: 5, tickMs: 1000 } });
  });

  test('every option, in both spellings', () => {
    expect(parseCliArgs(['--framing', 'content-length', '--page-size=50', '--tick-ms', '250'])).toEqual({
      kind: 'run',
      options: { listen: { kind: 'stdio', framing: 'content-length' }, pageSize: 50, tickMs: 250 },
    });
    expect(parseCliArgs(['-h'])).toEqual({ kind: 'help' });
  });

  test('bad values and unknown flags are usage errors', () => {
    expect(parseCliArgs(['--page-size', '0'])).toEqual({
      kind: 'error',
      message: '--page-size must be an integer from 1 to 1000, got "0"',
    });
    expect(parseCliArgs(['--tick-ms', '5'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--tick-ms must be an integer from 10/),
    });
    expect(parseCliArgs(['--tick-ms', '1e3'])).toMatchObject({ kind: 'error' });
    expect(parseCliArgs(['--framing', 'xml'])).toMatchObject({ kind: 'error' });
    expect(parseCliArgs(['--http', '8080'])).toMatchObject({ kind: 'error' });
    expect(parseCliArgs(['extra'])).toMatchObject({ kind: 'error' });
  });
});
