import { describe, expect, test } from 'vitest';
import { isUriTemplate, UriTemplate, UriTemplateError } from './uri-template.js';

describe('expand (RFC 6570 examples)', () => {
  const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', list: ['red', 'green', 'blue'], x: '1024', y: '768', empty: '' };
  test.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path}', '#/foo/bar'],
    ['{x,y}', '1024,768'],
    ['{.x,y}', '.1024.768'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{var:3}', 'val'],
    ['{undefinedvar}', ''],
  ])('%s → %s', (template, expected) => {
    expect(new UriTemplate(template).expand(values)).toBe(expected);
  });
});

describe('match', () => {
  test('simple variables, decoded', () => {
    const t = new UriTemplate('grammar://a13/{verb}');
    expect(t.match('grammar://a13/eat')).toEqual({ verb: 'eat' });
    expect(t.match('grammar://a13/comi%C3%B3')).toEqual({ verb: 'comió' });
    expect(t.match('grammar://a13/eat/extra')).toBeUndefined();
    expect(t.match('other://a13/eat')).toBeUndefined();
  });

  test('several variables and path segments', () => {
    const t = new UriTemplate('repo://{owner}/{name}/blob{/path*}');
    expect(t.match('repo://octo/hello/blob/src/index.ts')).toEqual({ owner: 'octo', name: 'hello', path: ['src', 'index.ts'] });
  });

  test('reserved expansion keeps slashes', () => {
    expect(new UriTemplate('file:///{+path}').match('file:///home/user/a.txt')).toEqual({ path: 'home/user/a.txt' });
  });

  test('query variables in any order, optional', () => {
    const t = new UriTemplate('search://items{?q,limit}');
    expect(t.match('search://items?limit=5&q=red%20car')).toEqual({ q: 'red car', limit: '5' });
    expect(t.match('search://items')).toEqual({});
  });

  test('expand and match round trip', () => {
    const t = new UriTemplate('demo://{kind}/{id}{?lang}');
    const uri = t.expand({ kind: 'verb', id: 'to be', lang: 'es' });
    expect(uri).toBe('demo://verb/to%20be?lang=es');
    expect(t.match(uri)).toEqual({ kind: 'verb', id: 'to be', lang: 'es' });
  });
});

test('invalid templates are refused; isUriTemplate tells templates from URIs', () => {
  expect(() => new UriTemplate('a{b')).toThrow(UriTemplateError);
  expect(() => new UriTemplate('a{}')).toThrow(UriTemplateError);
  expect(() => new UriTemplate('a{b c}')).toThrow(UriTemplateError);
  expect(new UriTemplate('x://{a}/{b}').variableNames).toEqual(['a', 'b']);
  expect(isUriTemplate('x://{a}')).toBe(true);
  expect(isUriTemplate('x://a')).toBe(false);
});
