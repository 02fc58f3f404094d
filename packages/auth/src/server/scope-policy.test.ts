import { describe, expect, test } from 'vitest';
import { ScopePolicy } from './scope-policy.js';

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
