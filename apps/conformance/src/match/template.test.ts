import { describe, expect, test } from 'vitest';
import { displayPattern, diffPattern, formatDiff } from './diff.js';
import { resolveTemplate, TemplateError, type TemplateScope } from './template.js';

const legacy: TemplateScope = {
  revision: '2025-06-18',
  era: 'legacy',
  vars: { server: 'grammar', limits: { maxFrameBytes: 16 }, capture: { id: 7, init: { protocolVersion: '2025-06-18' }, cursor: 'abc' } },
};
const modern: TemplateScope = { ...legacy, revision: '2026-07-28', era: 'modern' };

describe('templates', () => {
  test('a whole-string template keeps the value type; inline ones become text', () => {
    expect(resolveTemplate({ id: '{{capture.id}}', v: '{{revision}}' }, legacy)).toEqual({ id: 7, v: '2025-06-18' });
    expect(resolveTemplate('id {{capture.id}} of {{server}} {{capture.init}}', legacy)).toBe(
      'id 7 of grammar {"protocolVersion":"2025-06-18"}',
    );
    expect(resolveTemplate('{{ capture.init.protocolVersion }}', legacy)).toBe('2025-06-18');
  });

  test('integer arithmetic', () => {
    expect(resolveTemplate('{{limits.maxFrameBytes + 1}}', legacy)).toBe(17);
    expect(resolveTemplate('{{capture.id - 2}}', legacy)).toBe(5);
    expect(() => resolveTemplate('{{server + 1}}', legacy)).toThrow(/not a number/);
  });

  test('unknown variables and missing captures are errors naming them', () => {
    expect(() => resolveTemplate('{{nope}}', legacy)).toThrow(TemplateError);
    expect(() => resolveTemplate('{{capture.later}}', legacy)).toThrow("nothing was captured as 'later'");
    expect(() => resolveTemplate('{{capture.init.nope}}', legacy)).toThrow("capture.init has no 'nope'");
  });

  test('$byRevision: exact revision over range over era over default', () => {
    const pick = { $byRevision: { '2025-06-18': 'exact', '>=2025-03-26': 'range', legacy: 'era', default: 'default' } };
    expect(resolveTemplate(pick, legacy)).toBe('exact');
    expect(resolveTemplate(pick, { ...legacy, revision: '2025-11-25' })).toBe('range');
    expect(resolveTemplate(pick, { ...legacy, revision: '2024-11-05' })).toBe('era');
    expect(resolveTemplate(pick, modern)).toBe('range');
    expect(resolveTemplate({ $byRevision: { legacy: 1, default: 2 } }, modern)).toBe(2);
  });

  test('$byRevision without an applicable branch drops the key or item; at the top it is an error', () => {
    expect(
      resolveTemplate({ a: 1, title: { $byRevision: { '>=2025-06-18': { $type: 'string' } } } }, { ...legacy, revision: '2024-11-05' }),
    ).toEqual({ a: 1 });
    expect(resolveTemplate([1, { $byRevision: { modern: 2 } }], legacy)).toEqual([1]);
    expect(() => resolveTemplate({ $byRevision: { modern: 1 } }, legacy)).toThrow(/no \$byRevision branch/);
  });

  test('branches are templated too; $omit drops a key', () => {
    expect(resolveTemplate({ code: { $byRevision: { legacy: '{{capture.id}}' } } }, legacy)).toEqual({ code: 7 });
    expect(resolveTemplate({ _meta: { a: 1, b: { $omit: true } } }, legacy)).toEqual({ _meta: { a: 1 } });
  });

  test('object keys are templated as text', () => {
    expect(resolveTemplate({ '{{server}}-{{capture.id}}': 1, plain: 2 }, legacy)).toEqual({ 'grammar-7': 1, plain: 2 });
  });

  test('operators other than the template ones are left for the matcher', () => {
    expect(resolveTemplate({ id: { $type: 'integer' }, t: { $regex: '{{server}}' } }, legacy)).toEqual({
      id: { $type: 'integer' },
      t: { $regex: 'grammar' },
    });
  });
});

describe('diff of a pattern and a message', () => {
  test('matched operators display as the actual value, so only real differences remain', () => {
    const pattern = { id: 4, result: { content: [{ type: 'text', text: 'comio' }], isError: { $optional: false } } };
    const actual = { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'comió' }], structuredContent: {}, isError: false } };
    expect(displayPattern(pattern, actual)).toEqual({ id: 4, result: { content: [{ type: 'text', text: 'comio' }], isError: false } });
    const changed = diffPattern(pattern, actual).filter((line) => line.op !== ' ');
    expect(changed).toEqual([
      { op: '+', text: '  "…": "1 more key",' },
      { op: '+', text: '    "…": "1 more key",' },
      { op: '-', text: '        "text": "comio"' },
      { op: '+', text: '        "text": "comió"' },
    ]);
  });

  test('an unmatched operator keeps its pattern text; satisfied $absent keys vanish', () => {
    const pattern = { id: 1, error: { $absent: true }, result: { tools: { $length: 5 } } };
    const actual = { id: 1, result: { tools: [1, 2] } };
    expect(displayPattern(pattern, actual)).toEqual({ id: 1, result: { tools: { $length: 5 } } });
    expect(formatDiff(diffPattern(pattern, actual))).toMatch(/^- +"\$length": 5$/m);
  });

  test('nothing at all is shown as such', () => {
    expect(formatDiff(diffPattern({ id: 1 }, undefined))).toContain('+ (nothing)');
  });
});
