// The `--auth-*` flags of the HTTP mode: parsed and refused with clear messages, and a server main serving with them
// (real sockets, a process double): the protected resource metadata at the well-known URLs, 401 with a challenge
// naming it for a request without a token, a malformed token refused. Token verification against a real OpenID
// provider is covered end to end in tests/auth.
import { McpServer } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { parseAuthFlags } from './auth-flags.js';
import { fakeProcess } from './main-process.test-util.js';
import { formatUsage, parseServerArgs } from './parse-server-args.js';
import { runServerMain } from './run-server-main.js';

const ISSUER = 'https://login.example.com/realms/mcp';

describe('the command line', () => {
  test('--auth-issuer turns protection on; the other flags refine it', () => {
    expect(parseAuthFlags({}, true)).toBeUndefined();
    expect(
      parseAuthFlags(
        {
          'auth-issuer': [ISSUER],
          'auth-audience': 'HTTPS://MCP.Example.com/',
          'auth-jwks': 'https://login.example.com/keys',
          'auth-scope': ['mcp:read  profile', 'mcp:read'],
          'auth-tool-scope': ['delete=files:write,files:admin', 'delete=files:write'],
          'auth-dpop': 'required',
        },
        false,
      ),
    ).toEqual({
      issuers: [ISSUER],
      audience: 'https://mcp.example.com',
      jwksUri: 'https://login.example.com/keys',
      scopes: ['mcp:read', 'profile'],
      toolScopes: { delete: ['files:write', 'files:admin'] },
      dpop: 'required',
    });
    expect(parseAuthFlags({ 'auth-issuer': ['http://127.0.0.1:8080'] }, true)).toMatchObject({ audience: undefined, dpop: 'allowed' });
  });

  test.each([
    [{ 'auth-audience': 'https://a.example/mcp' }, true, '--auth-audience applies only with --auth-issuer'],
    [{ 'auth-issuer': ['login.example.com'] }, true, '--auth-issuer needs an absolute URL'],
    [{ 'auth-issuer': ['http://login.example.com'] }, true, '--auth-issuer needs an https URL (plain http only on a loopback host)'],
    [{ 'auth-issuer': [ISSUER] }, false, '--auth-audience is required when serving on a non-loopback address'],
    [{ 'auth-issuer': [ISSUER], 'auth-audience': 'https://u:p@a.example/mcp' }, true, '--auth-audience must hold no fragment and no'],
    [{ 'auth-issuer': [ISSUER, 'https://b.example'], 'auth-jwks': 'https://b.example/jwks' }, true, '--auth-jwks needs exactly one'],
    [{ 'auth-issuer': [ISSUER], 'auth-scope': ['a"b'] }, true, '--auth-scope: "a\\"b" is not a valid scope'],
    [{ 'auth-issuer': [ISSUER], 'auth-tool-scope': ['delete'] }, true, '--auth-tool-scope needs TOOL=SCOPE[,SCOPE]'],
    [{ 'auth-issuer': [ISSUER], 'auth-dpop': 'maybe' }, true, '--auth-dpop must be allowed, required or disabled'],
  ])('refused: %j (loopback %s)', (values, loopback, message) => {
    expect(() => parseAuthFlags(values, loopback)).toThrow(message);
  });

  test('through the server command line: HTTP only, described in the target and the usage', () => {
    expect(parseServerArgs(['--auth-issuer', ISSUER])).toEqual({ kind: 'error', message: '--auth-issuer applies to --http only' });
    expect(parseServerArgs(['--http', '0.0.0.0:80', '--auth-issuer', ISSUER])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--auth-audience is required/),
    });
    expect(parseServerArgs(['--http', '3000', '--auth-issuer', ISSUER])).toMatchObject({
      kind: 'run',
      target: { description: 'http://127.0.0.1:3000/mcp (OAuth required)' },
    });
    expect(formatUsage('x', 'y')).toContain('  --auth-issuer URL\n');
  });
});

function server(): McpServer {
  return new McpServer({ name: 'protected', version: '1.0.0' }, { onInternalError: () => {} });
}

describe('serving with --auth-issuer', () => {
  test('metadata at both well-known URLs, 401 naming it, malformed tokens refused; nothing served without a token', async () => {
    const process = fakeProcess(['--http', '127.0.0.1:0', '--auth-issuer', ISSUER, '--auth-scope', 'mcp:read']);
    const done = runServerMain({ name: 'protected', version: '1.0.0', usage: 'A server.', createServer: server, process });
    const url = await new Promise<URL>((resolve) => {
      const check = (): void => {
        const match =
          /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp) .*OAuth: tokens from https:\/\/login\.example\.com\/realms\/mcp for /.exec(
            process.err(),
          );
        if (match) resolve(new URL(match[1]!));
        else process.stderr.once('data', check);
      };
      check();
    });
    try {
      const expected = {
        resource: url.href,
        authorization_servers: [ISSUER],
        scopes_supported: ['mcp:read'],
        bearer_methods_supported: ['header'],
      };
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const metadata = await fetch(new URL(path, url));
        expect(metadata.status).toBe(200);
        expect(await metadata.json()).toMatchObject(expected);
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const anonymous = await fetch(url, { method: 'POST', headers, body });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain(
        `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', url).href}", scope="mcp:read"`,
      );
      const malformed = await fetch(url, { method: 'POST', headers: { ...headers, authorization: 'Bearer not.a.jwt' }, body });
      expect(malformed.status).toBe(401);
      expect(malformed.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const none = `${btoa('{"alg":"none"}')}.${btoa(`{"iss":"${ISSUER}","aud":"${url.href}","exp":9999999999}`)}.`.replace(/=/g, '');
      const unsigned = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${none}` }, body });
      expect(unsigned.status).toBe(401);
    } finally {
      process.signal('SIGTERM');
    }
    expect(await done).toBe(0);
  });
});
