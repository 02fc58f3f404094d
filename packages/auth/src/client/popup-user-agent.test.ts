import { afterEach, describe, expect, test } from 'vitest';
import { AuthError } from '../errors.js';
import { completePopupAuthorization, popupUserAgent, type PopupWindow } from './popup-user-agent.js';

const REDIRECT = 'https://app.example/oauth/callback';
const AUTHORIZE = new URL('https://as.example/authorize?client_id=app&state=s1');

/** A popup the test controls: what was opened, whether it was closed, and by whom. */
function fakePopups() {
  const opened: Array<{ url: string; window: PopupWindow & { closedBy?: string } }> = [];
  return {
    opened,
    open(url: string): PopupWindow {
      const window = {
        closed: false,
        closedBy: undefined as string | undefined,
        close() {
          window.closed = true;
          window.closedBy ??= 'agent';
        },
      };
      opened.push({ url, window });
      return window;
    },
  };
}

const channels: BroadcastChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => channel.close()));

describe('popupUserAgent', () => {
  test('opens the authorization URL and resolves with the redirect the popup completes; the popup is closed', async () => {
    const popups = fakePopups();
    const agent = popupUserAgent({ open: popups.open, channel: 'test-ok' });
    const pending = agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1' });
    expect(popups.opened[0]!.url).toBe(AUTHORIZE.href);
    // Another app page on the same channel, another path, another state: ignored.
    completePopupAuthorization({ channel: 'test-ok', url: `${REDIRECT}?code=old&state=s0` });
    completePopupAuthorization({ channel: 'test-ok', url: `https://app.example/elsewhere?code=c&state=s1` });
    completePopupAuthorization({ channel: 'test-ok', url: `${REDIRECT}?code=c1&state=s1&iss=https%3A%2F%2Fas.example` });
    const back = await pending;
    expect(back.searchParams.get('code')).toBe('c1');
    expect(popups.opened[0]!.window.closed).toBe(true);
  });

  test('a blocked popup fails at once with advice, not a hang', async () => {
    const agent = popupUserAgent({ open: () => null, channel: 'test-blocked' });
    const error = await agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'interaction_cancelled', message: expect.stringContaining('blocked the login popup') });
  });

  test('the person closing the popup ends the wait', async () => {
    const popups = fakePopups();
    const agent = popupUserAgent({ open: popups.open, channel: 'test-closed', closedPollMs: 5 });
    const pending = agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1' });
    popups.opened[0]!.window.closedBy = 'person';
    popups.opened[0]!.window.close();
    await expect(pending).rejects.toMatchObject({ code: 'interaction_cancelled', message: expect.stringContaining('closed') });
  });

  test('an aborted signal ends the wait and closes the popup; one aborted before starts nothing', async () => {
    const popups = fakePopups();
    const agent = popupUserAgent({ open: popups.open, channel: 'test-abort' });
    const controller = new AbortController();
    const pending = agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'interaction_cancelled' });
    expect(popups.opened[0]!.window.closedBy).toBe('agent');
    await expect(agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1', signal: controller.signal })).rejects.toMatchObject({
      code: 'interaction_cancelled',
    });
    expect(popups.opened).toHaveLength(1);
  });

  test('a popup that never comes back times out', async () => {
    const popups = fakePopups();
    const agent = popupUserAgent({ open: popups.open, channel: 'test-timeout', timeoutMs: 1 });
    await expect(agent.authorize(AUTHORIZE, { redirectUri: REDIRECT, state: 's1' })).rejects.toMatchObject({ code: 'interaction_timeout' });
  });
});

describe('completePopupAuthorization', () => {
  test('posts only a redirect that carries a code or an error', async () => {
    const listener = new BroadcastChannel('test-complete');
    channels.push(listener);
    const received: unknown[] = [];
    const arrived = new Promise<void>((resolve) => {
      listener.onmessage = (event: MessageEvent) => {
        received.push(event.data);
        resolve();
      };
    });
    expect(completePopupAuthorization({ channel: 'test-complete', url: `${REDIRECT}?nothing=here` })).toBe(false);
    expect(completePopupAuthorization({ channel: 'test-complete', url: `${REDIRECT}?error=access_denied&state=s1` })).toBe(true);
    await arrived;
    expect(received).toEqual([{ type: 'wiremcp-oauth-redirect', url: `${REDIRECT}?error=access_denied&state=s1` }]);
  });
});
