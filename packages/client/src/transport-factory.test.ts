// connect(factory): era detection across transports, as the HTTP client will run it — a 2026-07-28 attempt, then
// `initialize` on another transport, then a third — here with in-memory transports; and the era cache, per client.
import { createLinkedPair, type Transport } from '@wiremcp/jsonrpc';
import { LocalError, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { demoServer, initializeResult, scripted } from './client.test-util.js';
import { MemoryEraCache } from './era-cache.js';
import { MAX_TRANSPORT_ATTEMPTS, type TransportAttempt } from './transport-link.js';

const INFO = { name: 'fallback', version: '1.0.0' };

/** A transport that cannot start, like an HTTP endpoint that answers 404 to everything. */
function unreachable(): Transport {
  const [end] = createLinkedPair();
  end.start = () => Promise.reject(new LocalError('SEND_FAILED', 'HTTP 404 Not Found'));
  return end;
}

/** A legacy-only server (discover is an unknown method) on a fresh in-memory transport. */
async function legacyOnly(version = '2025-03-26') {
  return scripted((method) => {
    if (method === 'server/discover') throw new RpcError(-32601, 'Method not found');
    if (method === 'initialize') return initializeResult(version);
    return {};
  });
}

describe('connect with a transport factory', () => {
  test('modern, then legacy, then another legacy transport: each attempt says why the previous one failed', async () => {
    const attempts: TransportAttempt[] = [];
    const refusing = await scripted((method) => {
      // A server that answers initialize with an error: the factory moves on to the next transport.
      if (method === 'initialize') throw new RpcError(-32600, 'No sessions here');
      return {};
    });
    const legacy = await legacyOnly();
    const transports = [unreachable(), refusing.transport, legacy.transport];
    const client = new McpClient(INFO);
    await client.connect((attempt) => {
      attempts.push(attempt);
      const next = transports[attempt.attempt - 1];
      if (!next) throw attempt.previousError;
      return next;
    });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-03-26');
    expect(attempts.map((a) => [a.era, a.attempt])).toEqual([
      ['modern', 1],
      ['legacy', 2],
      ['legacy', 3],
    ]);
    expect(attempts[1]!.previousError).toMatchObject({ code: 'SEND_FAILED' });
    expect(attempts[1]!.previous).toBe(transports[0]);
    expect(attempts[2]!.previousError).toMatchObject({ code: -32600, message: 'No sessions here' });
    // The transport of a failed attempt is closed once another one replaces it.
    expect((transports[1] as unknown as { closed: boolean }).closed).toBe(true);
    expect(legacy.methods()).toEqual(['initialize', 'notifications/initialized']);
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  test('a modern server is used by the first transport: the factory is asked once', async () => {
    const { server } = demoServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const eras: string[] = [];
    const client = new McpClient(INFO);
    await client.connect((attempt) => (eras.push(attempt.era), a));
    expect(client.era).toBe('modern');
    expect(eras).toEqual(['modern']);
    await client.close();
  });

  test('returning attempt.previous keeps the transport: the legacy fallback runs on it, as over stdio', async () => {
    const fake = await legacyOnly('2025-11-25');
    const client = new McpClient(INFO);
    const seen: Array<Transport | undefined> = [];
    await client.connect((attempt) => {
      seen.push(attempt.previous);
      return attempt.previous ?? fake.transport;
    });
    expect(client.era).toBe('legacy');
    expect(seen).toEqual([undefined, fake.transport]);
    expect(fake.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  test('a factory that throws ends connect with its error; the client can connect again', async () => {
    const client = new McpClient(INFO);
    const refusal = new LocalError('CONNECTION_CLOSED', 'no transport for you');
    await expect(
      client.connect(() => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    const fake = await legacyOnly();
    await client.connect(fake.transport);
    expect(client.era).toBe('legacy');
    await client.close();
  });

  test(`a factory is asked at most ${MAX_TRANSPORT_ATTEMPTS} times`, async () => {
    let asked = 0;
    const client = new McpClient(INFO);
    const failure = await client
      .connect(() => {
        asked += 1;
        return unreachable();
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'SEND_FAILED' });
    expect(asked).toBe(MAX_TRANSPORT_ATTEMPTS);
  });

  test("with era: 'legacy' the first attempt is a legacy one", async () => {
    const fake = await legacyOnly('2025-06-18');
    const eras: string[] = [];
    const client = new McpClient(INFO, { era: 'legacy', protocolVersion: '2025-06-18' });
    await client.connect((attempt) => (eras.push(attempt.era), fake.transport));
    expect(eras).toEqual(['legacy']);
    expect(fake.methods()).toEqual(['initialize', 'notifications/initialized']);
    await client.close();
  });
});

describe('the era cache', () => {
  test('is per client by default: another client probes again', async () => {
    const first = await legacyOnly();
    const one = new McpClient(INFO, { serverKey: 'node server.js' });
    await one.connect(first.transport);
    await one.close();
    const second = await legacyOnly();
    const other = new McpClient(INFO, { serverKey: 'node server.js' });
    await other.connect(second.transport);
    expect(second.methods()[0]).toBe('server/discover');
    await other.close();
    // The same client remembers.
    const third = await legacyOnly();
    await one.connect(third.transport);
    expect(third.methods()[0]).toBe('initialize');
    await one.close();
  });

  test('is shared between clients given the same cache', async () => {
    const eraCache = new MemoryEraCache();
    const first = await legacyOnly();
    const one = new McpClient(INFO, { serverKey: 's', eraCache });
    await one.connect(first.transport);
    await one.close();
    const second = await legacyOnly();
    const other = new McpClient(INFO, { serverKey: 's', eraCache });
    await other.connect(second.transport);
    expect(second.methods()[0]).toBe('initialize');
    await other.close();
  });
});
