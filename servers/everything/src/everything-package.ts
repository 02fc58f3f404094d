import { packageVersion } from '@wiremcp/process';
import {
  createEverythingServer as createWithVersion,
  EVERYTHING_SERVER_IDENTITY,
  type EverythingServerOptions,
} from './everything-server.js';

/** The everything server's identity, with the version of this package as its package.json says (Node only). */
export const EVERYTHING_SERVER_INFO = {
  ...EVERYTHING_SERVER_IDENTITY,
  version: packageVersion(import.meta.url, '@wiremcp/server-everything'),
} as const;

/**
 * Builds the everything server (see everything-server.ts) reporting this package's version unless `options.version`
 * says otherwise. Node only, as the package's entry is; a bundle for a browser or another runtime imports
 * everything-server.js and passes the version itself.
 */
export function createEverythingServer(options: Partial<EverythingServerOptions> = {}): ReturnType<typeof createWithVersion> {
  return createWithVersion({ ...options, version: options.version ?? EVERYTHING_SERVER_INFO.version });
}
