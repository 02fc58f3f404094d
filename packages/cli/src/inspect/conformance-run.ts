/**
 * The inspector's Conformance tab, server side: runs the conformance app of the wiremcp checkout (the same app as
 * `wiremcp conformance`, found the same way; it is private to the repository, so it is run, not imported) against
 * the inspector's own target, with `--events -`, and passes each event to the page as it comes: the planned matrix,
 * every cell as it finishes (status, failing step, its transcript), the end with the counts. The page can start and
 * stop a run and narrow it to scenarios and revisions; it can name no other server, command or URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectionOptions } from '../connect.js';
import { findConformanceApp } from '../conformance.js';
import type { Target } from '../target.js';
import { InspectorError } from './inspector-session.js';

/** The longest line of events accepted from the app; a longer one ends the run (the app is not behaving). */
const MAX_EVENT_LINE = 16 * 1024 * 1024;
/** Events kept for a page that opens (or reloads) during a run. */
const MAX_KEPT_EVENTS = 20_000;
/** How much of the app's standard error is kept, for a run that fails to start or ends early. */
const STDERR_TAIL = 8000;
/** Scenario globs and revisions the page may pass: the app's own syntax, nothing that could be another option. */
const SCENARIO_GLOB = /^[A-Za-z0-9*_./-]{1,120}$/;
const REVISION = /^(legacy|modern|\d{4}-\d{2}-\d{2})$/;
/** The most cells a run may work on at once: the app's own bound for `--jobs`. */
export const MAX_CONFORMANCE_JOBS = 64;

/**
 * The default number of cells run at once: the app's default for `--jobs` (four per CPU, at most 64), which
 * `wiremcp conformance` gets by passing nothing. The app is private to the repository, so its function is mirrored
 * here rather than imported.
 */
export function defaultConformanceJobs(): number {
  return Math.min(MAX_CONFORMANCE_JOBS, availableParallelism() * 4);
}

/**
 * The texts of a run's event that may carry what the target or the app printed (stderr, reasons, failure messages,
 * transcript notes), redacted; the protocol messages are left as they are.
 */
function redactEvent(event: Record<string, unknown>, redact: (text: string) => string): Record<string, unknown> {
  const text = (value: unknown): unknown => (typeof value === 'string' ? redact(value) : value);
  if (event.type === 'exit') return { ...event, stderr: text(event.stderr), message: text(event.message) };
  if (event.type !== 'cell' || typeof event.result !== 'object' || event.result === null) return event;
  const result = event.result as Record<string, unknown>;
  const failure = typeof result.failure === 'object' && result.failure !== null ? (result.failure as Record<string, unknown>) : undefined;
  return {
    ...event,
    result: {
      ...result,
      ...('stderr' in result ? { stderr: text(result.stderr) } : {}),
      ...('reason' in result ? { reason: text(result.reason) } : {}),
      ...(failure ? { failure: { ...failure, message: text(failure.message) } } : {}),
      ...(Array.isArray(result.transcript)
        ? {
            transcript: (result.transcript as unknown[]).map((entry) =>
              typeof entry === 'object' && entry !== null && 'text' in entry
                ? { ...entry, text: text((entry as { text: unknown }).text) }
                : entry,
            ),
          }
        : {}),
    },
  };
}

/** How the app reaches the target: its command-line arguments, and the working directory and variables of a stdio server. */
export interface ConformanceTarget {
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** A word quoted for the app's `--command` line (POSIX shell quoting, which the app reads without expanding). */
export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The app's arguments for `target`, or the reason it cannot be run there: the app takes a command or a URL, so a
 * target that needs HTTP headers or an OAuth login is refused rather than tested without them.
 */
export function conformanceTarget(target: Target, options: ConnectionOptions, cwd?: string): ConformanceTarget | string {
  if (options.headers?.length) return 'the conformance app cannot send the HTTP headers this target needs';
  if (options.auth) return 'the conformance app cannot log in with OAuth';
  if (target.kind === 'http') return { args: ['--url', target.url.href] };
  const env: Record<string, string> = {};
  for (const pair of options.env ?? []) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  return {
    args: [
      '--command',
      [target.command, ...target.args].map(quoteWord).join(' '),
      '--transport',
      options.framing === 'content-length' ? 'stdio-content-length' : 'stdio-ndjson',
    ],
    ...(cwd === undefined ? {} : { cwd }),
    env,
  };
}

/** The conformance app of the checkout the inspector runs from (or the current directory's), if built. */
export function locateConformanceApp(cwd: string = process.cwd()): string | undefined {
  return findConformanceApp(cwd) ?? findConformanceApp(dirname(fileURLToPath(import.meta.url)));
}

/** What {@link ConformanceRun} is given. */
export interface ConformanceRunOptions {
  /** The app's entry (`apps/conformance/dist/cli.js`); none: the tab says why. */
  readonly app: string | undefined;
  /** How to reach the target, or why it cannot be tested. */
  readonly target: ConformanceTarget | string;
  /** Where the page's events go. */
  readonly emit: (event: Record<string, unknown>) => void;
  /** Hides secrets in what the app and the target printed before it reaches the page (default: nothing hidden). */
  readonly redact?: (text: string) => string;
}

/** One conformance run at a time against the inspector's target. */
export class ConformanceRun {
  readonly #options: ConformanceRunOptions;
  #child: ChildProcess | undefined;
  #events: Record<string, unknown>[] = [];
  #dropped = 0;
  #run = 0;

  constructor(options: ConformanceRunOptions) {
    this.#options = options;
  }

  /** The page's operations: `conformance` (the state and events so far), `conformance-start`, `conformance-stop`. */
  readonly operations = {
    conformance: (): unknown => this.state(),
    'conformance-start': (params: Record<string, unknown>): unknown => this.start(params),
    'conformance-stop': (): unknown => this.stop(),
  };

  /** Whether a run can start, whether one is running, and the events of the current (or last) run. */
  state(): Record<string, unknown> {
    const { app, target } = this.#options;
    const unavailable =
      app === undefined
        ? 'the conformance app was not found: run the inspector inside a wiremcp checkout where apps/conformance/dist/cli.js is built'
        : typeof target === 'string'
          ? target
          : undefined;
    return {
      available: unavailable === undefined,
      ...(unavailable ? { reason: unavailable } : {}),
      jobs: { default: defaultConformanceJobs(), max: MAX_CONFORMANCE_JOBS },
      running: this.#child !== undefined,
      run: this.#run,
      events: this.#events,
      dropped: this.#dropped,
    };
  }

  /**
   * Starts a run (narrowed by `scenario` globs and `revision`s, with `jobs` cells at once: an integer from 1 to
   * {@link MAX_CONFORMANCE_JOBS}, default {@link defaultConformanceJobs}); refused while one runs.
   */
  start(params: Record<string, unknown>): Record<string, unknown> {
    const { app, target } = this.#options;
    const narrow: string[] = [];
    for (const [key, pattern] of [
      ['scenario', SCENARIO_GLOB],
      ['revision', REVISION],
    ] as const) {
      const values = params[key] ?? [];
      if (!Array.isArray(values) || values.length > 20 || !values.every((value) => typeof value === 'string' && pattern.test(value)))
        throw new InspectorError(`'${key}' must be a list of up to 20 ${key === 'scenario' ? 'scenario globs' : 'revisions'}`);
      for (const value of values as string[]) narrow.push(`--${key}`, value);
    }
    const jobs = params.jobs === undefined ? defaultConformanceJobs() : params.jobs;
    if (typeof jobs !== 'number' || !Number.isInteger(jobs) || jobs < 1 || jobs > MAX_CONFORMANCE_JOBS)
      throw new InspectorError(`'jobs' must be an integer from 1 to ${MAX_CONFORMANCE_JOBS}`);
    // What the page sent is checked first (400), then whether a run can start now (409).
    if (app === undefined || typeof target === 'string') throw new InspectorError(String(this.state().reason), 409);
    if (this.#child !== undefined) throw new InspectorError('a conformance run is already running', 409);
    const out = mkdtempSync(join(tmpdir(), 'wiremcp-inspect-conformance-'));
    const args = [
      app,
      ...target.args,
      '--name',
      'inspected',
      '--no-baseline',
      '--no-html',
      '--out',
      out,
      '--plain',
      '--events',
      '-',
      '--jobs',
      String(jobs),
      ...narrow,
    ];
    const child = spawn(process.execPath, args, {
      cwd: target.cwd ?? process.cwd(),
      env: { ...process.env, ...target.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    // However this process ends (the CLI's signal handling exits without waiting for us), the run ends with it: on
    // SIGTERM the app stops its cells and its servers.
    const onExit = (): void => void child.kill('SIGTERM');
    process.on('exit', onExit);
    this.#run += 1;
    this.#events = [];
    this.#dropped = 0;
    const run = this.#run;
    let stderr = '';
    let buffer = '';
    let ended = false;
    let garbage = 0;
    const redact = this.#options.redact;
    const record = (raw: Record<string, unknown>): void => {
      const event = redact ? redactEvent(raw, redact) : raw;
      if (this.#events.length < MAX_KEPT_EVENTS) this.#events.push(event);
      else this.#dropped += 1;
      this.#options.emit({ type: 'conformance', run, event });
    };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let event: unknown;
        try {
          event = JSON.parse(line);
        } catch {
          garbage += 1;
          continue;
        }
        const type = (event as { type?: unknown } | null)?.type;
        if (type === 'start' || type === 'cell' || type === 'end') {
          if (type === 'end') ended = true;
          record(event as Record<string, unknown>);
        } else garbage += 1;
      }
      if (buffer.length > MAX_EVENT_LINE) {
        buffer = '';
        garbage += 1;
        child.kill('SIGKILL');
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)));
    const finish = (code: number | null, signal: NodeJS.Signals | null, error?: Error): void => {
      if (this.#child !== child) return;
      this.#child = undefined;
      process.off('exit', onExit);
      rmSync(out, { recursive: true, force: true });
      const how = error ? `could not start: ${error.message}` : signal ? `was killed (${signal})` : `exited with ${String(code)}`;
      record({
        type: 'exit',
        code,
        signal,
        complete: ended,
        garbage,
        message: ended ? `the run finished (exit code ${String(code)})` : `the conformance app ${how} before the end of the run`,
        stderr,
      });
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
    return { run, jobs };
  }

  /** Stops the running run: the app stops its cells and servers and reports what finished (SIGKILL after 10 s). */
  stop(): Record<string, unknown> {
    const child = this.#child;
    if (child === undefined) throw new InspectorError('no conformance run is running', 409);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    timer.unref();
    child.once('close', () => clearTimeout(timer));
    return {};
  }

  /** Ends a run when the inspector stops (its servers go with it: the app kills them on exit). */
  dispose(): void {
    this.#child?.kill('SIGTERM');
  }
}
