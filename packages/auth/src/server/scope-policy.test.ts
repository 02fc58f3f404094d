import { describe, expect, test } from 'vitest';
import { normalizeResourceUri, ScopePolicy } from './scope-policy.js';

describe('ScopePolicy', () => {
  const policy = new ScopePolicy({
    always: ['mcp'],
    methods: { 'tools/list': ['tools:read'] },
    tools: { delete_file: ['files:write'], constructor: ['odd'] },
    prompts: { secret: ['prompts:secret'] },
    resources: { 'file:///etc/*': ['files:admin'], 'file:///etc/hosts': ['files:read'], 'file:///*': ['files:read'] },
    implies: { 'files:admin': ['files:write'], 'files:write': ['files:read'] },
  });

  test('combines always, method and operation entries', () => {
    expect(policy.required('tools/call', 'delete_file').sort()).toEqual(['files:write', 'mcp']);
    expect(policy.required('tools/list', undefined).sort()).toEqual(['mcp', 'tools:read']);
    expect(policy.required('prompts/get', 'secret').sort()).toEqual(['mcp', 'prompts:secret']);
    expect(policy.required(undefined, undefined)).toEqual(['mcp']);
    expect(policy.required('tools/call', 'toString')).toEqual(['mcp']);
  });

  test('resources: exact entries win, then the longest prefix', () => {
    expect(policy.required('resources/read', 'file:///etc/hosts')).toContain('files:read');
    expect(policy.required('resources/read', 'file:///etc/shadow')).toContain('files:admin');
    expect(policy.required('resources/subscribe', 'file:///home/x')).toContain('files:read');
  });

  test('honours the scope hierarchy', () => {
    expect(policy.missing(['mcp', 'files:admin'], 'tools/call', 'delete_file')).toEqual([]);
    expect(policy.missing(['mcp', 'files:read'], 'tools/call', 'delete_file')).toEqual(['files:write']);
    expect(policy.missing([], 'tools/call', 'delete_file').sort()).toEqual(['files:write', 'mcp']);
  });
});

describe('ScopePolicy on targets', () => {
  const policy = new ScopePolicy({
    always: ['mcp'],
    methods: { 'completion/complete': ['complete'] },
    tools: { run: ['tools:run'] },
    prompts: { secret: ['prompts:secret'] },
    resources: {
      'file:///srv/private/*': ['files:private'],
      'file:///srv/private/open.txt': ['files:read'],
      'file:///ünï/é': ['files:unicode'],
      'test://Host/*': ['test:host'],
    },
    implies: { 'tools:admin': ['tools:run'] },
  });

  test('each target kind reads its own table; tasks add nothing by themselves', () => {
    expect(policy.requiredFor('tools/call', [{ kind: 'tool', name: 'run' }]).sort()).toEqual(['mcp', 'tools:run']);
    expect(policy.requiredFor('completion/complete', [{ kind: 'prompt', name: 'secret' }]).sort()).toEqual([
      'complete',
      'mcp',
      'prompts:secret',
    ]);
    expect(policy.requiredFor('tasks/get', [{ kind: 'task', name: 'run' }])).toEqual(['mcp']);
    expect(policy.requiredFor(undefined, [{ kind: 'tool', name: 'run' }])).toEqual(['mcp']);
  });

  test('every resource of a listen stream counts', () => {
    const targets = [
      { kind: 'resource' as const, name: 'file:///srv/public/a' },
      { kind: 'resource' as const, name: 'file:///srv/private/b' },
      { kind: 'resource' as const, name: 'file:///ünï/é' },
    ];
    expect(policy.requiredFor('subscriptions/listen', targets).sort()).toEqual(['files:private', 'files:unicode', 'mcp']);
  });

  test.each([
    ['file:///srv/public/../private/b', 'files:private'],
    ['file:///srv/public/%2e%2E/private/b', 'files:private'],
    ['file:///srv/%70rivate/b', 'files:private'],
    ['FILE:///srv/private/b', 'files:private'],
    ['file:///srv/private/./open.txt', 'files:read'],
    ['file:///%C3%BCn%C3%AF/%C3%A9', 'files:unicode'],
  ])('another spelling of a protected URI is that URI: %s', (uri, scope) => {
    expect(policy.requiredFor('resources/read', [{ kind: 'resource', name: uri }])).toContain(scope);
  });

  test.each([
    ['file:///srv/private/..', 'read as it is (a template value of ..)'],
    ['file:///srv/private%2fb', 'decoded (a template value of private/b)'],
    ['file:///srv/public%2F..%2Fprivate%2Fb', 'decoded, then resolved'],
    ['file:///srv/private/x/%2e%2e/..', 'read with its escapes decoded'],
  ])('a URI a server may read more than one way needs the scopes of every reading: %s, %s', (uri) => {
    expect(policy.requiredFor('resources/read', [{ kind: 'resource', name: uri }])).toContain('files:private');
  });

  test('an encoded slash stays encoded in the normal form, and text the URL parser refuses is compared as it is', () => {
    expect(normalizeResourceUri('file:///srv/private%2Fb')).toBe('file:///srv/private%2Fb');
    expect(policy.requiredFor('resources/read', [{ kind: 'resource', name: 'file:///srv/public%2Fb' }])).toEqual(['mcp']);
    expect(policy.requiredFor('resources/read', [{ kind: 'resource', name: 'file:///srv/%E0%A4%A' }])).toEqual(['mcp']);
    expect(normalizeResourceUri('not a uri %7e')).toBe('not a uri ~');
  });

  test('a resource template needs every entry a URI of it could match', () => {
    const template = (name: string) => policy.requiredFor('completion/complete', [{ kind: 'resource-template', name }]).sort();
    expect(template('file:///srv/{+path}')).toEqual(['complete', 'files:private', 'files:read', 'mcp']);
    expect(template('file:///srv/private/{name}')).toEqual(['complete', 'files:private', 'files:read', 'mcp']);
    expect(template('file:///srv/public/{name}')).toEqual(['complete', 'mcp']);
    expect(template('file://{+anything}')).toEqual(['complete', 'files:private', 'files:read', 'files:unicode', 'mcp']);
    expect(template('file:///srv/private/open.txt')).toEqual(['complete', 'files:read', 'mcp']);
  });

  test('names and scopes inherited from Object.prototype are nobody’s (a token with scope toString is just a token)', () => {
    expect(policy.requiredFor('tools/call', [{ kind: 'tool', name: 'constructor' }])).toEqual(['mcp']);
    expect(policy.requiredFor('constructor', [{ kind: 'tool', name: '__proto__' }])).toEqual(['mcp']);
    expect(policy.missingFor(['toString', 'constructor', '__proto__', 'mcp'], 'tools/call', [{ kind: 'tool', name: 'run' }])).toEqual([
      'tools:run',
    ]);
    expect(policy.missing(['mcp', 'tools:admin'], 'tools/call', 'run')).toEqual([]);
  });
});
