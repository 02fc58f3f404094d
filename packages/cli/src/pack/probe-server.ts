/**
 * Starts a staged bundle's server as a host would (`node <bundle>/server/<bin>` with its required arguments) and
 * lists what it offers, for the manifest's `tools`: a bundle whose server does not start, or does not answer
 * `initialize` and the lists, is refused before it is written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';
import type { ListedItem, ServerOffer } from './mcpb-manifest.js';
import type { ServerPackage } from './pack-config.js';

/** The arguments a probe passes: fixed values, defaults, and a fresh empty directory for a required path. */
function probeArguments(pkg: ServerPackage, scratch: string): string[] {
  const args: string[] = [];
  for (const argument of pkg.config.arguments ?? []) {
    const value =
      argument.value ?? argument.default ?? (argument.isRequired ? (argument.format === 'filepath' ? scratch : undefined) : undefined);
    if (value === undefined) {
      if (argument.isRequired)
        throw new CliError(
          `cannot start the server to list its tools: give ${argument.name ?? argument.valueHint} a default`,
          CLI_EXIT_CODES.usage,
        );
      continue;
    }
    if (argument.type === 'named') args.push(argument.name!);
    args.push(value);
  }
  return args;
}

/** Starts `bin` (an absolute path) and lists its tools and prompts. */
export async function probeServer(pkg: ServerPackage, bin: string): Promise<ServerOffer> {
  const scratch = await mkdtemp(join(tmpdir(), 'wiremcp-pack-probe-'));
  try {
    const { connectTarget } = await import('../connect.js');
    const env = (pkg.config.environmentVariables ?? [])
      .filter((variable) => variable.isRequired && variable.default !== undefined)
      .map((variable) => `${variable.name}=${variable.default}`);
    let connection;
    try {
      connection = await connectTarget(
        { kind: 'stdio', command: process.execPath, args: [bin, ...probeArguments(pkg, scratch)] },
        { era: 'legacy', timeoutMs: 30_000, env, serverStderr: 'pipe' },
      );
    } catch (error) {
      throw new CliError(`the bundled server did not start and answer initialize: ${(error as Error).message}`, CLI_EXIT_CODES.connection);
    }
    try {
      const capabilities = connection.client.serverCapabilities ?? {};
      const pick = (items: readonly { name: string; description?: string }[]): ListedItem[] =>
        items.map((item) => ({ name: item.name, ...(item.description ? { description: item.description } : {}) }));
      const tools = capabilities.tools ? pick(await connection.client.listAllTools()) : [];
      const prompts = capabilities.prompts ? pick(await connection.client.listAllPrompts()) : [];
      return { tools, prompts };
    } finally {
      await connection.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
