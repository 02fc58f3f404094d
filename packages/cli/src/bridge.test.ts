import { McpClient } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { McpServer } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import { createBridgeServer } from './bridge.js';
import { DownstreamInputs } from './downstream-inputs.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})));
});

/** A bridge in front of `upstreamServer`, reached by an upstream client of `era`; all three closed after the test. */
async function bridgeFor(upstreamServer: McpServer, era: 'legacy' | 'modern'): Promise<{ bridge: McpServer; inputs: DownstreamInputs }> {
  const [near, far] = createLinkedPair();
  await upstreamServer.connect(far);
  const inputs = new DownstreamInputs();
  const upstream = new McpClient({ name: 'bridge', version: '1.0.0' }, { era, handlers: inputs.handlers });
  await upstream.connect(near);
  const bridge = createBridgeServer(upstream, inputs);
  closers.push(
    () => bridge.close(),
    () => upstream.close(),
    () => upstreamServer.close(),
  );
  return { bridge, inputs };
}

/** An upstream server whose subscription hooks record what the bridge subscribes to, and a bridge in front of it. */
async function bridged() {
  const events: string[] = [];
  const upstreamServer = new McpServer(
    { name: 'upstream', version: '1.0.0' },
    {
      onSubscribe: (uri) => {
        if (uri.startsWith('secret://')) {
          events.push(`refused ${uri}`);
          throw new Error('not for you');
        }
        events.push(`+${uri}`);
      },
      onUnsubscribe: (uri) => void events.push(`-${uri}`),
    },
  );
  upstreamServer.registerResourceTemplate({ uriTemplate: 'demo://{x}', name: 'demo' }, (uri) => ({ contents: [{ uri, text: uri }] }));
  const { bridge, inputs } = await bridgeFor(upstreamServer, 'legacy');
  return { events, upstreamServer, bridge, inputs };
}

async function downstream(bridge: McpServer): Promise<{ client: McpClient; updates: string[] }> {
  const [near, far] = createLinkedPair();
  await bridge.connect(far);
  const client = new McpClient({ name: 'host', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(near);
  closers.push(() => client.close());
  const updates: string[] = [];
  client.onResourceUpdated(({ uri }) => void updates.push(uri));
  return { client, updates };
}

/** Resolves once `check` holds, turning the event loop a bounded number of times. */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check() && turn < 1000; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

describe('the bridge forwards resource subscriptions', () => {
  test('one upstream subscription per URI, held while any downstream session holds it', async () => {
    const { events, upstreamServer, bridge } = await bridged();
    const ada = await downstream(bridge);
    const bob = await downstream(bridge);
    expect(ada.client.serverCapabilities?.resources).toMatchObject({ subscribe: true });

    await ada.client.subscribeResource('demo://a');
    await bob.client.subscribeResource('demo://a');
    await ada.client.subscribeResource('demo://b');
    expect(events).toEqual(['+demo://a', '+demo://b']);

    upstreamServer.notifyResourceUpdated('demo://a');
    await until(() => ada.updates.length === 1 && bob.updates.length === 1);
    expect([ada.updates, bob.updates]).toEqual([['demo://a'], ['demo://a']]);

    // Ada unsubscribes from a (Bob still holds it) and goes away (releasing b).
    await ada.client.unsubscribeResource('demo://a');
    await ada.client.close();
    await until(() => events.length === 3);
    expect(events).toEqual(['+demo://a', '+demo://b', '-demo://b']);

    upstreamServer.notifyResourceUpdated('demo://a');
    await until(() => bob.updates.length === 2);
    expect(ada.updates).toEqual(['demo://a']);

    // The last subscriber leaves: released upstream.
    await bob.client.unsubscribeResource('demo://a');
    await until(() => events.length === 4);
    expect(events.at(-1)).toBe('-demo://a');
  });

  test('a refused upstream subscription is refused downstream, and the next subscriber asks again', async () => {
    const { events, bridge } = await bridged();
    const ada = await downstream(bridge);
    await expect(ada.client.subscribeResource('secret://x')).rejects.toThrow(/secret:\/\/x.*not for you/);
    await expect(ada.client.subscribeResource('secret://x')).rejects.toThrow(/not for you/);
    expect(events).toEqual(['refused secret://x', 'refused secret://x']);
  });
});

describe('the bridge forwards roots outside any request', () => {
  test('a downstream roots change reaches the upstream server, whose roots/list is answered by the downstream client', async () => {
    const { upstreamServer, bridge, inputs } = await bridged();
    const asked = new Promise<unknown>((resolve, reject) => {
      upstreamServer.onrootslistchanged = (connection) => void connection.peer.request('roots/list', {}).then(resolve, reject);
    });
    const [near, far] = createLinkedPair();
    inputs.connection = await bridge.connect(far);
    const client = new McpClient(
      { name: 'host', version: '1.0.0' },
      { era: 'legacy', handlers: { roots: () => ({ roots: [{ uri: 'file:///work' }] }) } },
    );
    await client.connect(near);
    closers.push(() => client.close());
    await client.notifyRootsListChanged();
    expect(await asked).toEqual({ roots: [{ uri: 'file:///work' }] });
  });

  test('with no downstream client to ask, the upstream server gets -32601', async () => {
    const { upstreamServer, bridge } = await bridged();
    const asked = new Promise<unknown>((resolve) => {
      upstreamServer.onrootslistchanged = (connection) => void connection.peer.request('roots/list', {}).catch(resolve);
    });
    // The downstream connection is not the one these inputs route to: nothing to ask.
    const [near, far] = createLinkedPair();
    await bridge.connect(far);
    const client = new McpClient({ name: 'host', version: '1.0.0' }, { era: 'legacy', handlers: { roots: () => ({ roots: [] }) } });
    await client.connect(near);
    closers.push(() => client.close());
    await client.notifyRootsListChanged();
    expect(await asked).toMatchObject({ code: -32601, message: expect.stringMatching(/no downstream client is connected/) as unknown });
  });
});

/** An upstream server (of `era`) with two tools that each sample once both have started, behind a bridge. */
async function twoAskingTools(era: 'legacy' | 'modern') {
  const upstreamServer = new McpServer({ name: 'upstream', version: '1.0.0' }, { onInternalError: () => {} });
  let started = 0;
  let release!: () => void;
  const bothStarted = new Promise<void>((resolve) => (release = resolve));
  for (const name of ['ask_a', 'ask_b']) {
    upstreamServer.registerTool({ name, inputSchema: { type: 'object' } }, async (_args, ctx) => {
      if (++started === 2) release();
      await bothStarted;
      const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: name } }], maxTokens: 10 });
      return { content: [{ type: 'text', text: (answer.content as { text: string }).text }] };
    });
  }
  const { bridge, inputs } = await bridgeFor(upstreamServer, era);
  const [down, up] = createLinkedPair();
  inputs.connection = await bridge.connect(up);
  const sampling = (params: { messages: { content: unknown }[] }) => ({
    role: 'assistant' as const,
    model: 'm',
    content: { type: 'text' as const, text: `answer to ${(params.messages[0]?.content as { text: string }).text}` },
  });
  const client = new McpClient({ name: 'host', version: '1.0.0' }, { era: 'modern', handlers: { sampling } });
  await client.connect(down);
  closers.push(() => client.close());
  return client;
}

describe('2026-07-28 downstream requests in flight at once', () => {
  test('a 2026-07-28 upstream server names the request it serves: each one is answered through input-required rounds', async () => {
    const client = await twoAskingTools('modern');
    const [a, b] = await Promise.all([client.callTool('ask_a', {}), client.callTool('ask_b', {})]);
    expect([a.content, b.content]).toEqual([[{ type: 'text', text: 'answer to ask_a' }], [{ type: 'text', text: 'answer to ask_b' }]]);
  });

  test('a legacy upstream server does not: it gets an error rather than an answer meant for another request', async () => {
    const client = await twoAskingTools('legacy');
    const calls = await Promise.allSettled([client.callTool('ask_a', {}), client.callTool('ask_b', {})]);
    for (const call of calls) {
      const text = call.status === 'rejected' ? String(call.reason) : JSON.stringify(call.value);
      expect(text).toMatch(/cannot forward sampling\/createMessage: 2 downstream requests are in flight/);
    }
  });
});
