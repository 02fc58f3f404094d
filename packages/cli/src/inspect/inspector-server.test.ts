import { request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_API_BODY_BYTES, startInspectorServer, TOKEN_HEADER, type InspectorServer } from './inspector-server.js';
import { InspectorSession } from './inspector-session.js';

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'a'.repeat(43);

function send(
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server!.origin}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function start(): Promise<{ host: string; api: Record<string, string>; session: InspectorSession }> {
  const session = new InspectorSession('node server.js');
  server = await startInspectorServer(session, { token: TOKEN });
  return { host: new URL(server.origin).host, api: { 'content-type': 'application/json', [TOKEN_HEADER]: TOKEN }, session };
}

describe('the inspector server', () => {
  test('listens on 127.0.0.1 and prints a URL with the token', async () => {
    await start();
    expect(server!.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${TOKEN}$`));
  });

  test('the page needs the token and the right Host; it is served with a strict policy', async () => {
    const { host } = await start();
    expect((await send('/', { host })).status).toBe(403);
    expect((await send(`/?token=${TOKEN.slice(1)}`, { host })).status).toBe(403);
    expect((await send(`/?token=${TOKEN}`, { host: 'evil.example' })).status).toBe(421);
    expect((await send(`/?token=${TOKEN}`, { host: host.replace('127.0.0.1', 'localhost') })).status).toBe(200);
    const page = await send(`/?token=${TOKEN}`, { host });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.text).not.toContain(TOKEN);
  });

  test('the page may frame the MCP Apps view origin it was given, and no other', async () => {
    const { host } = await start();
    expect((await send(`/?token=${TOKEN}`, { host })).headers['content-security-policy']).toContain("frame-src 'self' blob:;");
    await server!.close();
    server = await startInspectorServer(new InspectorSession('node server.js'), { token: TOKEN, viewOrigin: 'http://127.0.0.1:4321' });
    const page = await send(`/?token=${TOKEN}`, { host: new URL(server.origin).host });
    expect(page.headers['content-security-policy']).toContain("frame-src 'self' blob: http://127.0.0.1:4321;");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  test('errors for the page have credentials redacted', async () => {
    const session = new InspectorSession('node server.js', (text) => text.replaceAll('s3cret', '[redacted]'));
    session.extend({ boom: () => Promise.reject(Object.assign(new Error('upstream refused s3cret'), { code: -32000 })) });
    server = await startInspectorServer(session, { token: TOKEN });
    const host = new URL(server.origin).host;
    const answer = await send(
      '/api/rpc',
      { host, 'content-type': 'application/json', [TOKEN_HEADER]: TOKEN },
      JSON.stringify({ op: 'boom' }),
    );
    expect(JSON.parse(answer.text)).toEqual({ error: { message: 'upstream refused [redacted]', code: -32000 } });
    session.markClosed('server exited: s3cret');
    expect(await session.run('state', {})).toMatchObject({ closed: 'server exited: [redacted]' });
  });

  test('the API refuses a missing or wrong token, a foreign Origin, a non-JSON body, an oversized body', async () => {
    const { host, api } = await start();
    const state = JSON.stringify({ op: 'state' });
    expect((await send('/api/rpc', { ...api, host }, state)).status).toBe(200);
    expect((await send('/api/rpc', { ...api, host, origin: server!.origin }, state)).status).toBe(200);
    expect((await send('/api/rpc', { host, 'content-type': 'application/json' }, state)).status).toBe(403);
    expect((await send('/api/rpc', { ...api, host, [TOKEN_HEADER]: 'b'.repeat(43) }, state)).status).toBe(403);
    expect((await send('/api/rpc', { ...api, host, origin: 'https://evil.example' }, state)).status).toBe(403);
    expect((await send('/api/rpc', { ...api, host, origin: 'null' }, state)).status).toBe(403);
    expect((await send('/api/rpc', { ...api, host: `evil.example:${host.split(':')[1]}` }, state)).status).toBe(421);
    expect((await send('/api/rpc', { ...api, host, 'content-type': 'text/plain' }, state)).status).toBe(415);
    expect((await send('/api/rpc', { ...api, host }, '{not json')).status).toBe(400);
    const big = await send('/api/rpc', { ...api, host }, `{"pad":"${'x'.repeat(MAX_API_BODY_BYTES)}"}`);
    expect(big.status).toBe(413);
    expect(big.text).not.toContain('xxxx');
    expect((await send('/api/events', { host })).status).toBe(403);
  });

  test('only the fixed operations run; an unknown one is refused without echoing it at length', async () => {
    const { host, api } = await start();
    const unknown = await send(
      '/api/rpc',
      { ...api, host },
      JSON.stringify({ op: `connect${'z'.repeat(5000)}`, params: { url: 'http://x' } }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.text.length).toBeLessThan(200);
    // Not connected yet: target operations say so instead of failing oddly.
    const tools = await send('/api/rpc', { ...api, host }, JSON.stringify({ op: 'tools' }));
    expect(tools.status).toBe(409);
    expect(JSON.parse(tools.text)).toEqual({ error: 'not connected: connecting' });
    const answer = await send('/api/rpc', { ...api, host }, JSON.stringify({ op: 'answer', params: { id: 7, result: {} } }));
    expect(answer.status).toBe(404);
  });

  test('a server request waits for the page, is listed to a page that connects later, and ends when answered', async () => {
    const { host, api, session } = await start();
    const asked = session.handlers.elicitation!(
      { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } as never,
      {
        era: 'legacy',
        protocolVersion: '2025-11-25',
      } as never,
    );
    const events: string[] = [];
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve) =>
      request(`${server!.origin}/api/events`, { headers: { host, [TOKEN_HEADER]: TOKEN } }, resolve).end(),
    );
    stream.setEncoding('utf8').on('data', (chunk: string) => events.push(chunk));
    await expect.poll(() => events.join('')).toContain('"type":"input","id":1,"method":"elicitation/create"');
    const ok = await send('/api/rpc', { ...api, host }, JSON.stringify({ op: 'answer', params: { id: 1, result: { action: 'decline' } } }));
    expect(ok.status).toBe(200);
    await expect(asked).resolves.toEqual({ action: 'decline' });
    await expect.poll(() => events.join('')).toContain('"type":"input-done","id":1,"outcome":"answered"');
    // Answered once only.
    expect((await send('/api/rpc', { ...api, host }, JSON.stringify({ op: 'answer', params: { id: 1, result: {} } }))).status).toBe(404);
    stream.destroy();
  });

  test('a server request cancelled by the server is withdrawn from the page', async () => {
    const { session } = await start();
    const controller = new AbortController();
    const asked = session.handlers.roots!({ era: 'legacy', protocolVersion: '2025-11-25', signal: controller.signal } as never);
    expect(session.pendingInputs()).toHaveLength(1);
    controller.abort();
    await expect(asked).rejects.toThrow('cancelled by the server');
    expect(session.pendingInputs()).toHaveLength(0);
  });
});
