/**
 * The `wiremcp` command line, parsed by commander: the subcommands, their options, and the exit codes. The
 * modules that do the work (clients, transports, the proxy, the scaffolder) are imported when their command runs,
 * so `wiremcp --version`, `--help` and a usage error load only this module, commander and the styles.
 */
import { Command, CommanderError, Option } from 'commander';
import type { Framing } from '@wiremcp/framing';
import type { ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import { addHelpExamples } from './help-examples.js';
import type { Output } from './operations.js';
import { registerPackCommand } from './pack-command.js';
import { colourFor, createStyle } from './style.js';
import { parseTarget } from './target.js';
import { VERSION } from './version.js';

/** Where the command line writes; the real process's streams by default. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
  readonly cwd: string;
}

/** The operations (connect, list, call…): the client, transports and OAuth, loaded on first use. */
const operations = (): Promise<typeof import('./operations.js')> => import('./operations.js');

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const LIST_KINDS = ['tools', 'resources', 'templates', 'prompts'];
const onlyKind = (value: string, previous: string[] = []): string[] => {
  if (!LIST_KINDS.includes(value))
    throw new CliError(`--only takes ${LIST_KINDS.join(', ')}; got ${JSON.stringify(value)}`, CLI_EXIT_CODES.usage);
  return [...previous, value];
};

interface CommonFlags {
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
}

function withConnectionOptions(command: Command): Command {
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

function integer(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CliError(`${flag} needs a non-negative integer, got ${JSON.stringify(text)}`, CLI_EXIT_CODES.usage);
  return value;
}

async function connectionOptions(flags: CommonFlags, io: CliIo, forceTrace = false): Promise<ConnectionOptions> {
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
  };
}

function outputFor(flags: CommonFlags, io: CliIo): Output {
  return { out: (text) => void io.stdout.write(text), json: flags.json === true, style: createStyle(colourFor(io.stdout)) };
}

/** The root options that point the commands at a host configuration instead of a target. */
interface RootFlags {
  config?: string[];
  input?: string[];
}

/** The host commands (`--config`, or no target): `host-commands.ts`, loaded on first use. */
const hostCommands = (): Promise<typeof import('./host-commands.js')> => import('./host-commands.js');

/**
 * The options of a command run over the host configuration. Target-only flags make no sense there: refused. Returns
 * `undefined` when the command has a target (and no `--config`), i.e. runs as before.
 */
function hostMode(
  root: RootFlags,
  words: readonly string[],
  flags: CommonFlags,
  io: CliIo,
  trace = false,
): import('./host-commands.js').HostCommandOptions | undefined {
  if (words.length > 0) {
    if (root.config?.length) throw new CliError('give a target or --config, not both', CLI_EXIT_CODES.usage);
    return undefined;
  }
  const targetOnly = [
    ['--header', flags.header],
    ['--env', flags.env],
    ['--framing', flags.framing],
    ['--protocol-version', flags.protocolVersion],
    ['--era', flags.era === 'auto' ? undefined : flags.era],
  ] as const;
  for (const [flag, value] of targetOnly)
    if (value !== undefined)
      throw new CliError(`${flag} applies to a target; set it per server in the configuration`, CLI_EXIT_CODES.usage);
  const timeoutMs = integer(flags.timeout, '--timeout');
  return {
    cwd: io.cwd,
    warn: (text) => void io.stderr.write(text),
    ...(root.config ? { config: root.config } : {}),
    ...(root.input ? { inputs: root.input } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(flags.auth ? { auth: true } : {}),
    ...(flags.authStore ? { authStore: flags.authStore } : {}),
    ...(flags.serverStderr ? { serverStderr: true } : {}),
    ...(trace || flags.trace
      ? { trace: { write: (text: string) => void io.stderr.write(text), style: createStyle(colourFor(io.stderr)) } }
      : {}),
  };
}

/** Builds the program; `done` receives the exit code of the command that ran. */
export function buildProgram(io: CliIo, done: (code: number | Promise<number>) => void): Command {
  const program = new Command('wiremcp')
    .description('Inspect, trace and bridge Model Context Protocol servers (stdio commands or http(s) URLs, either era).')
    .version(VERSION)
    .enablePositionalOptions()
    .option(
      '--config <file>',
      'a host configuration (mcp.json, .vscode/mcp.json, …): commands without a target use its servers (repeatable)',
      collect,
    )
    .option('--input <id=value>', 'the value of ${input:id} in the configuration (repeatable)', collect)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    .exitOverride();

  for (const [name, description, trace] of [
    ['list', 'list tools, resources, templates and prompts', false],
    ['trace', 'connect, list (like list), and show the bytes both ways on stderr', true],
  ] as const) {
    withConnectionOptions(program.command(name).description(description))
      .option('--only <kind>', 'list only this kind: tools, resources, templates or prompts (repeatable)', onlyKind)
      .argument('[target...]', 'a URL, or a command and its arguments (none: the servers of the host configuration)')
      .action((words: string[], flags: CommonFlags & { only?: string[] }) => {
        const host = hostMode(program.opts<RootFlags>(), words, flags, io, trace);
        if (host) return done(hostCommands().then((h) => h.hostListCommand(host, outputFor(flags, io), flags.only)));
        done(
          operations().then(async (ops) =>
            ops.listCommand(parseTarget(words), await connectionOptions(flags, io, trace), outputFor(flags, io), flags.only),
          ),
        );
      });
  }

  withConnectionOptions(program.command('call').description('call a tool'))
    .option('-a, --arg <key=value>', 'an argument (value parsed as JSON when it is JSON; repeatable)', collect)
    .option('--args <json>', 'the arguments as one JSON object')
    .argument('<tool>', 'the tool name (server.tool with a host configuration)')
    .argument('[target...]', 'a URL, or a command and its arguments (none: the servers of the host configuration)')
    .action((tool: string, words: string[], flags: CommonFlags & { arg?: string[]; args?: string }) => {
      const host = hostMode(program.opts<RootFlags>(), words, flags, io);
      done(
        operations().then(async (ops) => {
          const args = { ...ops.parseJsonObject(flags.args, '--args'), ...ops.parsePairs(flags.arg ?? [], '--arg', true) };
          if (host) return (await hostCommands()).hostCallCommand(host, outputFor(flags, io), tool, args);
          return ops.callCommand(parseTarget(words), await connectionOptions(flags, io), outputFor(flags, io), tool, args);
        }),
      );
    });

  withConnectionOptions(program.command('read').description('read a resource'))
    .option('--server <name>', 'with a host configuration: the server to read from (when several offer the URI)')
    .argument('<uri>', 'the resource URI')
    .argument('[target...]', 'a URL, or a command and its arguments (none: the servers of the host configuration)')
    .action((uri: string, words: string[], flags: CommonFlags & { server?: string }) => {
      const host = hostMode(program.opts<RootFlags>(), words, flags, io);
      if (host) return done(hostCommands().then((h) => h.hostReadCommand(host, outputFor(flags, io), uri, flags.server)));
      if (flags.server !== undefined) throw new CliError('--server applies with a host configuration only', CLI_EXIT_CODES.usage);
      done(
        operations().then(async (ops) =>
          ops.readCommand(parseTarget(words), await connectionOptions(flags, io), outputFor(flags, io), uri),
        ),
      );
    });

  withConnectionOptions(program.command('skills').description('list, show and read (verified) the skills a server serves'))
    .option('--get <uri>', "show one skill's entry: frontmatter and files with digests")
    .option('--read <skill>', 'read a skill (name or SKILL.md URI), verified against its entry')
    .option('--file <path>', 'with --read: a file of the skill instead of its SKILL.md')
    .option('--dir <uri>', 'list a directory (resources/directory/read)')
    .argument('<target...>', 'a URL, or a command and its arguments')
    .action((words: string[], flags: CommonFlags & { get?: string; read?: string; file?: string; dir?: string }) =>
      done(
        import('./skills-command.js').then(async ({ skillsCommand }) =>
          skillsCommand(parseTarget(words), await connectionOptions(flags, io), outputFor(flags, io), {
            ...(flags.get ? { get: flags.get } : {}),
            ...(flags.read ? { read: flags.read } : {}),
            ...(flags.file ? { file: flags.file } : {}),
            ...(flags.dir ? { dir: flags.dir } : {}),
          }),
        ),
      ),
    );

  withConnectionOptions(program.command('prompt').description('get a prompt'))
    .option('-a, --arg <key=value>', 'an argument (repeatable)', collect)
    .argument('<name>', 'the prompt name (server.prompt with a host configuration)')
    .argument('[target...]', 'a URL, or a command and its arguments (none: the servers of the host configuration)')
    .action((name: string, words: string[], flags: CommonFlags & { arg?: string[] }) => {
      const host = hostMode(program.opts<RootFlags>(), words, flags, io);
      done(
        operations().then(async (ops) => {
          const args = ops.parsePairs(flags.arg ?? [], '--arg', false) as Record<string, string>;
          if (host) return (await hostCommands()).hostPromptCommand(host, outputFor(flags, io), name, args);
          return ops.promptCommand(parseTarget(words), await connectionOptions(flags, io), outputFor(flags, io), name, args);
        }),
      );
    });

  withConnectionOptions(program.command('complete').description('complete an argument of a prompt or a resource template'))
    .option('-c, --context <key=value>', 'an already-chosen argument (repeatable)', collect)
    .argument('<ref>', 'prompt:<name> or resource:<uri template>')
    .argument('<argument>', 'the argument being completed, name=partial value')
    .argument('<target...>', 'a URL, or a command and its arguments')
    .action((ref: string, argument: string, words: string[], flags: CommonFlags & { context?: string[] }) =>
      done(
        operations().then(async (ops) => {
          const [name, value] = Object.entries(ops.parsePairs([argument], '<argument>', false))[0] as [string, string];
          const context = ops.parsePairs(flags.context ?? [], '--context', false) as Record<string, string>;
          const reference = ops.parseReference(ref);
          const params = { ref: reference, argument: { name, value }, ...(flags.context ? { context: { arguments: context } } : {}) };
          return ops.completeCommand(parseTarget(words), await connectionOptions(flags, io), outputFor(flags, io), params);
        }),
      ),
    );

  withConnectionOptions(program.command('proxy').description('serve a target on stdio, or over Streamable HTTP with --http'))
    .option('--http <[host:]port>', 'serve Streamable HTTP on this address (default host 127.0.0.1) instead of stdio')
    .option('--path <path>', 'the HTTP endpoint (default /mcp)')
    .option('--legacy-sse', 'also serve the 2024-11-05 HTTP+SSE endpoints /sse and /messages')
    .option('--allow-origin <origin>', 'an Origin that may call from a browser (repeatable)', collect)
    .argument('<target...>', 'a URL, or a command and its arguments')
    .action((words: string[], flags: CommonFlags & { http?: string; path?: string; legacySse?: boolean; allowOrigin?: string[] }) => {
      const serve = {
        ...(flags.http ? { http: flags.http } : {}),
        ...(flags.path ? { path: flags.path } : {}),
        ...(flags.legacySse ? { legacySse: true } : {}),
        ...(flags.allowOrigin ? { allowOrigin: flags.allowOrigin } : {}),
      };
      done(import('./proxy.js').then(async ({ runProxy }) => runProxy(parseTarget(words), await connectionOptions(flags, io), serve)));
    });

  withConnectionOptions(program.command('inspect').description('open a web inspector on a target (127.0.0.1, token in the URL)'))
    .option('--port <port>', 'the port of the inspector on 127.0.0.1 (default: any free port)')
    .option('--open', 'open the page in the default browser (default: print its URL)')
    .argument('<target...>', 'a URL, or a command and its arguments')
    .action((words: string[], flags: CommonFlags & { port?: string; open?: boolean }) => {
      const port = integer(flags.port, '--port');
      const serve = { ...(port === undefined ? {} : { port }), ...(flags.open ? { open: true } : {}) };
      const write = { out: (text: string) => void io.stdout.write(text), err: (text: string) => void io.stderr.write(text) };
      done(
        import('./inspect/run-inspect.js').then(async (m) =>
          m.runInspect(parseTarget(words), await connectionOptions(flags, io), serve, write),
        ),
      );
    });

  const hostCommand = program.command('host').description('the servers of a host configuration (--config, or the usual locations)');
  hostCommand
    .command('status')
    .description('connect every configured server and print the table of servers, eras, transports and failures')
    .option('--timeout <ms>', 'timeout of each request in ms (default 60000)')
    .option('--auth', 'log in with OAuth where a server needs it (opens the browser)')
    .option('--json', 'print the rows as JSON')
    .action((flags: CommonFlags) => {
      const host = hostMode(program.opts<RootFlags>(), [], flags, io)!;
      done(hostCommands().then((h) => h.hostStatusCommand(host, outputFor(flags, io))));
    });
  hostCommand
    .command('config')
    .description('print the configuration as resolved (secrets hidden), without starting anything')
    .action((flags: CommonFlags) => {
      const host = hostMode(program.opts<RootFlags>(), [], flags, io)!;
      done(hostCommands().then((h) => h.hostConfigCommand(host, { ...outputFor(flags, io), json: true })));
    });

  program
    .command('conformance')
    .description('run the conformance app of this wiremcp checkout (arguments passed through; try --help)')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action((args: string[]) => done(import('./conformance.js').then(({ runConformance }) => runConformance(args, io.cwd))));

  const create = program.command('new').description('scaffold something new');
  create
    .command('server')
    .description('scaffold a reference server package in this workspace (servers/<name>)')
    .option('--dir <workspace>', 'the workspace root (default: found from the current directory)')
    .argument('<name>', 'the server name, kebab-case (e.g. weather)')
    .action((name: string, flags: { dir?: string }) =>
      done(
        import('./new-server.js').then(({ scaffoldServer }) => scaffoldServer(name, flags.dir ?? io.cwd, (text) => io.stdout.write(text))),
      ),
    );

  registerPackCommand(program, io, done);
  addHelpExamples(program);
  return program;
}

/** Runs the command line `argv` (without node and the script); resolves with the exit code. */
export async function runCli(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() },
): Promise<number> {
  const style = createStyle(colourFor(io.stderr));
  let result: number | Promise<number> = CLI_EXIT_CODES.ok;
  const program = buildProgram(io, (code) => {
    result = code;
    // Awaited below, once commander is done; until then a rejection (a usage error found after a lazy import) is
    // not unhandled.
    if (code instanceof Promise) code.catch(() => undefined);
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return await result;
  } catch (error) {
    if (error instanceof CommanderError) {
      return ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)
        ? CLI_EXIT_CODES.ok
        : CLI_EXIT_CODES.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`${style.red('wiremcp:')} ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(
      `${style.red('wiremcp: unexpected error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return CLI_EXIT_CODES.serverError;
  }
}
