/** The one redaction the CLI applies to text it shows in the inspector's page: hostile lines a server might print. */
import { describe, expect, test } from 'vitest';
import { knownSecrets, secretRedactor } from './redact-secrets.js';

const redact = secretRedactor(
  knownSecrets({ headers: ['X-Tenant-Key:  tenant-7f3a9c', 'Accept: text/plain'], env: ['DB_PASS=hunter2hunter2'] }),
);

describe('secretRedactor', () => {
  test.each([
    ['Authorization: Bearer abc.def.ghi-123', 'Authorization: Bearer [redacted]'],
    ['authorization:bearer 0123456789abcdef', 'authorization:bearer [redacted]'],
    ['Proxy-Authorization: Basic dXNlcjpwYXNz', 'Proxy-Authorization: Basic [redacted]'],
    ['> Cookie: session=abc; theme=dark', '> Cookie: [redacted]'],
    ['{"headers":{"Authorization":"Bearer tok-123456789"}}', '{"headers":{"Authorization":"Bearer [redacted]"}}'],
    ["curl --header 'Authorization: Bearer sekrit-999' http://x", "curl --header 'Authorization: Bearer [redacted]' http://x"],
    ['GET /cb?code=ok&access_token=at-1&state=s', 'GET /cb?code=ok&access_token=[redacted]&state=s'],
    ['refresh_token=rt_2 id_token=it.3', 'refresh_token=[redacted] id_token=[redacted]'],
    ['{"client_secret": "cs-4", "client_id": "public"}', '{"client_secret": "[redacted]", "client_id": "public"}'],
    ["client-secret: 'cs-5'", "client-secret: '[redacted]'"],
    ['starting with --api-key ak-6 --verbose', 'starting with --api-key [redacted] --verbose'],
    ['node server.js --token=tk-7', 'node server.js --token=[redacted]'],
    ['PASSWORD=pw-8 npm start', 'PASSWORD=[redacted] npm start'],
    ['redis://default:pw-9@127.0.0.1:6379/0', 'redis://default:[redacted]@127.0.0.1:6379/0'],
    ['sent Bearer QWxhZGRpbjpvcGVu to upstream', 'sent Bearer [redacted] to upstream'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig-nat_ure here', 'jwt [redacted] here'],
    ['key ghp_abcdefghijklmnopqrstuvwxyz0123 and sk-proj-abcdefghijklmnopqrstuv', 'key [redacted] and [redacted]'],
    ['tenant tenant-7f3a9c; db hunter2hunter2', 'tenant [redacted]; db [redacted]'],
    // Every --header value counts as secret, whatever its name.
    ['sent Accept: text/plain', 'sent Accept: [redacted]'],
  ])('%s', (line, expected) => {
    expect(redact(line)).toBe(expected);
  });

  test('ordinary lines are left alone', () => {
    for (const line of [
      'listening on 127.0.0.1:3000 (tokens: 5 per second)',
      'exit code 1; session expired',
      'https://example.com/path?page=2',
      'the token endpoint answered 400',
    ])
      expect(redact(line)).toBe(line);
  });

  // A generous bound: each 1 MiB line takes well under a second; a quadratic pattern would take minutes.
  test('hostile input: huge, multi-line, repeated, binary; bounded and never throws', { timeout: 60_000 }, () => {
    const flood = `${'access_token=x&'.repeat(50_000)}\n${'Authorization: Bearer '.repeat(10_000)}`;
    const out = redact(flood);
    expect(out).not.toMatch(/access_token=x/);
    expect(redact('\u0000\uffff Authorization: Bearer \u0001secret')).toBe('\u0000\uffff Authorization: Bearer [redacted]');
    expect(redact('a'.repeat(2 * 1024 * 1024)).length).toBe(1024 * 1024);
    expect(redact('')).toBe('');
    // Lines built to make a pattern rescan the rest of the line from every position finish (a quadratic pattern
    // would not, within the test's time): repeated prefixes of every shape and context.
    for (const unit of ['eyJ-', 'sk-', 'xoxb-', 'a.', 'a://', 'ghp_', 'Bearer ', '--token ', 'token=', 'Cookie: "', 'u:p@'])
      expect(typeof redact(unit.repeat(Math.floor((1024 * 1024) / unit.length)))).toBe('string');
  });

  test('knownSecrets: header and env values; short ones are not searched for (they would garble every line)', () => {
    expect(knownSecrets({ headers: ['A: b', 'Authorization: Bearer xyz123'], env: ['K=v', 'TOKEN=abcd'] })).toEqual([
      'b',
      'Bearer xyz123',
      'v',
      'abcd',
    ]);
    expect(secretRedactor(['v'])('value v')).toBe('value v');
  });
});
