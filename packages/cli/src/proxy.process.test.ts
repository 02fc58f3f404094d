/**
 * `wiremcp proxy` forwarding what the upstream server asks of the client (sampling, elicitation, roots) and
 * resource subscriptions, driven through the real command with the everything server upstream.
 */
import { mkdtempSync, readFileSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient, type EraPreference, type InputHandlers } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { exited, startHttp, stopAll, WIREMCP } from './cli.test-util.js';

const EVERYTHING = fileURLToPath(new URL('../../../servers/everything/bin/wiremcp-everything.js', import.meta.url));
const WATCHED = 'test://watched-resource';

const clients = new Set<McpClient>();

afterEach(async () => {
  await Promise.all([...clients].map((client) => client.close().catch(() => {})));
  clients.clear();
  await stopAll();
});

/** A host's answers: the sampled text and the elicited user name carry `who`, so each client's are told apart. */
function answers(who: string, onSampling?: () => Promise<void>): InputHandlers {
  return {
    sampling: async (params) => {
      await onSampling?.();
      const first = params.messages[0]?.content as { text?: string } | undefined;
      return { role: 'assistant', model: `model-of-${who}`, content: { type: 'text', text: `${who} heard ${first?.text ?? '?'}` } };
    },
    elicitation: () => ({ action: 'accept', content: { username: who, email: `${who}@example.test` } }),
    roots: () => ({ roots: [{ uri: `file:///home/${who}`, name: who }] }),
  };
}

function newClient(era: EraPreference, handlers: InputHandlers): McpClient {
  const client = new McpClient({ name: 'proxy-test', version: '1.0.0' }, { era, handlers, onError: () => {} });
  clients.add(client);
  return client;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('\n');
}

/** Resolves with the next `notifications/resources/updated` URI the client hears. */
function nextUpdate(client: McpClient): Promise<string> {
  return new Promise((resolve) => {
    const handle = client.onResourceUpdated(({ uri }) => {
      handle();
      resolve(uri);
    });
  });
}

describe('wiremcp proxy on stdio: the upstream server asks the downstream client', () => {
  for (const downstream of ['legacy', 'modern'] as const) {
    for (const upstream of ['legacy', 'modern'] as const) {
      test(`${downstream} downstream, ${upstream} upstream: sampling, elicitation, roots, subscriptions`, async () => {
        const client = newClient(downstream, answers('ada'));
        await client.connect(
          new StdioClientTransport({ command: process.execPath, args: [WIREMCP, 'proxy', '--era', upstream, 'node', EVERYTHING] }),
        );
        expect(client.era).toBe(downstream);

        const sampled = await client.callTool('test_sampling', { prompt: 'hello?' });
        expect(textOf(sampled)).toBe('LLM response: ada heard hello?');
        const elicited = await client.callTool('test_elicitation', { message: 'who are you?' });
        expect(textOf(elicited)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.test"}');
        const roots = await client.callTool('test_list_roots', {});
        expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///home/ada', name: 'ada' }] });

        expect(client.serverCapabilities?.resources?.subscribe).toBe(true);
        await client.subscribeResource(WATCHED);
        const updated = nextUpdate(client);
        await client.callTool('test_update_watched_resource', {});
        expect(await updated).toBe(WATCHED);
        await client.unsubscribeResource(WATCHED);
      });
    }
  }

  test('a downstream client without sampling: the upstream server gets a clear refusal, and so does the caller', async () => {
    const client = newClient('legacy', { roots: () => ({ roots: [] }) });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [WIREMCP, 'proxy', '--era', 'legacy', 'node', EVERYTHING] }),
    );
    await expect(client.callTool('test_sampling', { prompt: 'anyone?' })).rejects.toThrow(
      /cannot forward sampling\/createMessage: the downstream client does not support it/,
    );
    // Roots it does support.
    const roots = await client.callTool('test_list_roots', {});
    expect(roots.structuredContent).toEqual({ roots: [] });
  });
});

describe('wiremcp proxy on stdio in front of an HTTP server', () => {
  for (const upstream of ['legacy', 'modern'] as const) {
    test(`${upstream} upstream over HTTP: its requests reach the downstream client; subscriptions too`, async () => {
      const server = await startHttp([EVERYTHING, '--http', '127.0.0.1:0']);
      const client = newClient('legacy', answers('cy'));
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [WIREMCP, 'proxy', '--era', upstream, server.url] }),
      );
      const sampled = await client.callTool('test_sampling', { prompt: 'over http?' });
      expect(textOf(sampled)).toBe('LLM response: cy heard over http?');
      const roots = await client.callTool('test_list_roots', {});
      expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///home/cy', name: 'cy' }] });
      await client.subscribeResource(WATCHED);
      const updated = nextUpdate(client);
      await client.callTool('test_update_watched_resource', {});
      expect(await updated).toBe(WATCHED);
    });
  }
});

describe('wiremcp proxy --http: several downstream sessions', () => {
  test('two concurrent legacy sessions each answer their own sampling requests', async () => {
    const proxy = await startHttp([WIREMCP, 'proxy', '--http', '127.0.0.1:0', 'node', EVERYTHING]);
    // Each sampling answer waits until both sessions have been asked: both upstream requests are in flight at once.
    let arrived = 0;
    let bothAsked!: () => void;
    const asked = new Promise<void>((resolve) => (bothAsked = resolve));
    const barrier = async () => {
      arrived += 1;
      if (arrived === 2) bothAsked();
      await asked;
    };
    const [ada, bob] = [newClient('legacy', answers('ada', barrier)), newClient('legacy', answers('bob', barrier))];
    await Promise.all([ada.connect(httpTransportFactory(new URL(proxy.url))), bob.connect(httpTransportFactory(new URL(proxy.url)))]);
    const [fromAda, fromBob] = await Promise.all([
      ada.callTool('test_sampling', { prompt: 'one' }),
      bob.callTool('test_sampling', { prompt: 'two' }),
    ]);
    expect(textOf(fromAda)).toBe('LLM response: ada heard one');
    expect(textOf(fromBob)).toBe('LLM response: bob heard two');
    const roots = await bob.callTool('test_list_roots', {});
    expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///home/bob', name: 'bob' }] });
    await Promise.all([ada.close(), bob.close()]);
    proxy.child.kill('SIGTERM');
    expect(await exited(proxy.child)).toBe(0);
  });

  test("a legacy session's upstream connection (here a server process of its own) ends with the session", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiremcp-proxy-'));
    const ended = join(dir, 'ended');
    let watcher: FSWatcher | undefined;
    try {
      // The target notes each of its processes' end in a file; the one opened at start lives as long as the proxy.
      const target = ['sh', '-c', 'node "$0"; echo ended >> "$1"', EVERYTHING, ended];
      const proxy = await startHttp([WIREMCP, 'proxy', '--http', '127.0.0.1:0', ...target]);
      let seen!: () => void;
      const endings = new Promise<void>((resolve) => (seen = resolve));
      watcher = watch(dir, () => {
        if (readFileSync(ended, { encoding: 'utf8', flag: 'a+' }).length > 0) seen();
      });
      const client = newClient('legacy', answers('dee'));
      await client.connect(httpTransportFactory(new URL(proxy.url)));
      expect(textOf(await client.callTool('test_sampling', { prompt: 'bye?' }))).toBe('LLM response: dee heard bye?');
      await client.close();
      await endings;
      expect(readFileSync(ended, 'utf8')).toBe('ended\n');
      // The proxy still serves: the connection opened at start is untouched.
      const modern = newClient('modern', answers('eve'));
      await modern.connect(httpTransportFactory(new URL(proxy.url)));
      expect((await modern.listTools()).tools.length).toBeGreaterThan(0);
      await modern.close();
      proxy.child.kill('SIGTERM');
      expect(await exited(proxy.child)).toBe(0);
    } finally {
      watcher?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('2026-07-28 sessions share one upstream subscription per URI until the last one leaves', async () => {
    const proxy = await startHttp([WIREMCP, 'proxy', '--http', '127.0.0.1:0', 'node', EVERYTHING]);
    const [ada, bob] = [newClient('modern', answers('ada')), newClient('modern', answers('bob'))];
    await Promise.all([ada.connect(httpTransportFactory(new URL(proxy.url))), bob.connect(httpTransportFactory(new URL(proxy.url)))]);
    expect([ada.era, bob.era]).toEqual(['modern', 'modern']);
    await ada.subscribeResource(WATCHED);
    await bob.subscribeResource(WATCHED);
    const both = Promise.all([nextUpdate(ada), nextUpdate(bob)]);
    await ada.callTool('test_update_watched_resource', {});
    expect(await both).toEqual([WATCHED, WATCHED]);

    // Ada leaves; Bob's subscription, and the upstream one behind it, stays.
    await ada.unsubscribeResource(WATCHED);
    const bobAgain = nextUpdate(bob);
    await ada.callTool('test_update_watched_resource', {});
    expect(await bobAgain).toBe(WATCHED);

    // A modern downstream request that samples is answered through input-required rounds.
    const sampled = await bob.callTool('test_sampling', { prompt: 'three' });
    expect(textOf(sampled)).toBe('LLM response: bob heard three');
    await Promise.all([ada.close(), bob.close()]);
    proxy.child.kill('SIGTERM');
    expect(await exited(proxy.child)).toBe(0);
  });
});
