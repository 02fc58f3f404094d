/**
 * The client commands: `list`, `call`, `read`, `prompt`, `complete`. Each connects, does one thing, prints the
 * result (human or `--json`) and returns the exit code.
 */
import type { CompleteParams, McpClient } from '@wiremcp/client';
import { connectTarget, cliErrorOf, type ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES, CliError, type CliExitCode } from './exit-codes.js';
import { renderListing, renderPrompt, renderResource, renderToolResult, type Listing } from './render.js';
import type { Style } from './style.js';
import type { Target } from './target.js';

/** Where a command writes, and how. */
export interface Output {
  /** The result (standard output). */
  out(text: string): void;
  /** Print JSON instead of the human form. */
  readonly json: boolean;
  readonly style: Style;
}

/** Parses `key=value` pairs; the value is JSON when it parses as JSON (`n=3`, `flag=true`), a string otherwise. */
export function parsePairs(pairs: readonly string[], flag: string, jsonValues: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError(`${flag} needs key=value, got ${JSON.stringify(pair)}`, CLI_EXIT_CODES.usage);
    const raw = pair.slice(equals + 1);
    let value: unknown = raw;
    if (jsonValues) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    }
    out[pair.slice(0, equals)] = value;
  }
  return out;
}

/** Parses a JSON object given on the command line. */
export function parseJsonObject(text: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(`${flag} needs a JSON object, got invalid JSON`, CLI_EXIT_CODES.usage);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(`${flag} needs a JSON object`, CLI_EXIT_CODES.usage);
  return value as Record<string, unknown>;
}

async function withClient(
  target: Target,
  options: ConnectionOptions,
  doing: string,
  run: (client: McpClient) => Promise<CliExitCode>,
): Promise<CliExitCode> {
  const connection = await connectTarget(target, options);
  try {
    return await run(connection.client);
  } catch (error) {
    throw cliErrorOf(error, doing);
  } finally {
    await connection.close();
  }
}

function print(output: Output, value: unknown, human: () => string): void {
  output.out(output.json ? `${JSON.stringify(value, null, 2)}\n` : human());
}

/** `wiremcp list`: everything the server offers (or only the kinds asked for). */
export function listCommand(target: Target, options: ConnectionOptions, output: Output, only?: readonly string[]): Promise<CliExitCode> {
  return withClient(target, options, 'list', async (client) => {
    const capabilities = client.serverCapabilities ?? {};
    const wants = (kind: string): boolean => only === undefined || only.length === 0 || only.includes(kind);
    const listing: Listing = {
      server: client.serverInfo,
      era: client.era,
      protocolVersion: client.protocolVersion,
      ...(client.instructions === undefined ? {} : { instructions: client.instructions }),
      ...(capabilities.tools && wants('tools') ? { tools: await client.listAllTools() } : {}),
      ...(capabilities.resources && wants('resources') ? { resources: await client.listAllResources() } : {}),
      ...(capabilities.resources && wants('templates') ? { resourceTemplates: await client.listAllResourceTemplates() } : {}),
      ...(capabilities.prompts && wants('prompts') ? { prompts: await client.listAllPrompts() } : {}),
    };
    print(output, listing, () => renderListing(listing, output.style));
    return CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp call`: calls a tool; exit code 1 when the result is an error result. */
export function callCommand(
  target: Target,
  options: ConnectionOptions,
  output: Output,
  tool: string,
  args: Record<string, unknown>,
): Promise<CliExitCode> {
  return withClient(target, options, `call ${tool}`, async (client) => {
    const result = await client.callTool(tool, args);
    print(output, result, () => renderToolResult(result, output.style));
    return result.isError === true ? CLI_EXIT_CODES.serverError : CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp read`: reads a resource. */
export function readCommand(target: Target, options: ConnectionOptions, output: Output, uri: string): Promise<CliExitCode> {
  return withClient(target, options, `read ${uri}`, async (client) => {
    const result = await client.readResource(uri);
    print(output, result, () => renderResource(result, output.style));
    return CLI_EXIT_CODES.ok;
  });
}

/** `wiremcp prompt`: gets a prompt with its arguments. */
export function promptCommand(
  target: Target,
  options: ConnectionOptions,
  output: Output,
  name: string,
  args: Record<string, string>,
): Promise<CliExitCode> {
  return withClient(target, options, `prompt ${name}`, async (client) => {
    const result = await client.getPrompt(name, args);
    print(output, result, () => renderPrompt(result, output.style));
    return CLI_EXIT_CODES.ok;
  });
}

/**
 * Reads a completion reference: `prompt:<name>` or `resource:<uri template>`.
 */
export function parseReference(text: string): CompleteParams['ref'] {
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (colon > 0 && value !== '' && kind === 'prompt') return { type: 'ref/prompt', name: value };
  if (colon > 0 && value !== '' && kind === 'resource') return { type: 'ref/resource', uri: value };
  throw new CliError(
    `a completion reference is prompt:<name> or resource:<uri template>, got ${JSON.stringify(text)}`,
    CLI_EXIT_CODES.usage,
  );
}

/** `wiremcp complete`: the completions of one argument. */
export function completeCommand(target: Target, options: ConnectionOptions, output: Output, params: CompleteParams): Promise<CliExitCode> {
  return withClient(target, options, 'complete', async (client) => {
    const result = await client.complete(params);
    const { values, total, hasMore } = result.completion;
    print(output, result, () => {
      const more = hasMore ? output.style.dim(`… ${total === undefined ? 'more' : `${total} in all`}\n`) : '';
      return `${values.join('\n')}${values.length ? '\n' : ''}${more}`;
    });
    return CLI_EXIT_CODES.ok;
  });
}
