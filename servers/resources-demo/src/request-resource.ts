/**
 * `demo://request`: what the server saw of the request that read it — era, protocol version, client info and
 * capabilities. Its contents differ from one client to the next, which is what `cacheScope: "private"` is for:
 * a cache may keep it for this client, never hand it to another.
 */
import type { McpServer } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Icons } from './icons.js';

/** How the server saw the request that read it. */
export const REQUEST_URI = 'demo://request';

/** Registers `demo://request`. */
export function registerRequestResource(server: McpServer, icons: Icons): void {
  server.registerResource(
    {
      uri: REQUEST_URI,
      name: 'request',
      title: 'This request',
      description:
        'How the server saw the request that read this: era, protocol version, client info, client capabilities (JSON; cached privately).',
      mimeType: 'application/json',
      annotations: { audience: ['user'], priority: 0.3 },
      icons: icons.live,
    },
    (uri, context) => {
      const seen = {
        era: context.era,
        protocolVersion: context.protocolVersion,
        clientInfo: context.clientInfo ?? null,
        clientCapabilities: context.clientCapabilities,
      };
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(seen) }] };
    },
    { cache: READ_HINTS.request },
  );
}
