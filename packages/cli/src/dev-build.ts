/**
 * The build of `wiremcp dev`: a server's TypeScript or JavaScript entry bundled by esbuild into one ES module
 * (its own files compiled in, its packages imported from where they are installed), and the list of its own files
 * to watch. esbuild, because it strips types and bundles in milliseconds on every Node the CLI supports (Node's own
 * type stripping exists only from Node 22.6, and does not follow `.js` import specifiers to `.ts` files); it is the
 * bundler the repository already builds its bins with.
 *
 * The bundle is written next to the entry, in `.wiremcp-dev/` (removed by `dispose`), so that the packages it
 * imports resolve from the entry's own `node_modules`.
 */
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** The outcome of one build: the files it read, or esbuild's messages. */
export type DevBuildResult = { readonly ok: true; readonly inputs: readonly string[] } | { readonly ok: false; readonly message: string };

/** A build of one entry; see the module comment. */
export interface DevBuild {
  /** The bundle `build` writes (only when the build succeeds: a failed build leaves the last good one). */
  readonly outfile: string;
  /** Builds; never rejects for errors in the code (they are in the result). */
  build(): Promise<DevBuildResult>;
  /** Removes the bundle's directory. */
  dispose(): Promise<void>;
}

/** Makes the build of `entry` (an absolute path). */
export async function createDevBuild(entry: string): Promise<DevBuild> {
  const esbuild = await import('esbuild');
  const dir = join(dirname(entry), '.wiremcp-dev');
  const outfile = join(dir, `${basename(entry).replace(/\.[cm]?[jt]sx?$/, '')}.mjs`);
  await mkdir(dir, { recursive: true });
  return {
    outfile,
    async build() {
      try {
        const result = await esbuild.build({
          entryPoints: [entry],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          packages: 'external',
          sourcemap: 'inline',
          metafile: true,
          logLevel: 'silent',
          // The bundle's import.meta.url is not the entry's: code that finds files next to itself would look in
          // .wiremcp-dev/. Nothing can be done about that without changing the code; the README says so.
        });
        const inputs = Object.keys(result.metafile.inputs)
          .map((input) => resolve(input))
          .filter((input) => !input.split(sep).includes('node_modules'));
        return { ok: true, inputs };
      } catch (error) {
        const errors = (error as { errors?: import('esbuild').Message[] }).errors;
        if (!errors?.length) return { ok: false, message: error instanceof Error ? error.message : String(error) };
        const lines = await esbuild.formatMessages(errors, { kind: 'error', color: false });
        return { ok: false, message: lines.join('').trimEnd() };
      }
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
