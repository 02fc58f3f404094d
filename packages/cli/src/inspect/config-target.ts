/**
 * `wiremcp --config <file> inspect <server>`: the target of the inspector taken from a host configuration (the same
 * files and `${input:…}` resolution as `--config list/call`), by the server's name. The server's command, arguments,
 * environment and working directory, or its URL and headers, become the inspector's target and connection options;
 * the page and the terminal name it by its configured name only, since its arguments, variables and headers may hold
 * secrets.
 */
import type { ServerConfig } from '@wiremcp/host';
import type { ConnectionOptions } from '../connect.js';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';
import { loadHostConfig } from '../host-commands.js';
import type { Target } from '../target.js';

/** A configured server as an inspector target. */
export interface ConfigTarget {
  readonly target: Target;
  readonly options: ConnectionOptions;
  /** How the page and the terminal name it: `<name> (<file>)`. */
  readonly label: string;
  /** The values that came from `${…}` references: hidden wherever the target's output reaches the page. */
  readonly secrets: readonly string[];
}

/** What {@link configTarget} reads. */
export interface ConfigTargetInput {
  readonly files: readonly string[];
  readonly inputs?: readonly string[];
  readonly cwd: string;
  readonly warn: (text: string) => void;
  /** The words after `inspect`: one server name. */
  readonly words: readonly string[];
  /** The connection options of the flags: the target's own (headers, env, framing) are refused, the rest kept. */
  readonly options: ConnectionOptions;
}

/** The server named `name` of the configuration; a usage error naming the configured servers when there is none. */
function pick(servers: readonly ServerConfig[], name: string, files: readonly string[]): ServerConfig {
  const server = servers.find((candidate) => candidate.name === name);
  if (server === undefined) {
    const names = servers.map((candidate) => candidate.name).join(', ') || 'none';
    throw new CliError(
      `no server named ${JSON.stringify(name.slice(0, 100))} in ${files.join(', ')} (configured: ${names})`,
      CLI_EXIT_CODES.usage,
    );
  }
  if (server.disabled) throw new CliError(`the server ${JSON.stringify(name)} is disabled in ${server.source.file}`, CLI_EXIT_CODES.usage);
  return server;
}

/** Reads the configuration and turns the named server into the inspector's target. */
export async function configTarget(input: ConfigTargetInput): Promise<ConfigTarget> {
  if (input.words.length !== 1)
    throw new CliError('with --config, inspect takes the name of one configured server (and no command or URL)', CLI_EXIT_CODES.usage);
  for (const [flag, given] of [
    ['--header', input.options.headers?.length],
    ['--env', input.options.env?.length],
    ['--framing', input.options.framing],
  ] as const)
    if (given) throw new CliError(`${flag} applies to a target; set it for the server in the configuration`, CLI_EXIT_CODES.usage);
  const config = await loadHostConfig({
    config: input.files,
    ...(input.inputs ? { inputs: input.inputs } : {}),
    cwd: input.cwd,
    warn: input.warn,
  });
  const server = pick(config.servers, input.words[0]!, config.files);
  const label = `${server.name} (${server.source.file})`;
  const timeout =
    input.options.timeoutMs === undefined && server.requestTimeoutMs !== undefined ? { timeoutMs: server.requestTimeoutMs } : {};
  if (server.transport === 'stdio') {
    if (server.command === undefined) throw new CliError(`the server ${JSON.stringify(server.name)} has no command`, CLI_EXIT_CODES.usage);
    return {
      target: { kind: 'stdio', command: server.command, args: server.args ?? [] },
      options: {
        ...input.options,
        ...timeout,
        env: Object.entries(server.env ?? {}).map(([name, value]) => `${name}=${value}`),
        ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      },
      label,
      secrets: server.secrets,
    };
  }
  if (server.url === undefined) throw new CliError(`the server ${JSON.stringify(server.name)} has no url`, CLI_EXIT_CODES.usage);
  if (server.transport !== 'http')
    input.warn(
      `wiremcp inspect: ${server.name} is configured as ${server.transport}; the inspector detects the transport as a client does\n`,
    );
  return {
    target: { kind: 'http', url: new URL(server.url) },
    options: {
      ...input.options,
      ...timeout,
      headers: Object.entries(server.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    },
    label,
    secrets: server.secrets,
  };
}
