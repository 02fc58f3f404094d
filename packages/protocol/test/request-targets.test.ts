// What a request acts on, and what it mirrors into Mcp-Name: one table for the header check, the client's header
// writer and authorization.
import { describe, expect, test } from 'vitest';
import { mirroredName, mirroredNameField, requestTargets, targetOfName } from '../src/index.js';

describe('the Mcp-Name table', () => {
  test.each([
    ['tools/call', 'name'],
    ['prompts/get', 'name'],
    ['resources/read', 'uri'],
    ['tasks/get', 'taskId'],
    ['tasks/update', 'taskId'],
    ['tasks/cancel', 'taskId'],
  ])('%s mirrors params.%s', (method, field) => {
    expect(mirroredNameField(method)).toBe(field);
    expect(mirroredName(method, { [field]: 'x' })).toBe('x');
  });

  test.each(['tools/list', 'resources/subscribe', 'tasks/result', 'completion/complete', 'constructor', '__proto__', 'toString', ''])(
    '%j mirrors nothing',
    (method) => {
      expect(mirroredNameField(method)).toBeUndefined();
      expect(mirroredName(method, { name: 'x', uri: 'x', taskId: 'x' })).toBeUndefined();
    },
  );

  test('a value that is not a string is not mirrored', () => {
    expect(mirroredName('tools/call', { name: 5 })).toBeUndefined();
    expect(mirroredName('tools/call', null)).toBeUndefined();
    expect(mirroredName('tools/call', 'name')).toBeUndefined();
  });
});

describe('requestTargets', () => {
  test('the named field of each method, with its kind', () => {
    expect(requestTargets('tools/call', { name: 'write_file', arguments: {} })).toEqual({
      targets: [{ kind: 'tool', name: 'write_file' }],
    });
    expect(requestTargets('prompts/get', { name: 'p' })).toEqual({ targets: [{ kind: 'prompt', name: 'p' }] });
    expect(requestTargets('resources/read', { uri: 'file:///é' })).toEqual({ targets: [{ kind: 'resource', name: 'file:///é' }] });
    expect(requestTargets('resources/subscribe', { uri: 'a://b' })).toEqual({ targets: [{ kind: 'resource', name: 'a://b' }] });
    expect(requestTargets('resources/unsubscribe', { uri: 'a://b' })).toEqual({ targets: [{ kind: 'resource', name: 'a://b' }] });
    expect(requestTargets('tasks/result', { taskId: 't' })).toEqual({ targets: [{ kind: 'task', name: 't' }] });
  });

  test('completion names the prompt or the resource template it completes an argument of', () => {
    const argument = { name: 'a', value: '' };
    expect(requestTargets('completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument })).toEqual({
      targets: [{ kind: 'prompt', name: 'p' }],
    });
    expect(requestTargets('completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument })).toEqual({
      targets: [{ kind: 'resource-template', name: 'file:///{path}' }],
    });
  });

  test('a listen stream names every resource it subscribes to', () => {
    expect(requestTargets('subscriptions/listen', { notifications: { toolsListChanged: true } })).toEqual({ targets: [] });
    expect(requestTargets('subscriptions/listen', { notifications: { resourceSubscriptions: ['a://1', 'a://2'] } })).toEqual({
      targets: [
        { kind: 'resource', name: 'a://1' },
        { kind: 'resource', name: 'a://2' },
      ],
    });
  });

  test('no named field: no target', () => {
    expect(requestTargets('tools/call', {})).toEqual({ targets: [] });
    expect(requestTargets('tools/call', undefined)).toEqual({ targets: [] });
    expect(requestTargets('tools/list', { name: 'x' })).toEqual({ targets: [] });
    expect(requestTargets('constructor', { name: 'x' })).toEqual({ targets: [] });
  });

  test.each([
    ['tools/call', { name: ['write_file'] }],
    ['tools/call', { name: { toString: 'write_file' } }],
    ['prompts/get', { name: 5 }],
    ['resources/read', { uri: null }],
    ['tasks/get', { taskId: 7 }],
    ['completion/complete', { ref: { type: 'ref/tool', name: 'write_file' } }],
    ['completion/complete', { ref: { type: 'ref/prompt' } }],
    ['completion/complete', { ref: 'ref/prompt' }],
    ['subscriptions/listen', { notifications: { resourceSubscriptions: 'a://1' } }],
    ['subscriptions/listen', { notifications: { resourceSubscriptions: ['a://1', 2] } }],
  ])('%s with a named field of the wrong shape is invalid (%j)', (method, params) => {
    expect(requestTargets(method, params)).toHaveProperty('invalid');
  });

  test('targetOfName reads a decoded Mcp-Name the way the body is read', () => {
    expect(targetOfName('tools/call', 'x')).toEqual({ kind: 'tool', name: 'x' });
    expect(targetOfName('resources/read', 'x')).toEqual({ kind: 'resource', name: 'x' });
    expect(targetOfName('tools/list', 'x')).toBeUndefined();
    expect(targetOfName('__proto__', 'x')).toBeUndefined();
  });
});
