// publint (strict) and @arethetypeswrong (the esm-only profile) on every tarball given as an argument, in one
// process: their CLIs cost a Node start, a module graph load and a TypeScript program per tarball, which on a busy
// machine made the rehearsal's check take longer than the rest of it. Prints one JSON line per tarball on stdout:
// `{ file, publint: [messages], attw: [problems] | null }` (attw null: the package declares no types, nothing to
// check); exits 1 if any tarball has a publint warning or error or an attw problem the profile does not ignore.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

// @arethetypeswrong/core is the CLI's own engine (same version as the CLI pinned in package.json), loaded through it.
const cli = createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json');
const core = await import(pathToFileURL(createRequire(cli).resolve('@arethetypeswrong/core')).href);
// The CLI's `--profile esm-only`: ESM-only packages cannot be required from node10 or node16-CJS resolution by design.
const IGNORED_RESOLUTIONS = ['node10', 'node16-cjs'];

let failed = false;
for (const file of process.argv.slice(2)) {
  const data = await readFile(file);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
  const lint = messages
    .filter((message) => message.type !== 'suggestion')
    .map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`);
  const analysis = await core.checkPackage(core.createPackageFromTarballData(new Uint8Array(data)));
  const types = analysis.types
    ? analysis.problems
        .filter((problem) => !('resolutionKind' in problem) || !IGNORED_RESOLUTIONS.includes(problem.resolutionKind))
        .map((problem) => JSON.stringify(problem))
    : null;
  if (lint.length > 0 || (types && types.length > 0)) failed = true;
  process.stdout.write(`${JSON.stringify({ file, publint: lint, attw: types })}\n`);
}
process.exitCode = failed ? 1 : 0;
