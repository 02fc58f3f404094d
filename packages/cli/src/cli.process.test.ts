import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { exited, GRAMMAR, startHttp, stopAll, WIREMCP, wiremcp } from './cli.test-util.js';

afterEach(stopAll);

const CONJUGATE = ['-a', 'verb=eat', '-a', 'tense=past simple', '-a', 'person=3rd singular', 'conjugate'];

describe('wiremcp against a stdio server', () => {
  test('list: the server and its tools, resources and prompts; --json for scripts', async () => {
    const human = await wiremcp(['list', 'node', GRAMMAR]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^wiremcp-grammar 0\.1\.0 · modern era · 2026-07-28/);
    expect(human.stdout).toMatch(/tools \(4\)\n {2}conjugate\(verb: string, tense: string, person: string\)/);
    expect(human.stdout).toMatch(/prompts \(2\)/);

    const json = await wiremcp(['list', '--era', 'legacy', '--only', 'tools', '--json', 'node', GRAMMAR]);
    expect(json.code).toBe(0);
    const listing = JSON.parse(json.stdout) as { era: string; protocolVersion: string; tools: { name: string }[]; prompts?: unknown };
    expect(listing.era).toBe('legacy');
    expect(listing.protocolVersion).toBe('2025-11-25');
    expect(listing.tools.map((tool) => tool.name)).toContain('lookup_spanish');
    expect(listing.prompts).toBeUndefined();
  });

  test('call: the result, exit 1 for an error result or an unknown tool', async () => {
    const ok = await wiremcp(['call', '--json', ...CONJUGATE, 'node', GRAMMAR]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ content: [{ type: 'text', text: 'ate' }], structuredContent: { spanish: 'comió' } });

    const human = await wiremcp(['call', '--args', '{"english_form":"ate"}', 'lookup_spanish', 'node', GRAMMAR]);
    expect(human.stdout).toMatch(/^comió\n/);

    const refused = await wiremcp(['call', '-a', 'verb=fly', '-a', 'tense=infinitive', '-a', 'person=1sg', 'conjugate', 'node', GRAMMAR]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^tool error\nverb 'fly' is out of scope/);

    const unknown = await wiremcp(['call', 'no_such_tool', 'node', GRAMMAR]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/the server answered -32602/);
  });

  test('read, prompt and complete', async () => {
    const read = await wiremcp(['read', 'grammar://a13/eat', 'node', GRAMMAR]);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/^grammar:\/\/a13\/eat · text\/markdown\n# eat → comer/);

    const prompt = await wiremcp(['prompt', '-a', 'verb=eat', '-a', 'tense=past simple', 'explain_tense', 'node', GRAMMAR]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toMatch(/user: .*past simple of the English verb 'eat'/);

    const complete = await wiremcp(['complete', '--json', 'prompt:explain_tense', 'verb=w', 'node', GRAMMAR]);
    expect(complete.code).toBe(0);
    const values = (JSON.parse(complete.stdout) as { completion: { values: string[] } }).completion.values;
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((value) => value.startsWith('w'))).toBe(true);
  });

  test('trace: the bytes both ways, as the seed trace prints them, on stderr', async () => {
    const run = await wiremcp(['trace', '--era', 'legacy', '--protocol-version', '2024-11-05', '--only', 'tools', 'node', GRAMMAR]);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '// Client → Server',
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"wiremcp-cli","version":"0.1.0"}}}',
      '// Server → Client',
    ]);
    expect(lines[3]).toMatch(/^\{"jsonrpc":"2\.0","id":0,"result":\{"protocolVersion":"2024-11-05"/);
    expect(lines.slice(4, 8)).toEqual([
      '// Client → Server',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '// Client → Server',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    ]);
    expect(run.stdout).toMatch(/legacy era · 2024-11-05/);
  });

  test('--framing content-length frames each message with its header', async () => {
    const run = await wiremcp(['trace', '--framing', 'content-length', '--era', 'legacy', '--only', 'prompts', 'node', GRAMMAR]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^\/\/ Client → Server\nContent-Length: \d+\r\n\r\n\{"jsonrpc":"2\.0","id":0,"method":"initialize"/);
  });

  test('exit codes: 2 for a bad command line, 3 for a server that cannot start', async () => {
    const usage = await wiremcp(['list', '--era', 'medieval', 'node', GRAMMAR]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--era/);
    const missing = await wiremcp(['list']);
    expect(missing.code).toBe(2);
    const badUrl = await wiremcp(['list', 'http://127.0.0.1:1/mcp', 'extra']);
    expect(badUrl.code).toBe(2);

    const notFound = await wiremcp(['list', 'wiremcp-no-such-command-here']);
    expect(notFound.code).toBe(3);
    expect(notFound.stderr).toMatch(/cannot connect to wiremcp-no-such-command-here: .*command not found/);
  });
});

describe('wiremcp against an HTTP server', () => {
  test('list in both eras; --header goes on every request; trace shows requests and responses', async () => {
    const server = await startHttp([GRAMMAR, '--http', '127.0.0.1:0']);
    const modern = await wiremcp(['list', '--only', 'tools', server.url]);
    expect(modern.code).toBe(0);
    expect(modern.stdout).toMatch(/modern era · 2026-07-28/);

    const legacy = await wiremcp([
      'trace',
      '--era',
      'legacy',
      '-H',
      'X-Trace-Me: yes',
      '-H',
      'Authorization: Bearer secret',
      '--only',
      'prompts',
      server.url,
    ]);
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toMatch(/legacy era · 2025-11-25/);
    expect(legacy.stderr).toMatch(new RegExp(`^// Client → Server\\nPOST ${server.url.replace(/[.]/g, '\\.')}\\n`));
    expect(legacy.stderr).toMatch(/x-trace-me: yes/);
    expect(legacy.stderr).toMatch(/authorization: \[redacted\]/);
    expect(legacy.stderr).not.toMatch(/secret/);
    expect(legacy.stderr).toMatch(/\/\/ Server → Client\nHTTP 200 OK\n[\s\S]*mcp-session-id: /);
  });

  test('exit 3 when nothing listens', async () => {
    const run = await wiremcp(['list', 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:9\/mcp/);
  });
});

describe('wiremcp proxy', () => {
  test('serves a stdio server over Streamable HTTP, to clients of either era', async () => {
    const proxy = await startHttp([WIREMCP, 'proxy', '--http', '127.0.0.1:0', 'node', GRAMMAR]);
    const legacy = await wiremcp(['call', '--json', '--era', 'legacy', '--protocol-version', '2024-11-05', ...CONJUGATE, proxy.url]);
    expect(legacy.code).toBe(0);
    expect(JSON.parse(legacy.stdout)).toMatchObject({ content: [{ type: 'text', text: 'ate' }] });
    const modern = await wiremcp(['read', '--json', 'grammar://a13/go', proxy.url]);
    expect(modern.code).toBe(0);
    expect(modern.stdout).toMatch(/go → ir/);
    proxy.child.kill('SIGTERM');
    expect(await exited(proxy.child)).toBe(0);
  });

  test('exposes an HTTP server as a stdio server, translating the era', async () => {
    const server = await startHttp([GRAMMAR, '--http', '127.0.0.1:0']);
    // The downstream client speaks 2024-11-05 to the proxy; the proxy speaks 2026-07-28 to the server.
    const run = await wiremcp([
      'call',
      '--json',
      '--era',
      'legacy',
      '--protocol-version',
      '2024-11-05',
      ...CONJUGATE,
      'node',
      WIREMCP,
      'proxy',
      server.url,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ structuredContent: { english: 'ate' } });
  });
});

describe('wiremcp itself', () => {
  test('--version and -V print the package version (answered before the command modules load); --help lists the commands', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await wiremcp([flag]);
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
    const help = await wiremcp(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['list', 'trace', 'call', 'read', 'prompt', 'complete', 'proxy', 'conformance', 'new']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const usage = await wiremcp(['list']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/no target and no configuration/);
  });
});

describe('wiremcp conformance', () => {
  test('runs the app of the checkout it is in, and explains where it is missing', async () => {
    const help = await wiremcp(['conformance', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout + help.stderr).toMatch(/--server/);

    const outside = mkdtempSync(join(tmpdir(), 'wiremcp-cli-'));
    try {
      const missing = await wiremcp(['conformance'], { cwd: outside });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/conformance app was not found/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
