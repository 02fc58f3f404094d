/**
 * The flags every connecting command shares, and what they turn into: the {@link ConnectionOptions} of
 * `connect.ts` and the {@link Output} of a command. Loads nothing heavy: the trace and answer modules are imported
 * when a command asks for them.
 */
import { Option, type Command } from 'commander';
import type { Framing } from '@wiremcp/framing';
import type { ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import type { Output } from './operations.js';
import type { CliIo } from './program.js';
import { colourFor, createStyle } from './style.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The flags of the commands that connect to a target (`withConnectionOptions`, and the answer flags). */
export interface CommonFlags {
  era?: 'auto' | 'legacy' | 'modern';
  protocolVersion?: string;
  header?: string[];
  env?: string[];
  inheritEnv?: boolean;
  framing?: Framing;
  auth?: boolean;
  authPort?: string;
  authStore?: string;
  timeout?: string;
  trace?: boolean;
  json?: boolean;
  serverStderr?: boolean;
  /** The answer flags (`answer-options.ts`), on the commands that have them. */
  root?: string[];
  elicitAnswers?: string;
  samplingReply?: string;
  interactive?: boolean;
}

/** Adds the connection flags (era, headers, environment, OAuth, timeout, trace, `--json`…) to `command`. */
export function withConnectionOptions(command: Command): Command {
  return command
    .addOption(new Option('--era <era>', 'the era to speak').choices(['auto', 'legacy', 'modern']).default('auto'))
    .option('--protocol-version <revision>', 'the revision to ask for (e.g. 2025-06-18)')
    .option('-H, --header <header>', "an HTTP header, 'Name: value' (repeatable)", collect)
    .option('-e, --env <NAME=value>', 'a variable for a stdio server, on top of PATH, HOME, locale… (repeatable)', collect)
    .option('--inherit-env', "give a stdio server this process's whole environment (default: a safe set)")
    .addOption(new Option('--framing <framing>', 'the stdio framing').choices(['ndjson', 'content-length']))
    .option('--auth', 'log in with OAuth (opens the browser; tokens kept in ~/.config/wiremcp/auth.json)')
    .option('--auth-port <port>', 'the loopback port of the OAuth redirect (default: any free port)')
    .option('--auth-store <file>', 'where OAuth registrations and tokens are kept')
    .option('--timeout <ms>', 'timeout of each request in ms (default 60000)')
    .option('--trace', 'show the bytes both ways on stderr')
    .option('--server-stderr', "pass a stdio server's stderr through (default: quoted only when it fails)")
    .option('--json', 'print the result as JSON')
    .passThroughOptions();
}

/** A non-negative integer flag value; a usage error otherwise. */
export function integer(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CliError(`${flag} needs a non-negative integer, got ${JSON.stringify(text)}`, CLI_EXIT_CODES.usage);
  return value;
}

/** The connection options the flags ask for (`forceTrace`: `wiremcp trace`). */
export async function connectionOptions(flags: CommonFlags, io: CliIo, forceTrace = false): Promise<ConnectionOptions> {
  const trace = forceTrace || flags.trace === true;
  const authPort = integer(flags.authPort, '--auth-port');
  const timeoutMs = integer(flags.timeout, '--timeout');
  return {
    ...(flags.era ? { era: flags.era } : {}),
    ...(flags.protocolVersion ? { protocolVersion: flags.protocolVersion } : {}),
    ...(flags.header ? { headers: flags.header } : {}),
    ...(flags.env ? { env: flags.env } : {}),
    ...(flags.inheritEnv ? { inheritEnv: true } : {}),
    ...(flags.framing ? { framing: flags.framing } : {}),
    ...(flags.auth ? { auth: true } : {}),
    ...(authPort === undefined ? {} : { authPort }),
    ...(flags.authStore ? { authStore: flags.authStore } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(trace ? { trace: (await import('./trace.js')).traceSink((text) => io.stderr.write(text), createStyle(colourFor(io.stderr))) } : {}),
    serverStderr: flags.serverStderr === true ? 'inherit' : 'pipe',
    ...(await answersFor(flags, io)),
  };
}

/** The command's answers to the server's own requests, on the commands that take the answer flags. */
async function answersFor(flags: CommonFlags, io: CliIo): Promise<{ answers?: import('@wiremcp/client').InputHandlers }> {
  if (flags.interactive === undefined) return {};
  const { answerHandlers } = await import('./input-answers.js');
  const answers = answerHandlers(flags, { ...(io.stdin ? { stdin: io.stdin } : {}), stderr: io.stderr, cwd: io.cwd });
  return answers === undefined ? {} : { answers };
}

/** Where and how a command prints its result. */
export function outputFor(flags: CommonFlags, io: CliIo): Output {
  return { out: (text) => void io.stdout.write(text), json: flags.json === true, style: createStyle(colourFor(io.stdout)) };
}
