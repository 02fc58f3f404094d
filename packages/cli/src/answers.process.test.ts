/**
 * The CLI answers a server's own requests — elicitation, sampling, roots — from flags, and on a terminal; the
 * official everything server (from npm) hides the tools that ask for them from a client that does not declare them.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { stopAll, WIREMCP, wiremcp } from './cli.test-util.js';

afterEach(stopAll);

const require = createRequire(new URL('../../../tests/interop/package.json', import.meta.url));
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const target = ['node', EVERYTHING, 'stdio'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wiremcp-answers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('from flags (no terminal)', () => {
  test('without answers nothing is declared: the server hides the tools that would ask', async () => {
    const run = await wiremcp(['call', 'trigger-elicitation-request', ...target]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Tool trigger-elicitation-request not found/);
  });

  test('--elicit-answers: accepted with the file content (defaults filled), declined, or cancelled when it does not fit', async () => {
    const answers = file(
      'form.json',
      JSON.stringify([{ name: 'Ada Lovelace', check: true, email: 'ada@example.com' }, { action: 'decline' }]),
    );
    const run = await wiremcp(['call', '--json', '--elicit-answers', answers, 'trigger-elicitation-request', ...target]);
    expect(run.code, run.stderr).toBe(0);
    const text = (JSON.parse(run.stdout) as { content: Array<{ text: string }> }).content.map((part) => part.text).join('\n');
    expect(text).toMatch(/"action": "accept"/);
    expect(text).toMatch(/"name": "Ada Lovelace"/);
    expect(text).toMatch(/"integer": 42/);

    const declined = await wiremcp([
      'call',
      '--elicit-answers',
      file('decline.json', '{"action":"decline"}'),
      'trigger-elicitation-request',
      ...target,
    ]);
    expect(declined.stdout).toMatch(/decline/i);

    const wrong = await wiremcp([
      'call',
      '--elicit-answers',
      file('wrong.json', '{"name":"Ada","integer":500}'),
      'trigger-elicitation-request',
      ...target,
    ]);
    expect(wrong.stderr).toMatch(/does not fit the server's form \(.*integer.*\): cancelled/);
    expect(wrong.stdout).toMatch(/cancel/i);
  });

  test('--sampling-reply TEXT and @FILE', async () => {
    const text = await wiremcp(['call', '--sampling-reply', 'the model speaks', '-a', 'prompt=hi', 'trigger-sampling-request', ...target]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/"text": "the model speaks"/);
    const fromFile = await wiremcp([
      'call',
      '--sampling-reply',
      `@${file('reply.txt', 'from a file\n')}`,
      '-a',
      'prompt=hi',
      'trigger-sampling-request',
      ...target,
    ]);
    expect(fromFile.stdout).toMatch(/"text": "from a file"/);
  });

  test('--root: directories as file:// roots, URIs as given', async () => {
    // The server asks for the roots on its own after the handshake, racing the call: the trace shows the answer.
    const run = await wiremcp(['call', '--trace', '--root', dir, '--root', 'https://example.com/repo', 'get-roots-list', ...target]);
    expect(run.code, run.stderr).toBe(0);
    const answer = run.stderr.split('\n').find((line) => line.includes('"roots":['));
    expect(answer, run.stderr).toBeDefined();
    expect(JSON.parse(answer!)).toMatchObject({
      result: { roots: [{ uri: `file://${dir}`, name: dir }, { uri: 'https://example.com/repo' }] },
    });
  });

  test('flag mistakes are usage errors, found before the server starts', async () => {
    const missing = await wiremcp(['call', '--root', join(dir, 'nope'), 'get-roots-list', ...target]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/--root .*no such directory/) });
    const notJson = await wiremcp(['call', '--elicit-answers', file('bad.json', '{nope'), 'x', ...target]);
    expect(notJson).toMatchObject({ code: 2, stderr: expect.stringMatching(/--elicit-answers .*not JSON/) });
    const unreadable = await wiremcp(['call', '--sampling-reply', `@${join(dir, 'absent.txt')}`, 'x', ...target]);
    expect(unreadable).toMatchObject({ code: 2, stderr: expect.stringMatching(/--sampling-reply: cannot read .*ENOENT/) });
  });

  test('a URL-mode elicitation is never accepted from a file: the URL is shown and the request declined', async () => {
    const run = await wiremcp([
      'call',
      '--elicit-answers',
      file('url.json', '{"action":"accept"}'),
      '-a',
      'url=https://example.com/consent',
      'trigger-url-elicitation',
      ...target,
    ]);
    expect(run.stderr).toMatch(/asks to open "https:\/\/example\.com\/consent": declined/);
  });
});

// `script` (util-linux, in every Debian) gives the command a real terminal: stdin and stderr are TTYs.
describe.runIf(existsSync('/usr/bin/script'))('on a terminal', () => {
  test('the form is asked field by field; a bad value is asked again; the answer goes to the server', async () => {
    const lines = ['a', 'Grace', 'maybe', 'y', '', 'grace@example.com', '', '', '', '', '2', '1,3', '', '', ''];
    const command = `NO_COLOR=1 ${process.execPath} ${WIREMCP} call --root ${dir} trigger-elicitation-request node ${EVERYTHING} stdio`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const asked = (text: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not asked ${text}; got: ${out}`)), 20_000);
        const check = (): void => {
          if (!out.includes(text)) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        };
        child.stdout.on('data', check);
        check();
      });
    try {
      await asked('Answer the form?');
      child.stdin.write(`${lines.join('\n')}\n`);
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(out).toMatch(/answer y or n/);
      expect(code, out).toBe(0);
      expect(out).toMatch(/"name": "Grace"/);
      expect(out).toMatch(/"untitledSingleSelectEnum": "Rachel"/);
      expect(out).toMatch(/"untitledMultipleSelectEnum": \[\s*"Guitar",\s*"Violin"\s*\]/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
