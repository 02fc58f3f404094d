import { describe, expect, test } from 'vitest';
import { buildCsp } from '../csp.js';
import { TokenBucket } from './rate-limit.js';
import { allowAttribute, viewDocument } from './view-document.js';

describe('viewDocument', () => {
  test('puts the CSP first, right after the doctype, ahead of anything the view declares', () => {
    const csp = buildCsp(undefined);
    const doc = viewDocument('<!DOCTYPE html><html><head><script>alert(1)</script></head></html>', csp);
    expect(doc.startsWith(`<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="${csp}">`)).toBe(true);
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<script>'));
  });

  test('adds a doctype when the view has none, and keeps leading whitespace out of the way', () => {
    expect(viewDocument('<p>hi</p>', "default-src 'none'")).toBe(
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><p>hi</p>`,
    );
    expect(viewDocument('  <!doctype html><p>hi</p>', "default-src 'none'")).toMatch(/^ {2}<!doctype html><meta http-equiv/);
  });

  test('refuses a policy that could break out of its attribute', () => {
    expect(() => viewDocument('<p>x</p>', `default-src 'none'"><script>alert(1)</script>`)).toThrow(TypeError);
  });

  test('allowAttribute grants only the permissions asked for', () => {
    expect(allowAttribute(undefined)).toBe('');
    expect(allowAttribute({ camera: {}, clipboardWrite: {} })).toBe('camera; clipboard-write');
  });
});

describe('TokenBucket', () => {
  test('a burst, then nothing until time refills it at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 100; // 10 a second: one token
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now += 60_000; // never more than the burst
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});
