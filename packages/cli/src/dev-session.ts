/**
 * The loop of `wiremcp dev`: build a server's entry, run it, serve it through a bridge server (`bridge.ts`), watch
 * its files, and on a change rebuild and restart it while the bridge — and so every client connected to it — stays.
 *
 * A restart starts the new server process, connects to it (the upstream client sends `initialize` again, with the
 * same capabilities, so the new process is initialized as the old one was), switches the bridge over, stops the old
 * process, then tells the clients `notifications/tools/list_changed` (and the prompt and resource lists) so they
 * list again without reconnecting. A build that fails, or a new process that does not start, leaves the old one
 * serving and is reported as an event.
 *
 * The session is the seam for other front ends: `server` is an `McpServer` any transport can connect to (the
 * command serves it on stdio), and `onEvent` reports builds, restarts and exits.
 *
 * Resource subscriptions the clients hold are made again on the new process before it is switched to, so their
 * `notifications/resources/updated` keep coming. Every event also goes to the connected clients as a log message
 * (`dev-events.ts`), so a build error shows in the host or the inspector, not only in the terminal.
 *
 * Limit: the bridge declares what the first server declared. When a later version declares other capabilities, the
 * clients keep the first set (a client cannot be told new capabilities without initializing again): the session
 * reports a `capabilities-changed` event (terminal and clients, at warning level) naming what was added and dropped.
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { McpClient, ServerCapabilities } from '@wiremcp/client';
import type { McpServer } from '@wiremcp/server';
import { createBridgeServer, forwardNotifications, heldSubscriptions } from './bridge.js';
import { connectTarget, type Connection, type ConnectionOptions } from './connect.js';
import { createDevBuild, type DevBuild } from './dev-build.js';
import { DEV_LOGGER, describeDevEvent, devEventLevel, type DevEvent } from './dev-events.js';
import { DownstreamInputs } from './downstream-inputs.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import type { Target } from './target.js';

export type { DevEvent } from './dev-events.js';

/** Options of a {@link DevSession}. */
export interface DevSessionOptions {
  /** The entry, an absolute path to a `.ts` or `.js` file. */
  readonly entry: string;
  /** Arguments given to the server after the entry. */
  readonly args?: readonly string[];
  /** How the server is connected to (`--env`, `--inherit-env`, `--trace`, `--server-stderr`, …). */
  readonly connection?: ConnectionOptions;
  /** How long to wait after a change for the next one before rebuilding (editors write in several steps; default 50 ms). */
  readonly settleMs?: number;
  /** Receives every event from the first (`started`) on; more listeners can be added with `onEvent`. */
  readonly onEvent?: (event: DevEvent) => void;
}

/** A running `wiremcp dev` session; see the module comment. */
export class DevSession {
  /** The bridge server: serve it on any transport; it outlives every restart. */
  readonly server: McpServer;
  readonly #options: DevSessionOptions;
  readonly #build: DevBuild;
  readonly #inputs: DownstreamInputs;
  readonly #listeners = new Set<(event: DevEvent) => void>();
  readonly #watchers = new Map<string, FSWatcher>();
  #files = new Set<string>();
  #current: Connection;
  /** What the first server declared: what the bridge offers its clients for as long as it runs. */
  readonly #declared: ServerCapabilities;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  private constructor(options: DevSessionOptions, build: DevBuild, inputs: DownstreamInputs, first: Connection, files: readonly string[]) {
    this.#options = options;
    this.#build = build;
    this.#inputs = inputs;
    this.#current = first;
    this.#declared = first.client.serverCapabilities ?? {};
    const current = (): McpClient => this.#current.client;
    // The bridge reaches whichever server is current.
    const upstream = new Proxy({} as McpClient, {
      get: (_target, key) => {
        const client = current();
        const value: unknown = Reflect.get(client, key, client);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(client) : value;
      },
    });
    this.server = createBridgeServer(upstream, inputs);
    if (options.onEvent) this.#listeners.add(options.onEvent);
    this.#watchExit(first);
    this.#watch(files);
  }

  /** Builds and starts the server; rejects (exit code 3) when the first build fails or the server does not start. */
  static async start(options: DevSessionOptions): Promise<DevSession> {
    const build = await createDevBuild(options.entry);
    const built = await build.build();
    if (!built.ok) {
      await build.dispose();
      throw new CliError(`dev: the build failed\n${built.message}`, CLI_EXIT_CODES.connection);
    }
    const inputs = new DownstreamInputs();
    let first: Connection;
    try {
      first = await connectTarget(DevSession.#target(options, build), options.connection, inputs.handlers);
    } catch (error) {
      await build.dispose();
      throw error;
    }
    const session = new DevSession(options, build, inputs, first, built.inputs);
    session.#emit({ kind: 'started', ...(await session.#toolCount()) });
    return session;
  }

  static #target(options: DevSessionOptions, build: DevBuild): Target {
    return { kind: 'stdio', command: process.execPath, args: ['--enable-source-maps', build.outfile, ...(options.args ?? [])] };
  }

  /** The downstream connection the server's own requests (sampling, elicitation, roots) are asked of. */
  set connection(connection: DownstreamInputs['connection']) {
    this.#inputs.connection = connection;
  }

  /** The client of the server running now (it changes at each restart). */
  get upstream(): McpClient {
    return this.#current.client;
  }

  /** Calls `listener` with every event; returns the function that stops it. */
  onEvent(listener: (event: DevEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rebuilds and restarts now (what a change of a watched file does). */
  restart(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#restart().finally(() => {
      this.#running = undefined;
      if (this.#again && !this.#closed) {
        this.#again = false;
        void this.restart();
      }
    });
    return this.#running;
  }

  /** Stops watching, the server process, the bridge, and removes the bundle. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    await this.#running?.catch(() => undefined);
    await this.server.close().catch(() => undefined);
    await this.#current.close();
    await this.#build.dispose();
  }

  #emit(event: DevEvent): void {
    for (const listener of this.#listeners) listener(event);
    // Legacy sessions (every one, at their level) get it; 2026-07-28 has no log channel outside a request.
    this.server.log(devEventLevel(event), describeDevEvent(event), DEV_LOGGER);
  }

  async #toolCount(): Promise<{ tools?: number }> {
    if (!this.#current.client.serverCapabilities?.tools) return {};
    try {
      return { tools: (await this.#current.client.listAllTools()).length };
    } catch {
      return {};
    }
  }

  #watchExit(connection: Connection): void {
    connection.client.onClose((error) => {
      if (this.#closed || this.#current !== connection) return;
      this.#emit({ kind: 'exited', message: error ? error.message : 'the server closed the connection' });
    });
  }

  /** Watches the directories of `files` (an editor may replace a file, which ends a watch on the file itself). */
  #watch(files: readonly string[]): void {
    this.#files = new Set(files);
    const dirs = new Set(files.map((file) => dirname(file)));
    for (const [dir, watcher] of this.#watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      this.#watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.#watchers.has(dir)) continue;
      const watcher = watch(dir, (_event, name) => {
        const file = name === null ? undefined : `${dir}/${name.toString()}`;
        if (file === undefined || !this.#files.has(file) || this.#closed) return;
        this.#emit({ kind: 'change', file });
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.restart(), this.#options.settleMs ?? 50);
      });
      watcher.on('error', () => watcher.close());
      this.#watchers.set(dir, watcher);
    }
  }

  async #restart(): Promise<void> {
    const built = await this.#build.build();
    if (this.#closed) return;
    if (!built.ok) {
      this.#emit({ kind: 'build-failed', message: built.message });
      return;
    }
    this.#watch(built.inputs);
    const era = this.#current.client.era;
    let next: Connection;
    try {
      next = await connectTarget(
        DevSession.#target(this.#options, this.#build),
        { ...this.#options.connection, ...(era === undefined ? {} : { era }) },
        this.#inputs.handlers,
      );
    } catch (error) {
      this.#emit({ kind: 'start-failed', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (this.#closed) {
      await next.close();
      return;
    }
    const resubscribed = await this.#resubscribe(next);
    const old = this.#current;
    this.#current = next;
    forwardNotifications(next.client, this.server);
    this.#watchExit(next);
    await old.close();
    const capabilities = next.client.serverCapabilities ?? {};
    if (capabilities.tools) this.server.notifyToolListChanged();
    if (capabilities.prompts) this.server.notifyPromptListChanged();
    if (capabilities.resources) this.server.notifyResourceListChanged();
    const changed = capabilityChanges(this.#declared, capabilities);
    if (changed) this.#emit({ kind: 'capabilities-changed', ...changed });
    this.#emit({ kind: 'restarted', ...(await this.#toolCount()), ...(resubscribed ? { resubscribed } : {}) });
  }

  /** Subscribes `next` to what the clients are subscribed to; returns how many it accepted (refusals are reported). */
  async #resubscribe(next: Connection): Promise<number> {
    const uris = heldSubscriptions(this.server);
    if (uris.length === 0) return 0;
    let accepted = 0;
    for (const uri of uris) {
      try {
        if (next.client.serverCapabilities?.resources?.subscribe !== true) throw new Error('it no longer declares resources.subscribe');
        await next.client.subscribeResource(uri);
        accepted += 1;
      } catch (error) {
        this.#emit({ kind: 'resubscribe-failed', uri, message: error instanceof Error ? error.message : String(error) });
      }
    }
    return accepted;
  }
}

/** The capabilities the bridge can forward, as named in messages. */
function forwardable(capabilities: ServerCapabilities): Set<string> {
  const names = new Set<string>();
  if (capabilities.tools) names.add('tools');
  if (capabilities.resources) names.add('resources');
  if (capabilities.resources?.subscribe === true) names.add('resources.subscribe');
  if (capabilities.prompts) names.add('prompts');
  if (capabilities.completions) names.add('completions');
  return names;
}

/** What `next` declares that `first` did not, and the other way round; `undefined` when the same. */
function capabilityChanges(
  first: ServerCapabilities,
  next: ServerCapabilities,
): { added: readonly string[]; removed: readonly string[] } | undefined {
  const before = forwardable(first);
  const after = forwardable(next);
  const added = [...after].filter((name) => !before.has(name));
  const removed = [...before].filter((name) => !after.has(name));
  return added.length || removed.length ? { added, removed } : undefined;
}
