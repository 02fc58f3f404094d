/**
 * The handler's authorization decision, against a plain reference computed from the body alone: for generated
 * (era, method, name, `Mcp-Name` form, granted scopes), a 2026-07-28 request whose headers do not say what the body
 * says is a 400; otherwise the request is refused (403) exactly when the granted scopes lack one the body's operation
 * needs, whatever the headers say and however they are encoded.
 */
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authenticator, base64Form, bearer, modernCall, POLICY, scopedServer } from './auth.test-util.js';
import { createHttpHandler, type HttpHandler } from './http-handler.js';
import { BOTH, post } from './http.test-util.js';

let handler: HttpHandler;
beforeAll(async () => {
  handler = createHttpHandler(scopedServer(), { authenticator: await authenticator(POLICY), maxSessions: 1000 });
});
afterAll(() => handler.close(0));

const METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
type Method = (typeof METHODS)[number];

/** Names of every kind, the tricky ones included; each method is tried with all of them. */
const NAMES = [
  'secret_tool',
  'open_tool',
  'constructor',
  '__proto__',
  'toString',
  'secret_prompt',
  'open_prompt',
  'test://secret/a',
  'test://open/a',
  'TEST://secret/a',
  'test://%73ecret/a',
  'test://files/public/../private/a',
  'test://files/public/a',
  'test://files/private/..',
  'test://files/private%2Fa',
  'test://ünï/é',
  'test://ünï/e',
  'secret tool',
  ' secret_tool',
  '=?base64?c2VjcmV0X3Rvb2w=?=',
  'é',
] as const;

const SCOPES = ['mcp:read', 'x:tool', 'x:prompt', 'x:res', 'x:uni', 'x:odd'] as const;

/**
 * The reference: which scope each (method, name) of the pool needs besides `mcp:read`, written out by hand (resource
 * URIs as they resolve: another spelling of a protected URI is that URI).
 */
const NEEDS: Record<Method, Readonly<Record<string, string>>> = {
  'tools/call': { secret_tool: 'x:tool', constructor: 'x:odd' },
  'prompts/get': { secret_prompt: 'x:prompt' },
  'resources/read': {
    'test://secret/a': 'x:res',
    'TEST://secret/a': 'x:res',
    'test://%73ecret/a': 'x:res',
    'test://files/public/../private/a': 'x:res',
    'test://files/private/..': 'x:res',
    'test://files/private%2Fa': 'x:res',
    'test://ünï/é': 'x:uni',
  },
};

type Form = 'client' | 'base64' | 'absent' | 'other' | 'malformed';

function mcpName(name: string, other: string, form: Form): string | undefined {
  switch (form) {
    case 'client':
      // What a client sends: plain when it may, else base64 (the header codec's rule, written out).
      return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(name) && !(name.startsWith('=?base64?') && name.endsWith('?='))
        ? name
        : base64Form(name);
    case 'base64':
      return base64Form(name);
    case 'other':
      return base64Form(other);
    case 'malformed':
      return `=?base64?${base64Form(name).slice(9, -3)}?=`;
    case 'absent':
      return undefined;
  }
}

/** The reference decision: the status class the body alone (and the header/body agreement) calls for. */
function reference(era: 'modern' | 'legacy', method: Method, name: string, form: Form, granted: readonly string[]): 400 | 403 | 200 {
  if (!granted.includes('mcp:read')) return 403; // checked with the token, before the body is read
  if (era === 'modern' && form !== 'client' && form !== 'base64') return 400;
  const needed = Object.hasOwn(NEEDS[method], name) ? NEEDS[method][name] : undefined;
  return needed !== undefined && !granted.includes(needed) ? 403 : 200;
}

const sessions = new Map<string, Record<string, string>>();

/** A 2025-11-25 session of a principal holding `scope` (one per scope set, reused). */
async function session(scope: string): Promise<Record<string, string>> {
  let headers = sessions.get(scope);
  if (headers === undefined) {
    const auth = await bearer('alice', scope);
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '1' } };
    const opened = await handler(
      post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, { 'content-type': 'application/json', accept: BOTH, ...auth }),
    );
    await opened.body?.cancel();
    headers = {
      'content-type': 'application/json',
      accept: BOTH,
      'mcp-session-id': opened.headers.get('mcp-session-id') ?? 'none',
      ...auth,
    };
    await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    sessions.set(scope, headers);
  }
  return headers;
}

describe('authorization decision = reference decision from the body', () => {
  test('for generated era, method, name, Mcp-Name form and granted scopes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('modern' as const, 'legacy' as const),
        fc.constantFrom(...METHODS),
        fc.constantFrom(...NAMES),
        fc.constantFrom(...NAMES),
        fc.constantFrom<Form>('client', 'base64', 'absent', 'other', 'malformed'),
        fc.subarray([...SCOPES], { minLength: 1 }),
        async (era, method, name, otherName, form, granted) => {
          fc.pre(form !== 'other' || otherName !== name);
          const field = method === 'resources/read' ? 'uri' : 'name';
          const params = method === 'tools/call' ? { name, arguments: {} } : { [field]: name };
          const scope = granted.join(' ');
          const expected = reference(era, method, name, form, granted);
          let response: Response;
          if (era === 'modern') {
            response = await handler(modernCall(method, params, mcpName(name, otherName, form), await bearer('alice', scope)));
          } else if (!granted.includes('mcp:read')) {
            response = await handler(
              post(
                { jsonrpc: '2.0', id: 1, method, params },
                { 'content-type': 'application/json', accept: BOTH, ...(await bearer('alice', scope)) },
              ),
            );
          } else {
            // A legacy session ignores Mcp-Name; the form is sent anyway, to show it changes nothing.
            const header = mcpName(name, otherName, form);
            const headers = { ...(await session(scope)), ...(header === undefined ? {} : { 'mcp-name': header }) };
            response = await handler(post({ jsonrpc: '2.0', id: 1, method, params }, headers));
          }
          await response.body?.cancel();
          expect({ era, method, name, form, granted, status: response.status }).toEqual({
            era,
            method,
            name,
            form,
            granted,
            status: expected,
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
