/**
 * `@wiremcp/host` logging in to OAuth-protected servers (the everything server behind the in-process oidc-provider):
 * a confidential client from the configuration (`client_credentials`), an interactive login through the host's
 * loopback redirect (the test plays the person at the browser), and a host without interactive login, whose server
 * fails at once with the reason rather than being retried. No secret reaches the status table.
 */
import { automaticUserAgent } from '@wiremcp/auth/client';
import { McpHost, parseConfigText } from '@wiremcp/host';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { SERVICE_CLIENT, startOpenIdProvider } from './openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers } from './server-process.js';

beforeAll(() => assertBuilt(EVERYTHING));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  await stopAllServers();
});

/** The person at the browser: log in, consent, land on the host's loopback redirect. */
async function browse(authorization: URL): Promise<void> {
  const redirectUri = authorization.searchParams.get('redirect_uri')!;
  const callback = await automaticUserAgent().authorize(authorization, { redirectUri, state: authorization.searchParams.get('state')! });
  await (await fetch(callback)).text();
}

describe('a host over OAuth-protected servers', () => {
  test('client credentials from the configuration, and an interactive login, both reach the server', async () => {
    const op = await startOpenIdProvider();
    cleanup.push(() => op.close());
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read']);
    const config = await parseConfigText(
      JSON.stringify({
        mcpServers: {
          machine: {
            type: 'streamable-http',
            url: server.url,
            oauth: {
              grant: 'client_credentials',
              clientId: SERVICE_CLIENT.id,
              clientSecret: '${env:SERVICE_SECRET}',
              scopes: ['mcp:read'],
            },
          },
          person: { type: 'http', url: server.url, oauth: {} },
        },
      }),
      { env: { SERVICE_SECRET: SERVICE_CLIENT.secret } },
    );
    let opened!: (url: URL) => void;
    const authorization = new Promise<URL>((resolve) => (opened = resolve));
    const host = new McpHost(config, {
      oauth: { login: { openBrowser: (url) => opened(url), print: () => {} } },
      restart: { maxAttempts: 1 },
    });
    cleanup.push(() => host.close());
    // The browser step runs as soon as the host opens the authorization URL.
    const started = host.start();
    await browse(await authorization);
    await started;
    const rows = Object.fromEntries(host.status().map((row) => [row.name, row]));
    expect(rows.machine, rows.machine?.lastError).toMatchObject({ state: 'ready', era: 'modern' });
    expect(rows.person, rows.person?.lastError).toMatchObject({ state: 'ready' });
    for (const name of ['machine', 'person']) {
      const result = await host.callTool(`${name}.test_simple_text`, {});
      expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    }
    expect(JSON.stringify(host.status())).not.toContain(SERVICE_CLIENT.secret);
  }, 90_000);

  test('without interactive login a server that needs one fails at once, saying why', async () => {
    const op = await startOpenIdProvider();
    cleanup.push(() => op.close());
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read']);
    const config = await parseConfigText(JSON.stringify({ mcpServers: { person: { type: 'http', url: server.url, oauth: {} } } }));
    const host = new McpHost(config);
    cleanup.push(() => host.close());
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'failed', failures: 1 });
    expect(host.status()[0]!.lastError).toMatch(/authoriz/i);
  }, 60_000);
});
