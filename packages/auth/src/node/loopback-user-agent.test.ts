import { afterEach, describe, expect, test, vi } from 'vitest';
import { startLoopbackUserAgent, type LoopbackUserAgent } from './loopback-user-agent.js';

let agent: LoopbackUserAgent | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await agent?.close();
  agent = undefined;
});

describe('startLoopbackUserAgent', () => {
  test('listens on 127.0.0.1 and completes on the redirect carrying the pending state', async () => {
    const lines: string[] = [];
    const opened: URL[] = [];
    agent = await startLoopbackUserAgent({ openBrowser: (url) => void opened.push(url), print: (line) => lines.push(line) });
    expect(agent.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const pending = agent.authorize(new URL('https://as.example.com/authorize?x=1'), {
      redirectUri: agent.redirectUri,
      state: 'good-state',
    });
    expect(opened.map(String)).toEqual(['https://as.example.com/authorize?x=1']);
    expect(lines[0]).toContain('https://as.example.com/authorize?x=1');
    const forged = await fetch(`${agent.redirectUri}?code=evil&state=other`);
    expect(forged.status).toBe(400);
    expect((await fetch(agent.redirectUri.replace('/callback', '/elsewhere'))).status).toBe(404);
    const ok = await fetch(`${agent.redirectUri}?code=abc&state=good-state&iss=https%3A%2F%2Fas.example.com`);
    expect(ok.status).toBe(200);
    const redirect = await pending;
    expect(redirect.searchParams.get('code')).toBe('abc');
    expect(redirect.searchParams.get('iss')).toBe('https://as.example.com');
    expect((await fetch(`${agent.redirectUri}?code=again&state=good-state`)).status).toBe(400);
  });

  test('gives up after the timeout with interaction_timeout', async () => {
    agent = await startLoopbackUserAgent({ openBrowser: false, print: () => undefined, timeoutMs: 60_000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = agent.authorize(new URL('https://as.example.com/authorize'), { redirectUri: agent.redirectUri, state: 's' });
    vi.advanceTimersByTime(60_000);
    await expect(pending).rejects.toMatchObject({ code: 'interaction_timeout' });
  });

  test('an abort signal or closing the listener cancels the wait', async () => {
    agent = await startLoopbackUserAgent({ openBrowser: false, print: () => undefined });
    const controller = new AbortController();
    const aborted = agent.authorize(new URL('https://as.example.com/a'), {
      redirectUri: agent.redirectUri,
      state: 's',
      signal: controller.signal,
    });
    controller.abort(new Error('user cancelled'));
    await expect(aborted).rejects.toThrow('user cancelled');
    const closed = agent.authorize(new URL('https://as.example.com/a'), { redirectUri: agent.redirectUri, state: 't' });
    await agent.close();
    agent = undefined;
    await expect(closed).rejects.toMatchObject({ code: 'interaction_cancelled' });
  });
});
