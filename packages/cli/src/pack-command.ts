/**
 * Registers `wiremcp pack` on the program (kept apart from program.ts: the command and its options in one place).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from './program.js';

/** Adds the `pack` command; `done` receives its exit code. */
export function registerPackCommand(program: Command, io: CliIo, done: (code: number | Promise<number>) => void): void {
  program
    .command('pack')
    .description('write server.json (MCP registry) and an .mcpb bundle for a server package')
    .option('--out <dir>', 'where the .mcpb goes (default: <dir>/dist/mcpb)')
    .option('--bin <name>', 'the bin a host runs, when the package has several')
    .option('--bundle-url <url>', 'also list the bundle in server.json, downloaded from this URL ({version} and {file} filled in)')
    .option('--no-probe', 'do not start the bundled server to list its tools')
    .option('--check', 'do not write server.json; fail when it is not up to date')
    .argument('[dir]', 'the server package (default: the current directory)')
    .action((dir: string | undefined, flags: { out?: string; bin?: string; bundleUrl?: string; probe: boolean; check?: boolean }) =>
      done(
        import('./pack/pack.js').then(({ runPack }) =>
          runPack(
            resolve(io.cwd, dir ?? '.'),
            {
              ...(flags.out ? { out: flags.out } : {}),
              ...(flags.bin ? { bin: flags.bin } : {}),
              ...(flags.bundleUrl ? { bundleUrl: flags.bundleUrl } : {}),
              probe: flags.probe,
              ...(flags.check ? { check: true } : {}),
            },
            (text) => io.stdout.write(text),
          ),
        ),
      ),
    );
}
