import { describe, expect, test } from 'vitest';
import { findChallenge, formatChallenge, MAX_CHALLENGE_HEADER_LENGTH, parseWwwAuthenticate } from './www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  test('reads a Bearer challenge with quoted parameters', () => {
    const [challenge] = parseWwwAuthenticate('Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", scope="a b"');
    expect(challenge).toEqual({
      scheme: 'bearer',
      params: { resource_metadata: 'https://h/.well-known/oauth-protected-resource/mcp', scope: 'a b' },
    });
  });

  test('splits several challenges, as fetch joins several header lines', () => {
    const challenges = parseWwwAuthenticate(
      'Bearer error="invalid_token", scope="x", DPoP algs="ES256 PS256", error=use_dpop_nonce, Basic realm="r"',
    );
    expect(challenges.map((c) => c.scheme)).toEqual(['bearer', 'dpop', 'basic']);
    expect(findChallenge(challenges, 'DPoP')?.params).toEqual({ algs: 'ES256 PS256', error: 'use_dpop_nonce' });
    expect(findChallenge(challenges, 'basic')?.params.realm).toBe('r');
  });

  test('unescapes quoted-pairs and lower-cases parameter names', () => {
    const [challenge] = parseWwwAuthenticate('Bearer Error_Description="say \\"no\\" \\\\ twice"');
    expect(challenge!.params.error_description).toBe('say "no" \\ twice');
  });

  test('reads token68 credentials and bare schemes', () => {
    expect(parseWwwAuthenticate('Negotiate abc123==, Bearer')).toEqual([
      { scheme: 'negotiate', params: {}, token68: 'abc123==' },
      { scheme: 'bearer', params: {} },
    ]);
  });

  test('never throws on garbage and bounds its input', () => {
    for (const value of ['', ' , ', '"', '=', 'Bearer ="x"', 'Bearer a="unterminated', 'Bearer a=', '\u0000\u0001']) {
      expect(() => parseWwwAuthenticate(value)).not.toThrow();
    }
    expect(parseWwwAuthenticate(null)).toEqual([]);
    const huge = `Bearer scope="${'a'.repeat(MAX_CHALLENGE_HEADER_LENGTH * 4)}"`;
    const [challenge] = parseWwwAuthenticate(huge);
    expect(challenge?.scheme).toBe('bearer');
    expect(challenge?.params.scope).toBeUndefined();
  });
});

describe('formatChallenge', () => {
  test('quotes and escapes values, skips undefined ones', () => {
    expect(formatChallenge('Bearer', { error: 'invalid_token', error_description: 'a "b"', scope: undefined })).toBe(
      'Bearer error="invalid_token", error_description="a \\"b\\""',
    );
  });

  test('round-trips through the parser', () => {
    const header = formatChallenge('DPoP', { algs: 'ES256', resource_metadata: 'https://h/x', scope: 'a b' });
    expect(parseWwwAuthenticate(header)[0]!.params).toEqual({ algs: 'ES256', resource_metadata: 'https://h/x', scope: 'a b' });
  });

  test('refuses header injection', () => {
    expect(() => formatChallenge('Bearer', { error_description: 'x\r\nSet-Cookie: a=b' })).toThrow(TypeError);
    expect(() => formatChallenge('Bad scheme', {})).toThrow(TypeError);
  });
});
