import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import { MetaKey } from '@wiremcp/protocol';
import type { McpServer } from './mcp-server.js';

/** A raw JSON-RPC client peer connected to `server` in memory, plus helpers for both eras. */
export async function rawClient(server: McpServer, options: { batches?: boolean } = {}) {
  const [a, b] = createLinkedPair();
  const peer = new Peer({ onInternalError: () => {} });
  const notifications: Array<{ method: string; params: unknown }> = [];
  peer.setFallbackRequestHandler(() => ({}));
  await server.connect(b);
  await peer.connect(a);
  const originalReceive = peer.receive.bind(peer);
  peer.receive = (message, info) => {
    if (typeof message === 'object' && message !== null && 'method' in message && !('id' in message)) {
      notifications.push({ method: (message as { method: string }).method, params: (message as { params?: unknown }).params });
    }
    originalReceive(message, info);
  };
  if (options.batches) peer.acceptBatches = true;
  return {
    peer,
    transport: a,
    notifications,
    request: (method: string, params?: Record<string, unknown>) => peer.request(method, params) as Promise<Record<string, any>>,
    async initialize(protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}) {
      const result = (await peer.request('initialize', {
        protocolVersion,
        capabilities,
        clientInfo: { name: 'test-client', version: '1.0.0' },
      })) as Record<string, any>;
      await peer.notify('notifications/initialized');
      return result;
    },
    /** A 2026-07-28 request with the required `_meta`. */
    modern(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
      return peer.request(method, {
        ...params,
        _meta: {
          [MetaKey.protocolVersion]: '2026-07-28',
          [MetaKey.clientCapabilities]: {},
          [MetaKey.clientInfo]: { name: 'modern-client', version: '1.0.0' },
          ...meta,
        },
      }) as Promise<Record<string, any>>;
    },
    settle: () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
  };
}
