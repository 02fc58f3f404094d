/**
 * The Conformance tab's runner with stand-in apps (small scripts that print what the real app prints with
 * `--events -`, then finish, die, ignore or honour SIGTERM): events passed on in order and kept for a page that
 * opens late, garbage lines ignored and counted, an app that dies mid-run reported as such, one run at a time, and
 * the page's narrowing refused when it could be anything but a scenario glob or a revision.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { secretRedactor } from '../redact-secrets.js';
import { ConformanceRun, conformanceTarget, defaultConformanceJobs, MAX_CONFORMANCE_JOBS, quoteWord } from './conformance-run.js';
import { InspectorError } from './inspector-session.js';

const dir = mkdtempSync(join(tmpdir(), 'wiremcp-conformance-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in app: prints a start event with its argv, cwd and one variable, then runs `rest`. */
function app(name: string, rest: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `const say = (event) => process.stdout.write(JSON.stringify(event) + '\\n');\n` +
      `say({ type: 'start', cells: 2, runnable: 2, targets: ['inspected'], argv: process.argv.slice(2), cwd: process.cwd(), env: process.env.GIVEN ?? null });\n` +
      rest,
  );
  return file;
}

const failing = {
  scenario: 'tools-call-unknown-tool',
  status: 'fail',
  failure: { step: 2, stepLabel: 'expect: an error', message: 'got a result', stepAt: 5 },
  transcript: [{ at: 6, dir: 'in', message: { jsonrpc: '2.0', id: 2, result: { isError: true } } }],
};

function runner(
  file: string | undefined,
  target = conformanceTarget({ kind: 'stdio', command: 'node', args: ['my server.js'] }, { env: ['GIVEN=yes'] }, dir),
  redact?: (text: string) => string,
) {
  const events: Record<string, unknown>[] = [];
  const run = new ConformanceRun({ app: file, target, emit: (event) => events.push(event), ...(redact ? { redact } : {}) });
  const exited = (): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const check = setInterval(() => {
        const exit = events.map((event) => event.event as Record<string, unknown>).find((event) => event.type === 'exit');
        if (exit) resolve((clearInterval(check), exit));
      }, 20);
    });
  return { run, events, exited };
}

describe('ConformanceRun', () => {
  test('events pass on in order; garbage is counted, not shown; the run and its target arguments', async () => {
    const file = app(
      'finishes',
      `say({ type: 'cell', result: ${JSON.stringify(failing)}, expected: false });\n` +
        `process.stdout.write('not json\\n[1,2]\\n');\n` +
        `say({ type: 'end', exitCode: 1, counts: { pass: 0, fail: 1 }, aborted: false });\nprocess.exitCode = 1;\n`,
    );
    const { run, events, exited } = runner(file);
    expect(run.start({ scenario: ['tools/*'], revision: ['2025-11-25'] })).toEqual({ run: 1, jobs: defaultConformanceJobs() });
    const exit = await exited();
    expect(exit).toMatchObject({ type: 'exit', code: 1, complete: true, garbage: 2, message: 'the run finished (exit code 1)' });
    expect(events.map((event) => (event.event as { type: string }).type)).toEqual(['start', 'cell', 'end', 'exit']);
    expect(events.every((event) => event.type === 'conformance' && event.run === 1)).toBe(true);
    const start = events[0]!.event as { argv: string[]; cwd: string; env: string };
    expect(start.argv).toEqual([
      '--command',
      "node 'my server.js'",
      '--transport',
      'stdio-ndjson',
      '--name',
      'inspected',
      '--no-baseline',
      '--no-html',
      '--out',
      start.argv[9],
      '--plain',
      '--events',
      '-',
      '--jobs',
      String(defaultConformanceJobs()),
      '--scenario',
      'tools/*',
      '--revision',
      '2025-11-25',
    ]);
    expect(start.cwd).toBe(dir);
    expect(start.env).toBe('yes');
    // A page that opens now gets the whole run.
    expect(run.state()).toMatchObject({ available: true, running: false, run: 1, events: events.map((event) => event.event) });
  });

  test('jobs: the app default unless given, an integer from 1 to 64, passed as --jobs', async () => {
    expect(defaultConformanceJobs()).toBeGreaterThanOrEqual(1);
    expect(defaultConformanceJobs()).toBeLessThanOrEqual(MAX_CONFORMANCE_JOBS);
    const file = app('jobs', `process.exitCode = 0;\n`);
    const { run, events, exited } = runner(file);
    expect(run.state().jobs).toEqual({ default: defaultConformanceJobs(), max: 64 });
    for (const jobs of [0, 65, -1, 1.5, '4', null, Number.NaN, Infinity, [2]])
      expect(() => run.start({ jobs }), String(jobs)).toThrow(new InspectorError("'jobs' must be an integer from 1 to 64"));
    expect(run.state().running).toBe(false);
    expect(run.start({ jobs: 1 })).toEqual({ run: 1, jobs: 1 });
    await exited();
    const argv = (events[0]!.event as { argv: string[] }).argv;
    expect(argv.slice(argv.indexOf('--jobs'), argv.indexOf('--jobs') + 2)).toEqual(['--jobs', '1']);
    expect(argv.filter((word) => word === '--jobs')).toHaveLength(1);
  });

  test('what the app and the target print reaches the page redacted: stderr, reasons, failure messages, notes', async () => {
    const secretCell = {
      ...failing,
      failure: { ...failing.failure, message: 'refused: Authorization: Bearer cell-failure-token-1234' },
      stderr: 'GET /token?access_token=cell-stderr-token-5678&x=1\nclient_secret=s3cr3t-value',
      transcript: [{ at: 1, dir: 'note', text: 'spawned with --api-key note-key-9999' }, ...failing.transcript],
    };
    const file = app(
      'leaks',
      `say({ type: 'cell', result: ${JSON.stringify(secretCell)}, expected: false });\n` +
        `process.stderr.write('server said: {"refresh_token":"app-stderr-refresh-1111"} with known-header-value-42\\n');\n` +
        `process.exitCode = 3;\n`,
    );
    const { run, events, exited } = runner(file, undefined, secretRedactor(['known-header-value-42']));
    run.start({});
    const exit = await exited();
    const shown = JSON.stringify(events) + JSON.stringify(run.state());
    for (const secret of [
      'cell-failure-token-1234',
      'cell-stderr-token-5678',
      's3cr3t-value',
      'note-key-9999',
      'app-stderr-refresh-1111',
      'known-header-value-42',
    ])
      expect(shown).not.toContain(secret);
    expect(exit.stderr).toBe('server said: {"refresh_token":"[redacted]"} with [redacted]\n');
    const cell = events.find((event) => (event.event as { type: string }).type === 'cell')!.event as { result: Record<string, unknown> };
    expect(cell.result.stderr).toBe('GET /token?access_token=[redacted]&x=1\nclient_secret=[redacted]');
    expect(cell.result.failure).toMatchObject({ step: 2, message: 'refused: Authorization: Bearer [redacted]' });
    expect((cell.result.transcript as { text?: string }[])[0]!.text).toBe('spawned with --api-key [redacted]');
    // The protocol messages are left as they were.
    expect((cell.result.transcript as unknown[])[1]).toEqual(failing.transcript[0]);
  });

  test('an app that dies mid-run: the run ends as incomplete, with its stderr', async () => {
    const file = app('dies', `process.stderr.write('about to die\\n');\nsetTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);\n`);
    const { run, exited } = runner(file);
    run.start({});
    expect(await exited()).toMatchObject({
      complete: false,
      signal: 'SIGKILL',
      message: 'the conformance app was killed (SIGKILL) before the end of the run',
      stderr: 'about to die\n',
    });
    expect(run.state().running).toBe(false);
  });

  test('one run at a time; stop ends it the way the app ends on SIGTERM', async () => {
    const file = app(
      'waits',
      `const keep = setInterval(() => {}, 1000);\nprocess.on('SIGTERM', () => { clearInterval(keep);` +
        ` say({ type: 'end', exitCode: 1, counts: {}, aborted: true }); process.exitCode = 130; });\n`,
    );
    const { run, events, exited } = runner(file);
    run.start({});
    await expect.poll(() => events.length, { timeout: 15_000 }).toBe(1);
    expect(() => run.start({})).toThrow(new InspectorError('a conformance run is already running', 409));
    run.stop();
    expect(await exited()).toMatchObject({ code: 130, complete: true });
    expect(() => run.stop()).toThrow(/no conformance run is running/);
  });

  test('the narrowing the page sends cannot become another option or another target', () => {
    const { run } = runner(app('never', ''));
    for (const scenario of [['--command=rm -rf /'], ['a b'], 'tools/*', [1], Array(21).fill('x')])
      expect(() => run.start({ scenario })).toThrow(InspectorError);
    for (const revision of [['--url'], ['2025-11-25x'], ['latest']]) expect(() => run.start({ revision })).toThrow(InspectorError);
    expect(run.state().running).toBe(false);
  });

  test('no app, or a target the app cannot reach as the inspector does: the tab says why and nothing starts', () => {
    expect(runner(undefined).run.state()).toMatchObject({
      available: false,
      reason: expect.stringContaining('apps/conformance/dist/cli.js'),
    });
    const headers = conformanceTarget({ kind: 'http', url: new URL('http://127.0.0.1:9/mcp') }, { headers: ['Authorization: Bearer x'] });
    expect(headers).toBe('the conformance app cannot send the HTTP headers this target needs');
    const { run } = runner(app('never2', ''), headers);
    let refused: unknown;
    try {
      run.start({});
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ status: 409, message: headers });
    expect(conformanceTarget({ kind: 'http', url: new URL('http://127.0.0.1:9/mcp') }, {})).toEqual({
      args: ['--url', 'http://127.0.0.1:9/mcp'],
    });
  });

  test('words are quoted for the app the way a shell would read them', () => {
    expect(quoteWord('server.js')).toBe('server.js');
    expect(quoteWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(quoteWord('')).toBe("''");
  });
});
