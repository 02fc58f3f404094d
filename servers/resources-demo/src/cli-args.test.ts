import { parseServerArgs } from '@wiremcp/process';
import { describe, expect, test } from 'vitest';
import { OPTIONS, parseCliArgs } from './cli-args.js';

const parse = (argv: string[]) => parseServerArgs(argv, { options: OPTIONS, parseArgs: parseCliArgs });

describe('command line', () => {
  test('defaults: stdio with detected framing, five per page, one tick per second', () => {
    expect(parse([])).toMatchObject({ kind: 'run', args: { pageSize: 5, tickMs: 1000 }, target: { description: 'stdio (framing: auto)' } });
  });

  test('every option, in both spellings', () => {
    expect(parse(['--framing', 'content-length', '--page-size=50', '--tick-ms', '250'])).toMatchObject({
      kind: 'run',
      args: { pageSize: 50, tickMs: 250 },
      target: { description: 'stdio (framing: content-length)' },
    });
    expect(parse(['-h'])).toEqual({ kind: 'help' });
  });

  test('--http serves Streamable HTTP on loopback by default', () => {
    expect(parse(['--http', '8080'])).toMatchObject({ kind: 'run', target: { description: 'http://127.0.0.1:8080/mcp' } });
  });

  test('bad values and unknown flags are usage errors', () => {
    expect(parse(['--page-size', '0'])).toEqual({ kind: 'error', message: '--page-size must be an integer from 1 to 1000, got "0"' });
    expect(parse(['--tick-ms', '5'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--tick-ms must be an integer from 10/),
    });
    expect(parse(['--tick-ms', '1e3'])).toMatchObject({ kind: 'error' });
    expect(parse(['--framing', 'xml'])).toMatchObject({ kind: 'error' });
    expect(parse(['--http', '99999'])).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--http needs \[host:\]port/) });
    expect(parse(['extra'])).toMatchObject({ kind: 'error' });
  });
});
