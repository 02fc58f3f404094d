/**
 * `wiremcp-filesystem [options] <dir>...`: the filesystem server over stdio, or over Streamable HTTP with
 * `--http [host:]port`. The process side (flags, help, signals, exit codes, messages on stderr) is
 * `runServerMain`'s; directories that cannot be used are reported and skipped, and none usable exits 1.
 */
import { runServerMain } from '@wiremcp/process';
import { OPTIONS, parseFilesystemArgs, POSITIONALS, USAGE } from './cli-args.js';
import { createFilesystemServer, FILESYSTEM_SERVER_INFO } from './filesystem-server.js';

void runServerMain({
  name: 'wiremcp-filesystem',
  version: FILESYSTEM_SERVER_INFO.version,
  usage: USAGE,
  options: OPTIONS,
  positionals: POSITIONALS,
  parseArgs: parseFilesystemArgs,
  // With --metrics or --otel: the server's requests and sessions are measured, traced, or both.
  createServer: async (config, { log, onInternalError, instrumentation }) => {
    const filesystem = await createFilesystemServer(config, {
      log,
      onInternalError,
      ...(instrumentation === undefined ? {} : { instrumentation }),
    });
    const { roots, anchoring } = filesystem.pinned;
    log(
      `${roots.length} allowed director${roots.length === 1 ? 'y' : 'ies'}, ${anchoring === 'proc-fd' ? 'fd-anchored' : 'path-checked'} resolution` +
        `${config.readOnly ? ', read-only' : ''}${config.allowDelete ? ', delete allowed' : ''}, roots: ${config.roots}`,
    );
    return filesystem.servable;
  },
});
