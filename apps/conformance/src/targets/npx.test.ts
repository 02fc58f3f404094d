import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { binFromPath, parseNpx } from './npx.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('an npx command line', () => {
  test('the package and the arguments after it; flags npx takes before the package', () => {
    expect(parseNpx(['npx', '-y', '@modelcontextprotocol/server-everything', 'stdio'])).toEqual({
      spec: '@modelcontextprotocol/server-everything',
      name: '@modelcontextprotocol/server-everything',
      args: ['stdio'],
    });
    expect(parseNpx(['/usr/bin/npx', '--yes', 'server-x@1.2.3', '--root', '/tmp'])).toEqual({
      spec: 'server-x@1.2.3',
      name: 'server-x',
      args: ['--root', '/tmp'],
    });
    expect(parseNpx(['npx', '-y', '@scope/pkg@2026.8.31'])).toMatchObject({ name: '@scope/pkg', args: [] });
  });

  test('anything else is left as it is', () => {
    expect(parseNpx(['node', 'server.js'])).toBeUndefined();
    expect(parseNpx(['npx', '-p', 'pkg', 'other-bin'])).toBeUndefined();
    expect(parseNpx(['npx', '-c', 'echo hi'])).toBeUndefined();
    expect(parseNpx(['npx'])).toBeUndefined();
    expect(parseNpx(['npx', './local-dir'])).toBeUndefined();
  });
});

describe('the installed bin, from the PATH npm exec gives its command', () => {
  function install(pkg: string, bin: unknown): string {
    dir = mkdtempSync(join(tmpdir(), 'npx-test-'));
    const modules = join(dir, '_npx', 'abc', 'node_modules');
    mkdirSync(join(modules, pkg), { recursive: true });
    mkdirSync(join(modules, '.bin'));
    writeFileSync(join(modules, pkg, 'package.json'), JSON.stringify({ name: pkg, bin }));
    writeFileSync(join(modules, pkg, 'cli.js'), '');
    for (const name of typeof bin === 'string' ? [pkg.split('/').pop()!] : Object.keys(bin as object))
      symlinkSync(join(modules, pkg, 'cli.js'), join(modules, '.bin', name));
    return join(modules, '.bin');
  }

  test('a single bin, a bin named after the package, or none to choose', () => {
    const bin = install('@scope/server-x', { 'mcp-server-x': 'cli.js' });
    const path = ['/work/node_modules/.bin', bin, '/usr/bin'].join(delimiter);
    expect(binFromPath(path, '@scope/server-x')).toBe(join(bin, 'mcp-server-x'));
    rmSync(dir!, { recursive: true, force: true });
    const named = install('server-y', { other: 'cli.js', 'server-y': 'cli.js' });
    expect(binFromPath(named, 'server-y')).toBe(join(named, 'server-y'));
    rmSync(dir!, { recursive: true, force: true });
    const ambiguous = install('server-z', { a: 'cli.js', b: 'cli.js' });
    expect(binFromPath(ambiguous, 'server-z')).toBeUndefined();
    expect(binFromPath('/usr/bin', 'server-z')).toBeUndefined();
  });
});
