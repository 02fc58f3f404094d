import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { GRAMMAR, startHttp, stopAll } from '../cli.test-util.js';
import { TOKEN_HEADER } from './inspector-server.js';
import { runInspect } from './run-inspect.js';

afterAll(stopAll);

/** Starts the inspector in this process; resolves with its URL, its exit, and the way to stop it. */
async function inspect(target: Parameters<typeof runInspect>[0], options: Parameters<typeof runInspect>[1] = { serverStderr: 'ignore' }) {
  const controller = new AbortController();
  let out = '';
  let err = '';
  let printed: (url: string) => void;
  const url = new Promise<string>((resolve) => (printed = resolve));
  const exit = runInspect(
    target,
    options,
    { signal: controller.signal },
    {
      out: (text) => {
        out += text;
        const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
        if (match) printed(match[0]);
      },
      err: (text) => void (err += text),
    },
  );
  exit.catch(() => undefined);
  const page = new URL(await Promise.race([url, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${err}`)))]));
  const op = (name: string, params: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${page.origin}/api/rpc`,
        { method: 'POST', headers: { 'content-type': 'application/json', [TOKEN_HEADER]: page.searchParams.get('token')! } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ op: name, params }));
    });
  return { op, exit, stop: () => controller.abort(), err: () => err };
}

describe('wiremcp inspect when the target goes away', () => {
  test('a stdio server that dies: the page is told, operations say why, the inspector keeps serving', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiremcp-inspect-'));
    const pidFile = join(dir, 'pid');
    try {
      const inspector = await inspect({ kind: 'stdio', command: 'sh', args: ['-c', `echo $$ > ${pidFile}; exec node ${GRAMMAR}`] });
      const listed = await inspector.op('tools');
      expect((listed.body.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      await expect
        .poll(async () => ((await inspector.op('state')).body.result as { closed: unknown }).closed, { timeout: 20_000 })
        .toBeTruthy();
      const after = await inspector.op('tools');
      expect(after.status).toBe(409);
      expect(String(after.body.error)).toMatch(/^not connected: /);
      expect(inspector.err()).toContain('the connection ended');
      inspector.stop();
      expect(await inspector.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'a stdio server that dies printing credentials: what the page gets says why, with the credentials redacted',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wiremcp-inspect-'));
      const pidFile = join(dir, 'pid');
      const leaks =
        'echo "upstream said: Authorization: Bearer leak-bearer-0123456789" >&2; echo "retrying with $GIVEN_KEY and access_token=leak-at-42" >&2';
      try {
        const inspector = await inspect(
          { kind: 'stdio', command: 'sh', args: ['-c', `echo $$ > ${pidFile}; ${leaks}; exec node ${GRAMMAR}`] },
          { serverStderr: 'pipe', env: ['GIVEN_KEY=given-env-secret-77'] },
        );
        expect((await inspector.op('tools')).status).toBe(200);
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
        let closed = '';
        await expect
          .poll(async () => (closed = String(((await inspector.op('state')).body.result as { closed: unknown }).closed ?? '')), {
            timeout: 20_000,
          })
          .toMatch(/SIGKILL/);
        const after = await inspector.op('tools');
        const shown = `${closed}\n${String(after.body.error)}`;
        // The stderr is quoted (so the page says why) …
        expect(closed).toContain('upstream said: Authorization: Bearer [redacted]');
        expect(closed).toContain('retrying with [redacted] and access_token=[redacted]');
        // … and no credential is in anything the page gets.
        for (const secret of ['leak-bearer-0123456789', 'given-env-secret-77', 'leak-at-42']) expect(shown).not.toContain(secret);
        inspector.stop();
        expect(await inspector.exit).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test(
    'an HTTP server that stops: the failed request is reported to the page, the inspector keeps serving',
    { timeout: 60_000 },
    async () => {
      const server = await startHttp([GRAMMAR, '--http', '127.0.0.1:0']);
      const inspector = await inspect({ kind: 'http', url: new URL(server.url) });
      expect((await inspector.op('tools')).status).toBe(200);
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));
      // A read, not a list the client may have cached.
      const failed = await inspector.op('read', { uri: 'grammar://a13/eat' });
      expect(failed.status).toBe(200);
      expect((failed.body.error as { message: string }).message).toMatch(/fetch failed|ECONNREFUSED|connect/i);
      expect((await inspector.op('state')).status).toBe(200);
      inspector.stop();
      expect(await inspector.exit).toBe(0);
    },
  );
});
