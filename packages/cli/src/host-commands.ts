/**
 * The commands over a host configuration instead of one target: `wiremcp --config <file> list|call|read|prompt|trace`
 * run across every configured server (tools and prompts by namespaced name, `server.tool`), and `wiremcp host status`
 * and `wiremcp host config` show the servers. Without `--config`, the usual locations are searched (the project's
 * `mcp.json`, `.mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json` from here upwards, then the user's Cursor, VS Code
 * and Claude Desktop files) and the first found is used.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { FileAuthStore } from '@wiremcp/auth/node';
import type { Prompt, Tool } from '@wiremcp/client';
import {
  describeServerConfig,
  findConfigFiles,
  formatStatusTable,
  isConfigError,
  isHostError,
  loadConfig,
  McpHost,
  type HostConfig,
  type McpHostOptions,
} from '@wiremcp/host';
import { cliErrorOf } from './connect.js';
import { CLI_EXIT_CODES, CliError, type CliExitCode } from './exit-codes.js';
import type { Output } from './operations.js';
import { renderListing, renderPrompt, renderResource, renderToolResult } from './render.js';
import type { Style } from './style.js';
import { tracingFetch, TracingTransport, type TraceSink } from './trace.js';
import { VERSION } from './version.js';

/** How a host command reads its configuration and connects. */
export interface HostCommandOptions {
  /** Configuration files (`--config`, repeatable); none: the usual locations. */
  readonly config?: readonly string[];
  /** `${input:id}` values, as `id=value` (`--input`). */
  readonly inputs?: readonly string[];
  readonly cwd: string;
  /** Where warnings and failures of single servers go (standard error). */
  readonly warn: (text: string) => void;
  readonly timeoutMs?: number;
  /** Interactive OAuth login for servers that need it (`--auth`). */
  readonly auth?: boolean;
  readonly authStore?: string;
  /** Shows every server's bytes, each block headed with the server's name. */
  readonly trace?: { readonly write: (text: string) => void; readonly style: Style };
  /** Pass stdio servers' stderr through (prefixed with the server's name). */
  readonly serverStderr?: boolean;
}

function parseInputs(pairs: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError(`--input needs id=value, got an argument without "="`, CLI_EXIT_CODES.usage);
    out[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return out;
}

/** Loads the configuration: the files given, or the first of the usual locations; a usage error when there is none. */
export async function loadHostConfig(options: HostCommandOptions): Promise<HostConfig> {
  let files = options.config ?? [];
  if (files.length === 0) {
    files = (await findConfigFiles({ cwd: options.cwd })).slice(0, 1);
    if (files.length === 0)
      throw new CliError(
        'no target and no configuration: give a target (a command or a URL), or --config <file> ' +
          '(looked for mcp.json, .mcp.json, .vscode/mcp.json and .cursor/mcp.json from here up, and the Cursor, VS Code and Claude Desktop files)',
        CLI_EXIT_CODES.usage,
      );
  }
  try {
    const config = await loadConfig(
      files.map((file) => resolve(options.cwd, file)),
      { inputs: parseInputs(options.inputs) },
    );
    for (const warning of config.warnings) options.warn(`warning: ${warning}\n`);
    return config;
  } catch (error) {
    if (isConfigError(error)) {
      const inputs = error.issues.some((issue) => issue.message.includes(': input "'));
      throw new CliError(`${error.message}${inputs ? '\n(give inputs with --input id=value)' : ''}`, CLI_EXIT_CODES.usage, {
        cause: error,
      });
    }
    throw error;
  }
}

function labelledSink(name: string, trace: NonNullable<HostCommandOptions['trace']>): TraceSink {
  const block = (heading: string, text: string): void => trace.write(`${heading}\n${text.endsWith('\n') ? text : `${text}\n`}`);
  return {
    sent: (text) => block(trace.style.cyan(`// Client → ${name}`), text),
    received: (text) => block(trace.style.magenta(`// ${name} → Client`), text),
  };
}

/** Starts a host on the configuration (each server tried once: a one-shot command does not wait for retries). */
export async function startHost(options: HostCommandOptions): Promise<McpHost> {
  const config = await loadHostConfig(options);
  const trace = options.trace;
  const hostOptions: McpHostOptions = {
    clientInfo: { name: 'wiremcp-cli', version: VERSION },
    restart: { maxAttempts: 1 },
    validateToolOutput: false,
    ...(options.timeoutMs === undefined ? {} : { requestTimeoutMs: options.timeoutMs }),
    oauth: {
      store: new FileAuthStore(options.authStore ?? join(homedir(), '.config', 'wiremcp', 'auth.json')),
      ...(options.auth ? { login: true, allServers: true } : {}),
    },
    ...(trace
      ? {
          wrapTransport: (server, transport) => new TracingTransport(transport, labelledSink(server.name, trace), 'ndjson'),
          fetch: (server) => tracingFetch(labelledSink(server.name, trace)),
        }
      : {}),
  };
  const host = new McpHost(config, hostOptions);
  if (options.serverStderr) host.on('stderr', ({ server, text }) => options.warn(text.replace(/^(?=.)/gm, `[${server}] `)));
  await host.start();
  for (const row of host.status())
    if (row.state === 'failed' || row.state === 'retrying')
      options.warn(`wiremcp: server ${JSON.stringify(row.name)} failed: ${row.lastError ?? 'unknown'}\n`);
  return host;
}

/** The exit code and message of a host operation's failure. */
function hostErrorOf(error: unknown, doing: string): CliError {
  if (isHostError(error, 'SERVER_UNAVAILABLE'))
    return new CliError(`${doing}: ${error.message}`, CLI_EXIT_CODES.connection, { cause: error });
  if (isHostError(error)) return new CliError(`${doing}: ${error.message}`, CLI_EXIT_CODES.serverError, { cause: error });
  return cliErrorOf(error, doing);
}

async function withHost(options: HostCommandOptions, doing: string, run: (host: McpHost) => Promise<CliExitCode>): Promise<CliExitCode> {
  const host = await startHost(options);
  try {
    return await run(host);
  } catch (error) {
    throw hostErrorOf(error, doing);
  } finally {
    await host.close();
  }
}

function print(output: Output, value: unknown, human: () => string): void {
  output.out(output.json ? `${JSON.stringify(value, null, 2)}\n` : human());
}

/** `wiremcp --config … list`: every ready server's offer, tools and prompts under their namespaced names. */
export function hostListCommand(options: HostCommandOptions, output: Output, only?: readonly string[]): Promise<CliExitCode> {
  return withHost(options, 'list', async (host) => {
    const wants = (kind: string): boolean => only === undefined || only.length === 0 || only.includes(kind);
    const catalogue = host.catalogue;
    const listings = host.status().map((row) => {
      const mine = <T extends { server: string }>(items: readonly T[]): T[] => items.filter((item) => item.server === row.name);
      const ready = row.state === 'ready';
      return {
        name: row.name,
        state: row.state,
        ...(row.lastError === undefined ? {} : { error: row.lastError }),
        server: row.serverInfo,
        era: row.era,
        protocolVersion: row.protocolVersion,
        ...(ready && wants('tools') ? { tools: mine(catalogue.tools()).map((t): Tool => ({ ...t.tool, name: t.name })) } : {}),
        ...(ready && wants('resources') ? { resources: mine(catalogue.resources()).map((r) => r.resource) } : {}),
        ...(ready && wants('templates') ? { resourceTemplates: mine(catalogue.resourceTemplates()).map((t) => t.template) } : {}),
        ...(ready && wants('prompts') ? { prompts: mine(catalogue.prompts()).map((p): Prompt => ({ ...p.prompt, name: p.name })) } : {}),
      };
    });
    print(output, { servers: listings }, () =>
      listings
        .map((listing) =>
          listing.state === 'ready'
            ? `${output.style.dim(`[${listing.name}]`)} ${renderListing(listing, output.style)}`
            : `${output.style.dim(`[${listing.name}]`)} ${output.style.red(listing.state)}${listing.error ? `: ${listing.error}` : ''}\n`,
        )
        .join('\n'),
    );
    return listings.some((l) => l.state === 'ready') || listings.every((l) => l.state === 'disabled')
      ? CLI_EXIT_CODES.ok
      : CLI_EXIT_CODES.connection;
  });
}

/** `wiremcp --config … call server.tool`: exit code 1 when the result is an error result. */
export function hostCallCommand(
  options: HostCommandOptions,
  output: Output,
  tool: string,
  args: Record<string, unknown>,
): Promise<CliExitCode> {
  return withHost(options, `call ${tool}`, async (host) => {
    const result = await host.callTool(tool, args);
    print(output, result, () => renderToolResult(result, output.style));
    return result.isError === true ? CLI_EXIT_CODES.serverError : CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp --config … read <uri> [--server name]`. */
export function hostReadCommand(options: HostCommandOptions, output: Output, uri: string, server?: string): Promise<CliExitCode> {
  return withHost(options, `read ${uri}`, async (host) => {
    const result = await host.readResource(uri, server === undefined ? {} : { server });
    print(output, result, () => renderResource(result, output.style));
    return CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp --config … prompt server.prompt`. */
export function hostPromptCommand(
  options: HostCommandOptions,
  output: Output,
  name: string,
  args: Record<string, string>,
): Promise<CliExitCode> {
  return withHost(options, `prompt ${name}`, async (host) => {
    const result = await host.getPrompt(name, args);
    print(output, result, () => renderPrompt(result, output.style));
    return CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp host status`: the table of servers; exit code 3 when an enabled server is not ready. */
export function hostStatusCommand(options: HostCommandOptions, output: Output): Promise<CliExitCode> {
  return withHost(options, 'host status', async (host) => {
    const rows = host.status();
    print(output, rows, () => formatStatusTable(rows));
    return rows.every((row) => row.state === 'ready' || row.state === 'disabled') ? CLI_EXIT_CODES.ok : CLI_EXIT_CODES.connection;
  });
}

/** `wiremcp host config`: the configuration as resolved, secrets hidden; nothing is started. */
export async function hostConfigCommand(options: HostCommandOptions, output: Output): Promise<CliExitCode> {
  const config = await loadHostConfig(options);
  const servers = config.servers.map(describeServerConfig);
  print(output, { files: config.files, servers }, () => `${JSON.stringify({ files: config.files, servers }, null, 2)}\n`);
  return CLI_EXIT_CODES.ok;
}
