/** The login the inspector offers its page: one at a time, progress told as events, failures leave it offered. */
import { expect, test } from 'vitest';
import { InspectorLogin, type LoginRunner } from './inspector-login.js';
import { InspectorSession, type InspectorEvent } from './inspector-session.js';

function deferred(): { promise: Promise<void>; resolve(): void; reject(error: Error): void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('a login opens the URL, refuses a second start while running, and ends done', async () => {
  const events: InspectorEvent[] = [];
  const gate = deferred();
  const run: LoginRunner = async (open) => {
    open(new URL('https://as.example/authorize?state=s'));
    await gate.promise;
  };
  const login = new InspectorLogin('HTTP 401', run, (event) => events.push(event));
  expect(login.view).toEqual({ reason: 'HTTP 401', status: 'needed' });
  expect(login.start()).toBe(true);
  expect(login.start()).toBe(false);
  expect(login.view.status).toBe('running');
  expect(events).toEqual([{ type: 'login', status: 'open', url: 'https://as.example/authorize?state=s' }]);
  gate.resolve();
  await settled();
  expect(events.at(-1)).toEqual({ type: 'login', status: 'done' });
  expect(login.start()).toBe(false);
});

test('a failed login is reported and offered again; a URL that is not a web page is never handed to the page', async () => {
  const events: InspectorEvent[] = [];
  const login = new InspectorLogin(
    'HTTP 401',
    async (open) => open(new URL('javascript:alert(1)')),
    (event) => events.push(event),
  );
  expect(login.start()).toBe(true);
  await settled();
  expect(events).toEqual([{ type: 'login', status: 'failed', message: 'refusing to open a javascript: authorization URL' }]);
  expect(login.view.status).toBe('needed');
  expect(login.start()).toBe(true);
});

test('the session runs the login operation only when a login was offered', async () => {
  const session = new InspectorSession('http://127.0.0.1:1/mcp');
  await expect(session.run('login', {})).rejects.toMatchObject({ status: 404 });
  const gate = deferred();
  session.offerLogin('HTTP 401', () => gate.promise);
  expect(session.state().login).toEqual({ reason: 'HTTP 401', status: 'needed' });
  await expect(session.run('login', {})).resolves.toEqual({});
  await expect(session.run('login', {})).rejects.toMatchObject({ status: 409 });
  gate.reject(new Error('the authorization server is down'));
  await settled();
  expect(session.state().login).toEqual({ reason: 'HTTP 401', status: 'needed' });
});
