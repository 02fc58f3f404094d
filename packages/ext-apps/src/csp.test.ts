import { describe, expect, test } from 'vitest';
import { buildCsp, cspProblems, MAX_CSP_DOMAINS } from './csp.js';

describe('buildCsp', () => {
  test('with nothing declared, nothing leaves the view: no network, no frames, no plugins', () => {
    const csp = buildCsp(undefined);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  test('declared origins reach exactly the directives of their kind', () => {
    const csp = buildCsp({
      connectDomains: ['https://api.example.com', 'wss://rt.example.com:8443'],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['https://embed.example.com'],
    });
    const directive = (name: string): string => csp.split('; ').find((part) => part.startsWith(`${name} `))!;
    expect(directive('connect-src')).toBe('connect-src https://api.example.com wss://rt.example.com:8443');
    expect(directive('script-src')).toBe("script-src 'self' 'unsafe-inline' https://*.cdn.example.com");
    expect(directive('img-src')).toContain('https://*.cdn.example.com');
    expect(directive('frame-src')).toBe('frame-src https://embed.example.com');
    expect(directive('script-src')).not.toContain('api.example.com');
  });

  test.each([
    ['a keyword smuggled in as a domain', { connectDomains: ["'unsafe-eval'"] }],
    ['a second directive after a semicolon', { connectDomains: ['https://a.example.com; script-src *'] }],
    ['a space-separated list in one entry', { resourceDomains: ['https://a.example.com https://b.example.com'] }],
    ['a bare wildcard', { connectDomains: ['*'] }],
    ['a path', { connectDomains: ['https://a.example.com/x'] }],
    ['a data: scheme', { resourceDomains: ['data:'] }],
    ['a non-string', { connectDomains: [42] }],
    ['a list that is not a list', { connectDomains: 'https://a.example.com' }],
  ])('refuses %s (a host must not loosen what it cannot read)', (_what, csp) => {
    expect(cspProblems(csp)).not.toEqual([]);
    expect(() => buildCsp(csp as never)).toThrow(TypeError);
  });

  test('bounds the number of origins and the length of what it echoes', () => {
    const many = Array.from({ length: MAX_CSP_DOMAINS + 1 }, (_, i) => `https://h${i}.example.com`);
    expect(cspProblems({ connectDomains: many })).toEqual([`connectDomains lists more than ${MAX_CSP_DOMAINS} origins`]);
    const [problem] = cspProblems({ connectDomains: ['x'.repeat(100_000)] });
    expect(problem!.length).toBeLessThan(200);
  });

  test('refuses a csp that is not an object', () => {
    expect(cspProblems(null)).toEqual(['csp is not an object']);
    expect(cspProblems(['https://a.example.com'])).toEqual(['csp is not an object']);
  });
});
