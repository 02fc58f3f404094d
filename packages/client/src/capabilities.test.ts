import { describe, expect, test } from 'vitest';
import { hasCapability } from '@wiremcp/protocol';
import { clientCapabilitiesFor, missingServerCapability } from './capabilities.js';

const all = {
  sampling: () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: 'm' }),
  elicitation: () => ({ action: 'decline' as const }),
  roots: () => ({ roots: [] }),
};

describe('client capabilities', () => {
  test('derived from the handlers, shaped per revision', () => {
    expect(clientCapabilitiesFor(undefined, '2025-11-25', undefined)).toEqual({});
    expect(clientCapabilitiesFor(all, '2024-11-05', undefined)).toEqual({ sampling: {}, roots: { listChanged: true } });
    expect(clientCapabilitiesFor(all, '2025-06-18', undefined)).toEqual({ sampling: {}, elicitation: {}, roots: { listChanged: true } });
    expect(clientCapabilitiesFor(all, '2025-11-25', undefined)).toEqual({
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    expect(clientCapabilitiesFor(all, '2026-07-28', undefined)).toEqual({ sampling: {}, elicitation: { form: {} }, roots: {} });
  });

  test('URL-mode elicitation is declared only when the host opts in', () => {
    expect(clientCapabilitiesFor(all, '2025-11-25', undefined, { url: true })).toMatchObject({ elicitation: { form: {}, url: {} } });
    expect(clientCapabilitiesFor(all, '2026-07-28', undefined, { url: false })).toMatchObject({ elicitation: { form: {} } });
    expect(clientCapabilitiesFor(all, '2025-06-18', undefined, { url: true })).toMatchObject({ elicitation: {} });
  });

  test('override keys replace derived ones; an undefined key removes it', () => {
    const caps = clientCapabilitiesFor(all, '2026-07-28', { elicitation: { form: {} }, roots: undefined, experimental: { x: {} } });
    expect(caps).toEqual({ sampling: {}, elicitation: { form: {} }, experimental: { x: {} } });
  });
});

describe('server capability gates', () => {
  test('hasCapability follows a path; false and null do not count', () => {
    expect(hasCapability({ resources: { subscribe: true } }, ['resources', 'subscribe'])).toBe(true);
    expect(hasCapability({ resources: { subscribe: false } }, ['resources', 'subscribe'])).toBe(false);
    expect(hasCapability({ resources: {} }, ['resources'])).toBe(true);
    expect(hasCapability(undefined, ['tools'])).toBe(false);
  });

  test('missingServerCapability names the gate; completion is ungated in 2024-11-05; unknown methods are ungated', () => {
    expect(missingServerCapability('tools/call', {}, '2025-11-25')).toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
      details: { capability: 'tools' },
    });
    expect(missingServerCapability('resources/subscribe', { resources: {} }, '2025-11-25')).toMatchObject({
      details: { capability: 'resources.subscribe' },
    });
    expect(missingServerCapability('completion/complete', {}, '2025-03-26')).toBeDefined();
    expect(missingServerCapability('completion/complete', {}, '2024-11-05')).toBeUndefined();
    expect(missingServerCapability('tools/list', { tools: {} }, '2026-07-28')).toBeUndefined();
    expect(missingServerCapability('x/custom', {}, '2026-07-28')).toBeUndefined();
  });
});
