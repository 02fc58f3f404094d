/**
 * `wiremcp dev <entry>`: a server under development, served on this process's stdio (a host launches
 * `wiremcp dev src/server.ts` as its server command), rebuilt and restarted on every change of its files while the
 * host stays connected (`dev-session.ts`). Builds, restarts, build errors and exits are reported on stderr; stdout
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
import type { DevEvent } from './dev-session.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import type { CliIo } from './program.js';

/** The line `dev` prints on stderr for an event. */
export function describeDevEvent(event: DevEvent): string {
  const tools = (count: number | undefined): string => (count === undefined ? '' : ` (${count} tool${count === 1 ? '' : 's'})`);
  switch (event.kind) {
    case 'started':
      return `wiremcp dev: server started${tools(event.tools)}; watching its files`;
    case 'change':
      return `wiremcp dev: ${event.file} changed`;
    case 'build-failed':
      return `wiremcp dev: the build failed; the running server keeps serving\n${event.message}`;
    case 'start-failed':
      return `wiremcp dev: the new server did not start (${event.message}); the running server keeps serving`;
    case 'restarted':
      return `wiremcp dev: restarted${tools(event.tools)}; clients told the lists changed`;
    case 'exited':
      return `wiremcp dev: the server exited (${event.message}); it starts again on the next change`;
  }
}

/** Runs `dev` until stdin closes or a signal; resolves with the exit code (with the real process it exits instead). */
export async function runDev(
  entryArg: string,
  args: readonly string[],
  options: ConnectionOptions,
  cwd: string,
  given?: MainProcess,
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
    onEvent: (event) => void proc.stderr.write(`${describeDevEvent(event)}\n`),
  });
  const main: MainProcess = { ...proc, argv: [], exit: (code) => void session.close().finally(() => proc.exit(code)) };
  return runServerMain({
    name: 'wiremcp dev',
    version: '0.1.0',
    usage: '',
    process: main,
    createServer: (): Servable =>
      ({
        connect: async (transport: Transport) => {
          const served = await session.server.connect(transport);
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
  withConnectionOptions(program.command('dev').description('run a server from its .ts/.js entry on stdio, restarting it on every change'))
    .argument('<entry>', "the server's entry file (.ts or .js)")
    .argument('[args...]', 'arguments for the server')
    .action((entry: string, args: string[], flags: CommonFlags) =>
      done(
        (async () => {
          if (flags.header?.length || flags.auth)
            throw new CliError('--header and --auth apply to URL targets, not dev', CLI_EXIT_CODES.usage);
          // The server's logs are what a developer watches: passed through.
          return runDev(entry, args, { ...(await connectionOptions(flags, io)), serverStderr: 'inherit' }, io.cwd);
        })(),
      ),
    );
}
