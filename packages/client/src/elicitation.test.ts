import { describe, expect, test } from 'vitest';
import type { InputContext } from './options.js';
import { applyElicitationDefaults, wrapElicitationHandler } from './elicitation.js';
import type { ElicitParams } from './types.js';

const form = {
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      verified: { type: 'boolean', default: true },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
      note: { type: 'string' },
    },
  },
} as unknown as ElicitParams;

const context = { signal: new AbortController().signal, era: 'legacy', protocolVersion: '2025-11-25' } as InputContext;

describe('elicitation defaults (SEP-1034)', () => {
  test('an accepted form gets the default of every field left out, and keeps what the user gave', () => {
    const result = applyElicitationDefaults(form, { action: 'accept', content: { name: 'Ada', verified: false } });
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, score: 95.5, status: 'active', verified: false, tags: ['a'] },
    });
  });

  test('declined and cancelled answers are left alone', () => {
    expect(applyElicitationDefaults(form, { action: 'decline' })).toEqual({ action: 'decline' });
    expect(applyElicitationDefaults(form, { action: 'cancel' })).toEqual({ action: 'cancel' });
  });

  test('the wrapped handler applies defaults unless told not to', async () => {
    const accept = () => ({ action: 'accept' as const, content: {} });
    await expect(wrapElicitationHandler(accept, undefined)(form, context)).resolves.toMatchObject({
      content: { name: 'John Doe', age: 30 },
    });
    await expect(wrapElicitationHandler(accept, { applyDefaults: false })(form, context)).resolves.toEqual({
      action: 'accept',
      content: {},
    });
  });

  test('URL mode is refused unless the host opted in', async () => {
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } as unknown as ElicitParams;
    const accept = () => ({ action: 'accept' as const });
    await expect(wrapElicitationHandler(accept, undefined)(url, context)).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    await expect(wrapElicitationHandler(accept, { url: true })(url, context)).resolves.toEqual({ action: 'accept' });
  });
});
