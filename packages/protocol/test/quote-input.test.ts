// Errors quote peer input up to a bound: a 1 MiB method name must not come back whole.
import { describe, expect, it } from 'vitest';
import { MAX_QUOTED_INPUT_LENGTH, methodNotFound, quoteInput, truncateInput } from '../src/errors.js';

const MIB = 1024 * 1024;

describe('truncateInput', () => {
  it('keeps short text as it is and cuts long text to the bound plus an ellipsis', () => {
    expect(truncateInput('tools/call')).toBe('tools/call');
    expect(truncateInput('x'.repeat(MAX_QUOTED_INPUT_LENGTH))).toBe('x'.repeat(MAX_QUOTED_INPUT_LENGTH));
    const cut = truncateInput('m'.repeat(MIB));
    expect(cut).toBe(`${'m'.repeat(MAX_QUOTED_INPUT_LENGTH)}…`);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(MAX_QUOTED_INPUT_LENGTH - 1)}😀tail`;
    const cut = truncateInput(text);
    expect(cut).toBe(`${'a'.repeat(MAX_QUOTED_INPUT_LENGTH - 1)}…`);
    expect(/[\ud800-\udbff]$/.test(cut.slice(0, -1))).toBe(false);
  });
});

describe('quoteInput', () => {
  it('quotes strings as JSON and other values by their JSON form, both bounded', () => {
    expect(quoteInput('verbose')).toBe('"verbose"');
    expect(quoteInput(42)).toBe('42');
    expect(quoteInput(undefined)).toBe('undefined');
    expect(quoteInput('v'.repeat(MIB))).toBe(`"${'v'.repeat(MAX_QUOTED_INPUT_LENGTH)}"…`);
    expect(quoteInput({ level: 'x'.repeat(MIB) }).length).toBe(MAX_QUOTED_INPUT_LENGTH + 1);
  });
});

describe('methodNotFound', () => {
  it('quotes at most the bound of a 1 MiB method name', () => {
    const error = methodNotFound('n'.repeat(MIB));
    expect(error.message).toBe(`Method not found: ${'n'.repeat(MAX_QUOTED_INPUT_LENGTH)}…`);
  });
});
