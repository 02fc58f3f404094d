// The everything server's web-standard handler, shared by the runtime entries beside this file (Deno, Bun,
// workerd). Bundled by `src/runtimes/bundle.ts` with the workspace sources; never run by Node from here.
import { createHttpHandler } from '@wiremcp/transport-http';
import { createEverythingServer } from '../../../servers/everything/src/everything-server.ts';
// esbuild inlines the manifest: the runtimes report the package's version as the Node bin does.
import manifest from '../../../servers/everything/package.json' with { type: 'json' };

/**
 * The everything server behind `createHttpHandler`, as `servers/everything --http` serves it. `connection` is the
 * address the runtime bound (the handler checks `Host` against it: DNS-rebinding protection on loopback).
 */
export function everythingHandler(connection, onError) {
  const handler = createHttpHandler(createEverythingServer({ version: manifest.version, onInternalError: onError }), { onError });
  return (request) => handler(request, connection);
}
