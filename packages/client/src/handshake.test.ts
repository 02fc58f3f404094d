import { MetaKey, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { scripted } from './client.test-util.js';
import { negotiate, type HandshakeSettings } from './handshake.js';
import { Peer } from '@wiremcp/jsonrpc';
import { TransportLink } from './transport-link.js';
import type { ClientPeer } from './types.js';

const settings: HandshakeSettings = {
  era: 'auto',
  clientInfo: { name: 'c', version: '1' },
  handlers: undefined,
  capabilities: undefined,
  legacyVersion: '2025-11-25',
  // A hypothetical future revision the client prefers; the server only speaks 2026-07-28.
  modernVersion: '2099-01-01',
  accepted: ['2025-11-25', '2026-07-28', '2099-01-01'],
  probeTimeoutMs: 1000,
  requestTimeoutMs: 1000,
};

describe('negotiate', () => {
  test('-32022 naming a mutually supported modern version: discover again with it, and stay modern', async () => {
    const fake = await scripted((method, params) => {
      const version = (params?._meta as Record<string, unknown>)[MetaKey.protocolVersion];
      if (version !== '2026-07-28') {
        throw new RpcError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28', '2025-11-25'], requested: version });
      }
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28', '2025-11-25'],
        capabilities: { prompts: {} },
        ttlMs: 5,
        cacheScope: 'private',
      };
    });
    const peer: ClientPeer = new Peer();
    const link = new TransportLink(peer, fake.transport);
    const negotiated = await negotiate(link, settings, undefined);
    expect(negotiated).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverCapabilities: { prompts: {} } });
    expect(fake.methods()).toEqual(['server/discover', 'server/discover']);
    const versions = fake.received.map(
      (m) => (m as unknown as { params: { _meta: Record<string, unknown> } }).params._meta[MetaKey.protocolVersion],
    );
    expect(versions).toEqual(['2099-01-01', '2026-07-28']);
    await peer.close();
  });

  test('-32020 / -32021 on discover are modern errors: rethrown, never a legacy fallback', async () => {
    for (const code of [-32020, -32021]) {
      const fake = await scripted(() => {
        throw new RpcError(code, 'modern refusal', { requiredCapabilities: { sampling: {} } });
      });
      const peer: ClientPeer = new Peer();
      const link = new TransportLink(peer, fake.transport);
      await expect(negotiate(link, settings, undefined)).rejects.toMatchObject({ code });
      expect(fake.methods()).toEqual(['server/discover']);
      await peer.close();
    }
  });

  test('a discover result with resultType input_required is an invalid result', async () => {
    const fake = await scripted(() => ({ resultType: 'input_required', supportedVersions: ['2026-07-28'], capabilities: {} }));
    const peer: ClientPeer = new Peer();
    const link = new TransportLink(peer, fake.transport);
    await expect(negotiate(link, { ...settings, modernVersion: '2026-07-28' }, undefined)).rejects.toMatchObject({
      code: 'INVALID_RESULT',
    });
    await peer.close();
  });
});
