/**
 * How the CLI fails: `--json` failures are JSON, a wrong URL path names the first refusal (not the 404 of the last
 * transport tried), and a proxy whose target is dead exits 3 and says why once.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { GRAMMAR, startHttp, stopAll, wiremcp } from './cli.test-util.js';

afterEach(stopAll);

/** A port nothing listens on: bound, read and closed again. */
function deadPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('--json failures', () => {
  test('a JSON-RPC error: a JSON object on stdout with the exit code and the server error; nothing human', async () => {
    const run = await wiremcp(['call', '--json', 'no_such_tool', 'node', GRAMMAR]);
    expect(run.code).toBe(1);
    const body = JSON.parse(run.stdout) as { error: { message: string; exitCode: number; rpc?: { code: number; message: string } } };
    expect(body.error).toMatchObject({ exitCode: 1, rpc: { code: -32602 } });
    expect(body.error.message).toMatch(/call no_such_tool: the server answered -32602/);
    expect(run.stderr).toBe('');
  });

  test('a server that cannot be reached and a bad command line are JSON too', async () => {
    const port = await deadPort();
    const unreachable = await wiremcp(['list', '--json', `http://127.0.0.1:${port}/mcp`]);
    expect(unreachable.code).toBe(3);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ error: { exitCode: 3, message: expect.stringMatching(/cannot connect/) } });

    const usage = await wiremcp(['list', '--json', '--era', 'medieval', 'node', GRAMMAR]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error: { exitCode: 2, message: expect.stringMatching(/--era/) } });
  });
});

describe('a wrong URL path', () => {
  test('reports the refusal of the first request (the POST), not the 404 of the HTTP+SSE GET tried last', async () => {
    const server = await startHttp([GRAMMAR, '--http', '127.0.0.1:0']);
    const wrong = server.url.replace(/\/mcp$/, '/wrong');
    const run = await wiremcp(['list', wrong]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:\d+\/wrong: POST .*404/);
    expect(run.stderr).not.toMatch(/GET \(HTTP\+SSE stream\)/);
  });
});

describe('wiremcp proxy to a dead URL', () => {
  test.each([['stdio'], ['http']])('serving %s: exit 3, the cause said once', async (mode) => {
    const port = await deadPort();
    const serve = mode === 'http' ? ['--http', '127.0.0.1:0'] : [];
    const run = await wiremcp(['proxy', ...serve, `http://127.0.0.1:${port}/mcp`]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`cannot connect to http://127\\.0\\.0\\.1:${port}/mcp`));
    // One line, naming the refused connection once (before: "cannot start: …" and the same cause again).
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr.match(/ECONNREFUSED/g), run.stderr).toHaveLength(1);
  });
});
