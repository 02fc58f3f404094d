/**
 * The `wiremcp` command line, parsed by commander: the subcommands, their options, and the exit codes. The
 * modules that do the work (clients, transports, the proxy, the scaffolder) are imported when their command runs,
 * so `wiremcp --version`, `--help` and a usage error load only this module, commander and the styles.
 */
import { Command, CommanderError } from 'commander';
import { reportFailure } from './error-report.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import { withAnswerOptions } from './answer-options.js';
import { addHelpExamples, commandsOf } from './help-examples.js';
import type { Output } from './operations.js';
import { registerDevCommand } from './dev-command.js';
import { registerPackCommand } from './pack-command.js';
import { colourFor, createStyle } from './style.js';
import { parseTarget } from './target.js';
import { VERSION } from './version.js';

/** Where the command line writes; the real process's streams by default. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
  readonly cwd: string;
  /**
   * Where answers typed on a terminal come from (the server's sampling, elicitation and roots requests); none
   * without it. A function: the stream is made only when a command may ask.
   */
  readonly stdin?: () => NodeJS.ReadableStream & { isTTY?: boolean };
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

import { connectionOptions, integer, outputFor, withConnectionOptions, type CommonFlags } from './connection-flags.js';

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
    ['--root', flags.root],
    ['--elicit-answers', flags.elicitAnswers],
    ['--sampling-reply', flags.samplingReply],
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

/**
 * What the parse learnt about how to report a failure: `json` once a command's `--json` was read (commander's own
 * error text is then not written: the failure is reported as JSON instead).
 */
export interface FailureMode {
  json: boolean;
}

/**
 * Builds the program; `done` receives the exit code of the command that ran, and `failures` learns whether a
 * failure is to be reported as JSON.
 */
export function buildProgram(io: CliIo, done: (code: number | Promise<number>) => void, failures: FailureMode = { json: false }): Command {
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
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void (failures.json ? undefined : io.stderr.write(text)),
    })
    .exitOverride();

  for (const [name, description, trace] of [
    ['list', 'list tools, resources, templates and prompts', false],
    ['trace', 'connect, list (like list), and show the bytes both ways on stderr', true],
  ] as const) {
    withAnswerOptions(withConnectionOptions(program.command(name).description(description)))
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

  withAnswerOptions(withConnectionOptions(program.command('call').description('call a tool')))
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

  withAnswerOptions(withConnectionOptions(program.command('read').description('read a resource')))
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

  withAnswerOptions(withConnectionOptions(program.command('prompt').description('get a prompt')))
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

  withAnswerOptions(
    withConnectionOptions(program.command('complete').description('complete an argument of a prompt or a resource template')),
  )
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
    .option('--otel', 'export a span per request, and per upstream request, over OTLP (set up by the OTEL_* variables)')
    .argument('<target...>', 'a URL, or a command and its arguments')
    .action(
      (
        words: string[],
        flags: CommonFlags & { http?: string; path?: string; legacySse?: boolean; allowOrigin?: string[]; otel?: boolean },
      ) => {
        const serve = {
          ...(flags.http ? { http: flags.http } : {}),
          ...(flags.path ? { path: flags.path } : {}),
          ...(flags.legacySse ? { legacySse: true } : {}),
          ...(flags.allowOrigin ? { allowOrigin: flags.allowOrigin } : {}),
          ...(flags.otel ? { otel: true } : {}),
        };
        done(import('./proxy.js').then(async ({ runProxy }) => runProxy(parseTarget(words), await connectionOptions(flags, io), serve)));
      },
    );

  withConnectionOptions(program.command('inspect').description('open a web inspector on a target (127.0.0.1, token in the URL)'))
    .option('--port <port>', 'the port of the inspector on 127.0.0.1 (default: any free port)')
    .option('--open', 'open the page in the default browser (default: print its URL)')
    .argument('<target...>', 'a URL, or a command and its arguments; with --config, the name of a configured server')
    .action((words: string[], flags: CommonFlags & { port?: string; open?: boolean }) => {
      const port = integer(flags.port, '--port');
      const serve = { ...(port === undefined ? {} : { port }), ...(flags.open ? { open: true } : {}) };
      const write = { out: (text: string) => void io.stdout.write(text), err: (text: string) => void io.stderr.write(text) };
      const root = program.opts<RootFlags>();
      done(
        import('./inspect/run-inspect.js').then(async (m) => {
          const options = await connectionOptions(flags, io);
          if (!root.config?.length) return m.runInspect(parseTarget(words), options, serve, write);
          const { configTarget } = await import('./inspect/config-target.js');
          const files = root.config;
          const chosen = await configTarget({
            files,
            ...(root.input ? { inputs: root.input } : {}),
            cwd: io.cwd,
            warn: write.err,
            words,
            options,
          });
          return m.runInspect(chosen.target, chosen.options, { ...serve, label: chosen.label, secrets: chosen.secrets }, write);
        }),
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
  registerDevCommand(program, io, done);
  addHelpExamples(program);
  // Read in order: a usage error found after `--json` is reported as JSON too.
  for (const { command } of commandsOf(program))
    if (command.options.some((option) => option.long === '--json')) command.on('option:json', () => (failures.json = true));
  return program;
}

/** Runs the command line `argv` (without node and the script); resolves with the exit code. */
export async function runCli(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), stdin: () => process.stdin },
): Promise<number> {
  const style = createStyle(colourFor(io.stderr));
  let result: number | Promise<number> = CLI_EXIT_CODES.ok;
  const failures: FailureMode = { json: false };
  const program = buildProgram(
    io,
    (code) => {
      result = code;
      // Awaited below, once commander is done; until then a rejection (a usage error found after a lazy import) is
      // not unhandled.
      if (code instanceof Promise) code.catch(() => undefined);
    },
    failures,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return await result;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) return CLI_EXIT_CODES.ok;
      if (failures.json) reportFailure(io, style, true, { message: error.message.replace(/^error: /, ''), exitCode: CLI_EXIT_CODES.usage });
      return CLI_EXIT_CODES.usage;
    }
    if (error instanceof CliError) {
      reportFailure(io, style, failures.json, { message: error.message, exitCode: error.exitCode, error });
      return error.exitCode;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    reportFailure(io, style, failures.json, { message, exitCode: CLI_EXIT_CODES.serverError, error, unexpected: true });
    return CLI_EXIT_CODES.serverError;
  }
}
