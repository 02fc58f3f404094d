import { describe, expect, test } from 'vitest';
import { formatUsage, parseServerArgs } from './parse-server-args.js';
import { UsageError, type FlagValues } from './server-flags.js';

const spec = {
  options: { table: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } } as const,
  parseArgs: (values: FlagValues) => {
    if (values.table === '') throw new UsageError('--table needs a file name');
    return { table: values.table, quiet: values.quiet === true };
  },
};

describe('parseServerArgs', () => {
  test('defaults: stdio with auto framing, the bin sees only its own flags', () => {
    let seen: FlagValues | undefined;
    const parsed = parseServerArgs(['--framing', 'ndjson', '-q'], {
      ...spec,
      parseArgs: (values) => {
        seen = values;
        return spec.parseArgs(values);
      },
    });
    expect(parsed).toMatchObject({
      kind: 'run',
      args: { table: undefined, quiet: true },
      target: { description: 'stdio (framing: ndjson)' },
    });
    expect(seen).toEqual({ quiet: true });
    expect(parseServerArgs([])).toMatchObject({ kind: 'run', args: undefined, target: { description: 'stdio (framing: auto)' } });
  });

  test('both spellings of a value; help and version win over everything else', () => {
    expect(parseServerArgs(['--table=a.yaml', '--framing=content-length'], spec)).toMatchObject({
      args: { table: 'a.yaml' },
      target: { description: 'stdio (framing: content-length)' },
    });
    expect(parseServerArgs(['--table', 'x', '-h'], spec)).toEqual({ kind: 'help' });
    expect(parseServerArgs(['--framing', 'xml', '--version'], spec)).toEqual({ kind: 'version' });
  });

  test('usage errors are one short line', () => {
    expect(parseServerArgs(['--nope'], spec)).toEqual({ kind: 'error', message: "unknown option '--nope'" });
    expect(parseServerArgs(['-x'], spec)).toEqual({ kind: 'error', message: "unknown option '-x'" });
    expect(parseServerArgs(['serve'], spec)).toEqual({ kind: 'error', message: "unexpected argument 'serve' (only options are accepted)" });
    expect(parseServerArgs(['--table'], spec)).toEqual({ kind: 'error', message: "Option '--table <value>' argument missing" });
    expect(parseServerArgs(['--table='], spec)).toEqual({ kind: 'error', message: '--table needs a file name' });
    expect(parseServerArgs(['--framing', ''], spec)).toEqual({
      kind: 'error',
      message: '--framing must be one of ndjson, content-length, auto, got ""',
    });
  });

  test('errors other than usage errors are bugs and propagate', () => {
    const broken = { parseArgs: () => JSON.parse('{') as unknown };
    expect(() => parseServerArgs([], broken)).toThrow(SyntaxError);
  });

  test('a bin cannot declare a flag every server owns', () => {
    expect(() => parseServerArgs([], { options: { framing: { type: 'string' } } })).toThrow(/--framing belongs to every server/);
    expect(() => parseServerArgs([], { options: { version: { type: 'boolean' } } })).toThrow(/--version/);
  });
});

describe('formatUsage', () => {
  test('synopsis, the bin text, then the shared options and the exit codes', () => {
    const text = formatUsage('my-server', 'Does things.\n\nOptions:\n  --table FILE  the table\n\n');
    expect(
      text.startsWith(
        'Usage: my-server [options]\n\nDoes things.\n\nOptions:\n  --table FILE  the table\n\nOptions of every wiremcp server:\n',
      ),
    ).toBe(true);
    expect(text).toContain('  --framing ndjson|content-length|auto\n');
    expect(text).toContain('  -h, --help');
    expect(text).toMatch(/Exit codes: 0 when stdin closes[\s\S]*\(130\/143\)\.\n$/);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(84);
  });
});
