import { describe, expect, it } from 'vitest';
import { FramingError } from './framing-error.js';

describe('FramingError', () => {
  it('is an Error with a stable code, a name and the details it was given', () => {
    const error = new FramingError('FRAME_TOO_LARGE', 'too big', { framing: 'ndjson', limit: 10, size: 11 });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(FramingError);
    expect(error.name).toBe('FramingError');
    expect(error.code).toBe('FRAME_TOO_LARGE');
    expect(error.message).toBe('too big');
    expect(error.framing).toBe('ndjson');
    expect(error.limit).toBe(10);
    expect(error.size).toBe(11);
    expect(error.header).toBeUndefined();
    expect(String(error)).toBe('FramingError: too big');
    expect(error.stack).toContain('FramingError');
  });

  it('leaves every detail undefined when none is given', () => {
    const error = new FramingError('DECODER_ENDED', 'ended');
    expect([error.framing, error.limit, error.size, error.header]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
