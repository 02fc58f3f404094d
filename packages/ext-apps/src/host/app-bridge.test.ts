import { afterEach, describe, expect, test, vi } from 'vitest';
import { AppBridge } from './app-bridge.js';
import type { AppBridgeOptions } from './bridge-types.js';

/** An iframe and its window as far as the bridge uses them (the browser tests run the real ones). */
function fakeFrame() {
  const attributes = new Map<string, string>();
  const listeners: ((event: MessageEvent) => void)[] = [];
  const view = { postMessage: vi.fn() };
  const window = {
    addEventListener: (_type: string, listener: (event: MessageEvent) => void) => listeners.push(listener),
    removeEventListener: (_type: string, listener: (event: MessageEvent) => void) => listeners.splice(listeners.indexOf(listener), 1),
  };
  const iframe = {
    src: '',
    srcdoc: '',
    style: {},
    contentWindow: view,
    ownerDocument: { defaultView: window },
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    removeAttribute: (name: string) => attributes.delete(name),
  };
  const send = (data: unknown, source: unknown = view): void => {
    for (const listener of [...listeners]) listener({ source, data } as MessageEvent);
  };
  return { iframe, view, attributes, listeners, send };
}

const server = { callTool: vi.fn(), readResource: vi.fn(), listAllTools: vi.fn(async () => [{ name: 'echo' }]) };

function bridge(frame: ReturnType<typeof fakeFrame>, extra: Partial<AppBridgeOptions>): AppBridge {
  return new AppBridge({
    server,
    iframe: frame.iframe as unknown as HTMLIFrameElement,
    hostInfo: { name: 'test-host', version: '1.0.0' },
    ...extra,
  });
}

describe("AppBridge with src (the view served from the host's own origin)", () => {
  test('loads the URL into a frame sandboxed to scripts, without a srcdoc, and speaks the same JSON-RPC', async () => {
    const frame = fakeFrame();
    const app = bridge(frame, { src: 'http://127.0.0.1:4000/view/abc' });
    app.start();
    expect(frame.attributes.get('sandbox')).toBe('allow-scripts');
    expect(frame.attributes.get('referrerpolicy')).toBe('no-referrer');
    expect(frame.iframe.src).toBe('http://127.0.0.1:4000/view/abc');
    expect(frame.iframe.srcdoc).toBe('');
    frame.send({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    await vi.waitFor(() => expect(frame.view.postMessage).toHaveBeenCalledTimes(1));
    const [answer, target] = frame.view.postMessage.mock.calls[0]!;
    expect(target).toBe('*');
    expect(answer).toMatchObject({ id: 1, result: { hostInfo: { name: 'test-host' } } });
    // A message from any other window is not the view's.
    frame.send({ jsonrpc: '2.0', id: 2, method: 'ping' }, {});
    frame.send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await app.initialized;
    app.dispose();
    expect(frame.attributes.has('src')).toBe(false);
    expect(frame.iframe.srcdoc).toBe('');
    expect(frame.listeners).toHaveLength(0);
    expect(frame.view.postMessage).toHaveBeenCalledTimes(1);
  });

  test('refuses both or neither of html and src, and a src that is not http(s)', () => {
    for (const extra of [
      {},
      { html: '<p>x</p>', src: 'http://127.0.0.1:1/view/a' },
      { src: 'javascript:alert(1)' },
      { src: 'data:text/html,<script>1</script>' },
      { src: '/view/relative' },
    ]) {
      const frame = fakeFrame();
      expect(() => bridge(frame, extra).start()).toThrow(TypeError);
      expect(frame.attributes.size).toBe(0);
      expect(frame.listeners).toHaveLength(0);
    }
  });

  test('html still becomes a srcdoc with the declared CSP first', () => {
    const frame = fakeFrame();
    bridge(frame, { html: '<!DOCTYPE html><p>view</p>' }).start();
    expect(frame.iframe.src).toBe('');
    expect(frame.iframe.srcdoc).toMatch(/^<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
  });
});

describe('AppBridge rate limit', () => {
  afterEach(() => vi.useRealTimers());
  // Lets the bridge's promise chains run (real timers: fake ones would move the bucket's clock, as vi.waitFor does).
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

  test('an answered message leaves no room for the next: a request right after it, past the budget, goes unanswered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const frame = fakeFrame();
    const app = bridge(frame, { html: '<p>view</p>', limits: { messagesPerSecond: 20, burst: 100 } });
    app.start();
    const answered = (id: number): unknown => frame.view.postMessage.mock.calls.map(([message]) => message).find((m) => m.id === id);
    frame.send({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    frame.send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await app.initialized;
    // A flood at one instant spends the budget: the 98 tokens left answer 98 of the calls (8 relayed, the rest refused
    // as too many in flight), the others are dropped.
    for (let id = 100; id < 5100; id++) frame.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await settle();
    expect(frame.view.postMessage.mock.calls.filter(([message]) => message.id >= 100 && message.id < 5100)).toHaveLength(98);
    // 60 ms later 1.2 tokens have come back: a ping takes one and is answered…
    vi.advanceTimersByTime(60);
    frame.send({ jsonrpc: '2.0', id: 6000, method: 'ping', params: {} });
    await settle();
    expect(answered(6000)).toMatchObject({ result: {} });
    // …and a call sent as soon as that answer arrives finds less than one: dropped, never answered (a view that waits
    // for it waits forever), until the budget has refilled.
    vi.advanceTimersByTime(5);
    frame.send({ jsonrpc: '2.0', id: 6001, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await settle();
    expect(answered(6001)).toBeUndefined();
    vi.advanceTimersByTime(50);
    frame.send({ jsonrpc: '2.0', id: 6002, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await settle();
    expect(answered(6002)).toMatchObject({ jsonrpc: '2.0', id: 6002 });
    app.dispose();
  });
});
