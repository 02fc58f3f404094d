/**
 * Every command's `--help` ends with examples of itself — including commands added later, which fail here until
 * they have some.
 */
import { expect, test } from 'vitest';
import { commandsOf, HELP_EXAMPLES } from './help-examples.js';
import { buildProgram, runCli, type CliIo } from './program.js';

function capture(): CliIo & { text: () => string } {
  let out = '';
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: () => true },
    cwd: process.cwd(),
    text: () => out,
  };
}

const paths = commandsOf(buildProgram(capture(), () => {})).map(({ path }) => path);

test('the program has the commands the examples are written for', () => {
  expect(paths).toEqual(expect.arrayContaining(['list', 'call', 'proxy', 'new server', 'pack']));
  for (const path of Object.keys(HELP_EXAMPLES)) expect(paths, `examples for a command that does not exist: ${path}`).toContain(path);
});

test.each(paths)('wiremcp %s --help shows examples of that command', async (path) => {
  const io = capture();
  // `conformance` passes --help through to the conformance app; `wiremcp help conformance` is its own help.
  const argv = path === 'conformance' ? ['help', path] : [...path.split(' '), '--help'];
  expect(await runCli(argv, io)).toBe(0);
  const help = io.text();
  expect(help).toContain('\nExamples:\n');
  const examples = help.slice(help.indexOf('\nExamples:\n'));
  expect(examples).toContain(`wiremcp ${path}`);
});
