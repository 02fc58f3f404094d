/**
 * The built `wiremcp` over a host configuration: `--config` (or a file found in the usual places) makes `list`,
 * `call server.tool`, `read`, `prompt` and `trace` work across every configured server; `host status` prints the table
 * and `host config` the resolved configuration — secrets hidden everywhere; mistakes are usage errors naming the file,
 * server and field. HOME is a temporary folder, so no configuration of the machine's user is found.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GRAMMAR, wiremcp, type RunResult } from './cli.test-util.js';

const SECRET = 'tok-4b3a29f1e0d7';
let dir: string;
let config: string;

/** Runs the bin in `cwd` with HOME pointing into the temporary folder and nothing else of this machine's environment. */
function run(args: readonly string[], cwd = dir): Promise<RunResult> {
  return wiremcp(args, { cwd, timeoutMs: 30_000, inheritEnv: false, env: { HOME: join(dir, 'home'), MY_TOKEN: SECRET } });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wiremcp-cli-host-'));
  mkdirSync(join(dir, 'home'));
  config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        grammar: { type: 'stdio', command: process.execPath, args: [GRAMMAR] },
        spare: { type: 'stdio', command: process.execPath, args: [GRAMMAR], tools: { allow: ['conjugate'] } },
        broken: { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(4)', '${env:MY_TOKEN}'] },
      },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wiremcp --config', () => {
  test('host status: one row per server; exit 3 when one is not ready; no secret', async () => {
    const result = await run(['--config', config, 'host', 'status']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^SERVER\s+STATE\s+TRANSPORT\s+ERA\s+TOOLS/);
    expect(result.stdout).toMatch(/\ngrammar\s+ready\s+stdio\s+modern 2026-07-28\s+4\s+/);
    expect(result.stdout).toMatch(/\nspare\s+ready\s+stdio\s+modern 2026-07-28\s+1\s+/);
    expect(result.stdout).toMatch(/\nbroken\s+failed\s+stdio\s+-.*exited with code 4/);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    const json = await run(['--config', config, 'host', 'status', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((row) => row.name)).toEqual(['grammar', 'spare', 'broken']);
  });

  test('call server.tool routes to that server', async () => {
    const result = await run(['--config', config, 'call', '-a', 'english_form=ate', 'grammar.lookup_spanish']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('comió');
    expect(result.stderr).toContain('server "broken" failed');
    const filtered = await run(['--config', config, 'call', '-a', 'english_form=ate', 'spare.lookup_spanish']);
    expect(filtered.code).toBe(1);
    expect(filtered.stderr).toContain('no tool is named "spare.lookup_spanish"');
    const down = await run(['--config', config, 'call', 'broken.anything']);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/server "broken" is failed: .*\[redacted\]/);
    expect(down.stderr).not.toContain(SECRET);
  });

  test('list across servers (namespaced), read with --server, prompt by namespaced name', async () => {
    const list = await run(['--config', config, 'list', '--only', 'tools', '--json']);
    const servers = (JSON.parse(list.stdout) as { servers: Array<{ name: string; tools?: Array<{ name: string }> }> }).servers;
    expect(servers.map((s) => [s.name, s.tools?.map((t) => t.name)])).toEqual([
      ['grammar', ['grammar.check_subject_verb_agreement', 'grammar.conjugate', 'grammar.lookup_irregular_verb', 'grammar.lookup_spanish']],
      ['spare', ['spare.conjugate']],
      ['broken', undefined],
    ]);
    const ambiguous = await run(['--config', config, 'read', 'grammar://a13/eat']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('2 servers offer "grammar://a13/eat" (grammar, spare): name one');
    const read = await run(['--config', config, 'read', '--server', 'spare', 'grammar://a13/eat']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('# eat → comer');
    const prompt = await run(['--config', config, 'prompt', '-a', 'verb=eat', '-a', 'tense=past simple', 'grammar.explain_tense']);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('ate — comió');
  });

  test('trace shows each server’s bytes under its name', async () => {
    const result = await run(['--config', config, 'trace', '--only', 'prompts']);
    expect(result.stderr).toContain('// Client → grammar\n{"jsonrpc":"2.0","id":0,"method":"server/discover"');
    expect(result.stderr).toContain('// spare → Client\n');
    expect(result.stderr).not.toContain(SECRET);
  });

  test('without --config: the first configuration found from the working directory up', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.cursor'), { recursive: true });
    mkdirSync(join(project, 'src'));
    writeFileSync(
      join(project, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { only: { command: process.execPath, args: [GRAMMAR] } } }),
    );
    const result = await run(['host', 'status'], join(project, 'src'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nonly\s+ready/);
    const printed = await run(['host', 'config'], join(project, 'src'));
    expect(JSON.parse(printed.stdout)).toMatchObject({
      files: [join(project, '.cursor', 'mcp.json')],
      servers: [{ name: 'only', source: { format: 'cursor' } }],
    });
  });

  test('host config hides secrets', async () => {
    const result = await run(['--config', config, 'host', 'config']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"[redacted]"');
    expect(result.stdout).not.toContain(SECRET);
  });

  test('usage errors: no configuration anywhere, target flags, a target and --config, a broken file', async () => {
    const empty = join(dir, 'home');
    const none = await run(['list'], empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no target and no configuration');
    const header = await run(['--config', config, 'list', '-H', 'X: y']);
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('--header applies to a target');
    const both = await run(['--config', config, 'list', process.execPath, GRAMMAR]);
    expect(both.code).toBe(2);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ servers: { x: { type: 'stdio', command: 'x', env: { T: '${env:NOT_SET_HERE}' } } } }));
    const bad = await run(['--config', broken, 'host', 'status']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `${broken}, server "x", field "env.T": "\${env:NOT_SET_HERE}": environment variable NOT_SET_HERE is not set`,
    );
  });
});
