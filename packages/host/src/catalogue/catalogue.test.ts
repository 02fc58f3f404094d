/**
 * The catalogue on its own: namespaced names with any separator, collisions resolved the same way whatever order the
 * servers answered in, allow/deny lists, resources found by URI or template.
 */
import type { Tool } from '@wiremcp/client';
import { describe, expect, test } from 'vitest';
import { Catalogue, templateMatches } from './catalogue.js';
import { namePredicate } from './name-filter.js';

const tools = (...names: string[]): Tool[] => names.map((name) => ({ name, inputSchema: { type: 'object' } }) as Tool);

describe('names', () => {
  test('server, separator, name; sorted by configuration order then name', () => {
    const catalogue = new Catalogue('__');
    catalogue.addServer('b', 0);
    catalogue.addServer('a', 1);
    catalogue.set('a', 'tools', tools('z', 'y'));
    catalogue.set('b', 'tools', tools('x'));
    expect(catalogue.tools().map((t) => t.name)).toEqual(['b__x', 'a__y', 'a__z']);
    expect(catalogue.tool('a__y')).toMatchObject({ server: 'a', tool: { name: 'y' } });
  });

  test('collisions: the server first in the configuration keeps the plain name, whatever order lists arrive in', () => {
    const build = (order: Array<'a' | 'a.b'>): string[] => {
      const catalogue = new Catalogue('.');
      catalogue.addServer('a', 0);
      catalogue.addServer('a.b', 1);
      const lists = { a: tools('b.c', 'b.c_2'), 'a.b': tools('c') };
      for (const server of order) catalogue.set(server, 'tools', lists[server]);
      return catalogue.tools().map((t) => `${t.server}:${t.tool.name}=${t.name}`);
    };
    const expected = ['a:b.c=a.b.c', 'a:b.c_2=a.b.c_2', 'a.b:c=a.b.c_3'];
    expect(build(['a', 'a.b'])).toEqual(expected);
    expect(build(['a.b', 'a'])).toEqual(expected);
  });

  test('an empty separator is refused', () => {
    expect(() => new Catalogue('')).toThrow(RangeError);
  });
});

describe('filters', () => {
  test('deny wins over allow; * and ? are wildcards; nothing else is special', () => {
    const allowed = namePredicate({ allow: ['read_*', 'get?'], deny: ['read_secret*'] });
    expect(['read_file', 'read_secret_key', 'gets', 'get', 'write', 'read.file'].filter(allowed)).toEqual(['read_file', 'gets']);
    expect(namePredicate({ allow: ['a.b'] })('aXb')).toBe(false);
    expect(namePredicate(undefined)('anything')).toBe(true);
  });

  test('per-server filters apply to tools, prompts and resources', () => {
    const catalogue = new Catalogue('.');
    catalogue.addServer('s', 0, { tools: { deny: ['rm'] }, resources: { allow: ['file:///pub/*'] } });
    catalogue.set('s', 'tools', tools('ls', 'rm'));
    catalogue.set('s', 'resources', [
      { uri: 'file:///pub/a', name: 'a' },
      { uri: 'file:///priv/b', name: 'b' },
    ]);
    expect(catalogue.tools().map((t) => t.name)).toEqual(['s.ls']);
    expect(catalogue.resources().map((r) => r.resource.uri)).toEqual(['file:///pub/a']);
    expect(catalogue.allowsUri('s', 'file:///priv/b')).toBe(false);
  });
});

describe('resources', () => {
  test('a URI is served by the servers listing it, else by those whose template fits', () => {
    const catalogue = new Catalogue('.');
    catalogue.addServer('one', 0);
    catalogue.addServer('two', 1);
    catalogue.set('one', 'resources', [{ uri: 'mem://x', name: 'x' }]);
    catalogue.set('two', 'resourceTemplates', [{ uriTemplate: 'mem://{id}', name: 't' }]);
    expect(catalogue.serversForUri('mem://x')).toEqual(['one']);
    expect(catalogue.serversForUri('mem://y')).toEqual(['two']);
    expect(catalogue.serversForUri('mem://y/z')).toEqual([]);
    catalogue.clear('two');
    expect(catalogue.serversForUri('mem://y')).toEqual([]);
  });

  test('template matching: simple expressions stop at /, reserved and path ones do not', () => {
    expect(templateMatches('file:///{path}', 'file:///a')).toBe(true);
    expect(templateMatches('file:///{path}', 'file:///a/b')).toBe(false);
    expect(templateMatches('file:///{+path}', 'file:///a/b')).toBe(true);
    expect(templateMatches('grammar://a13/{verb}{?tense}', 'grammar://a13/eat?tense=past')).toBe(true);
    expect(templateMatches('x://{a}.json', 'x://a.jsonX')).toBe(false);
  });
});
