/**
 * The live part: resources that change by themselves. `demo://live/clock` ticks on a timer (every second by
 * default) and tells subscribers after each tick; `demo://live/log` is the tail of an activity log that grows
 * whenever something in the server changes (`demo://live/log{?lines}` chooses how many lines). The timer is
 * unref'd, so it never keeps a process alive, and `stop()` clears it.
 */
import { invalidParams } from '@wiremcp/protocol';
import type { McpServer } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Icons } from './icons.js';

/** The clock: JSON with the time of the last tick and the tick count. */
export const CLOCK_URI = 'demo://live/clock';
/** The activity log's last {@link LOG_LINES} lines. */
export const LOG_URI = 'demo://live/log';
/** The activity log's last `lines` lines. */
export const LOG_TEMPLATE = 'demo://live/log{?lines}';

/** Lines `demo://live/log` shows. */
export const LOG_LINES = 20;
/** Lines the log keeps, and the most `?lines=` may ask for. */
export const LOG_CAPACITY = 100;

/** Options of {@link LiveFeed}. */
export interface LiveOptions {
  /** Milliseconds between clock ticks; 0 means no timer (the clock moves only when `tick()` is called). */
  tickMs: number;
  /** The time source (default `Date.now`). */
  now?: () => number;
}

/** The clock and the activity log, and the timer that moves the clock. */
export class LiveFeed {
  readonly #server: McpServer;
  readonly #tickMs: number;
  readonly #now: () => number;
  readonly #log: string[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticks = 0;
  #lastTick: number;

  constructor(server: McpServer, options: LiveOptions) {
    this.#server = server;
    this.#tickMs = options.tickMs;
    this.#now = options.now ?? Date.now;
    this.#lastTick = this.#now();
  }

  /** Starts the timer (when `tickMs` > 0). */
  start(): void {
    if (this.#timer !== undefined || this.#tickMs <= 0) return;
    this.#lastTick = this.#now();
    this.#timer = setInterval(() => this.tick(), this.#tickMs);
    this.#timer.unref?.();
  }

  /** Stops the timer; the clock keeps its last value. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Moves the clock on and tells subscribers of `demo://live/clock`. */
  tick(): void {
    this.#ticks += 1;
    this.#lastTick = this.#now();
    this.#server.notifyResourceUpdated(CLOCK_URI);
  }

  /** The clock's contents: the time of the last tick and how many ticks there have been. */
  get clock(): { time: string; tick: number } {
    return { time: new Date(this.#lastTick).toISOString(), tick: this.#ticks };
  }

  /** How long the clock's contents stay as they are: until the next tick (0 without a timer). */
  get clockFreshMs(): number {
    return this.#timer === undefined ? 0 : Math.max(0, this.#lastTick + this.#tickMs - this.#now());
  }

  /** Appends a line to the activity log and tells subscribers of `demo://live/log`. */
  record(line: string): void {
    this.#log.push(`${new Date(this.#now()).toISOString()} ${line}`);
    if (this.#log.length > LOG_CAPACITY) this.#log.shift();
    this.#server.notifyResourceUpdated(LOG_URI);
  }

  /** The last `lines` lines of the log, oldest first. */
  tail(lines = LOG_LINES): string[] {
    return this.#log.slice(-lines);
  }
}

/** Registers the clock, the log and the log template. */
export function registerLive(server: McpServer, live: LiveFeed, icons: Icons): void {
  server.registerResource(
    {
      uri: CLOCK_URI,
      name: 'clock',
      title: 'Clock',
      description: 'The time of the last tick and the tick count, as JSON. Changes every tick; subscribe to be told.',
      mimeType: 'application/json',
      annotations: { audience: ['user'], priority: 0.2 },
      icons: icons.live,
    },
    // Fresh exactly until the next tick: the contents cannot change before it. A hint for this one read (the
    // server sends it to 2026-07-28 clients only).
    (uri) => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(live.clock) }],
      ttlMs: live.clockFreshMs,
      cacheScope: 'public',
    }),
  );

  const readLog = (uri: string, lines: number) => ({ contents: [{ uri, mimeType: 'text/plain', text: live.tail(lines).join('\n') }] });

  server.registerResource(
    {
      uri: LOG_URI,
      name: 'activity-log',
      title: 'Activity log',
      description: `The last ${LOG_LINES} changes made in this server (notes added, edited, removed…), oldest first. Subscribe to follow it.`,
      mimeType: 'text/plain',
      annotations: { audience: ['user', 'assistant'], priority: 0.4 },
      icons: icons.live,
    },
    (uri) => readLog(uri, LOG_LINES),
    { cache: READ_HINTS.log },
  );

  server.registerResourceTemplate(
    {
      uriTemplate: LOG_TEMPLATE,
      name: 'activity-log-tail',
      title: 'Activity log, last lines',
      description: `The last "lines" lines of the activity log (1 to ${LOG_CAPACITY}). Updates are announced for ${LOG_URI} only.`,
      mimeType: 'text/plain',
      icons: icons.live,
    },
    (uri, variables) => {
      const text = String(variables.lines ?? LOG_LINES);
      if (!/^[1-9][0-9]*$/.test(text) || Number(text) > LOG_CAPACITY) {
        throw invalidParams(`lines must be an integer from 1 to ${LOG_CAPACITY}, got ${JSON.stringify(text.slice(0, 20))}`);
      }
      return readLog(uri, Number(text));
    },
    { cache: READ_HINTS.log, complete: { lines: (value) => ['5', '10', '20', '50', '100'].filter((n) => n.startsWith(value)) } },
  );
}
