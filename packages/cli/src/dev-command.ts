/**
 * `wiremcp dev <entry>`: a server under development, served on this process's stdio (a host launches
 * `wiremcp dev src/server.ts` as its server command) or, with `--http [host:]port`, over Streamable HTTP (every
 * revision: 2026-07-28 statelessly, 2025-03-26 … 2025-11-25 in sessions; a host or `wiremcp inspect` connects by URL),
 * rebuilt and restarted on every change of its files while the clients stay connected (`dev-session.ts`): HTTP
 * sessions and listen streams belong to the bridge, not to the server process, so they outlive every restart.
 * Builds, restarts, build errors and exits are reported on stderr (and to the clients as log messages); stdout
 * carries the protocol only.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Transport } from '@wiremcp/jsonrpc';
import type { MainProcess, Servable } from '@wiremcp/process';
import type { McpServer } from '@wiremcp/server';
import type { ConnectionOptions } from './connect.js';
import { connectionOptions, withConnectionOptions, type CommonFlags } from './connection-flags.js';
import { describeDevEvent } from './dev-events.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import type { CliIo } from './program.js';

/** How `dev` serves: stdio unless `http` is given. */
export interface DevServeOptions {
  /** `[host:]port` to serve Streamable HTTP on (loopback unless a host is given). */
  readonly http?: string;
  /** The HTTP endpoint path (default `/mcp`). */
  readonly path?: string;
}

/**
 * Runs `dev` until stdin closes (stdio) or a signal; resolves with the exit code (with the real process it exits
 * instead).
 */
export async function runDev(
  entryArg: string,
  args: readonly string[],
  options: ConnectionOptions,
  cwd: string,
  given?: MainProcess,
  serve: DevServeOptions = {},
): Promise<number> {
  // Loaded here: registering the command (every run of the CLI) loads none of the serving code.
  const { nodeProcess, runServerMain } = await import('@wiremcp/process');
  const proc = given ?? nodeProcess();
  const entry = resolve(cwd, entryArg);
  if (!/\.[cm]?[jt]sx?$/.test(entry))
    throw new CliError(`dev needs a .ts or .js entry, got ${JSON.stringify(entryArg)}`, CLI_EXIT_CODES.usage);
  if (!existsSync(entry)) throw new CliError(`dev: no such file ${JSON.stringify(entryArg)}`, CLI_EXIT_CODES.usage);
  const { DevSession } = await import('./dev-session.js');
  const session = await DevSession.start({
    entry,
    args,
    connection: options,
    onEvent: (event) => void proc.stderr.write(`wiremcp dev: ${describeDevEvent(event)}\n`),
  });
  const argv = serve.http === undefined ? [] : ['--http', serve.http, ...(serve.path === undefined ? [] : ['--path', serve.path])];
  const main: MainProcess = { ...proc, argv, exit: (code) => void session.close().finally(() => proc.exit(code)) };
  return runServerMain({
    name: 'wiremcp dev',
    version: '0.1.0',
    usage: '',
    process: main,
    createServer: (): Servable =>
      ({
        // Over HTTP, once per session (each gets the options of its transport); the last one answers the server's
        // requests made outside any client request (a roots/list after a change).
        connect: async (transport: Transport, connectOptions?: unknown) => {
          const served = await session.server.connect(transport, connectOptions as Parameters<McpServer['connect']>[1]);
          session.connection = served;
          return served;
        },
        dispatch: (message: unknown, exchange: unknown) =>
          (session.server.dispatch as (m: unknown, e: unknown) => ReturnType<McpServer['dispatch']>)(message, exchange),
        tool: () => undefined,
        close: () => session.close(),
      }) as unknown as Servable,
  });
}

/** Registers `wiremcp dev` on `program`. */
export function registerDevCommand(program: Command, io: CliIo, done: (code: number | Promise<number>) => void): void {
  withConnectionOptions(
    program.command('dev').description('run a server from its .ts/.js entry on stdio (or HTTP), restarting it on every change'),
  )
    .option('--http <[host:]port>', 'serve Streamable HTTP on this address (default host 127.0.0.1) instead of stdio')
    .option('--path <path>', 'the HTTP endpoint (default /mcp)')
    .argument('<entry>', "the server's entry file (.ts or .js)")
    .argument('[args...]', 'arguments for the server')
    .action((entry: string, args: string[], flags: CommonFlags & { http?: string; path?: string }) =>
      done(
        (async () => {
          if (flags.header?.length || flags.auth)
            throw new CliError('--header and --auth apply to URL targets, not dev', CLI_EXIT_CODES.usage);
          if (flags.path !== undefined && flags.http === undefined) throw new CliError('--path needs --http', CLI_EXIT_CODES.usage);
          const serve = {
            ...(flags.http === undefined ? {} : { http: flags.http }),
            ...(flags.path === undefined ? {} : { path: flags.path }),
          };
          // The server's logs are what a developer watches: passed through.
          return runDev(entry, args, { ...(await connectionOptions(flags, io)), serverStderr: 'inherit' }, io.cwd, undefined, serve);
        })(),
      ),
    );
}
