/**
 * File change events for resource subscriptions. Each subscribed URI is resolved through the sandbox (confined) and
 * its parent directory watched with `fs.watch` (so an atomic replace, a rename over the file, is seen too); events
 * for the file's name are debounced and announced with `notifyResourceUpdated`, which reaches legacy subscribers and
 * 2026-07-28 listen streams alike. Watchers are shared per directory and bounded in number; a subscription beyond
 * the bound is not watched (and said so on stderr). The directory is watched through its open fd on Linux, so the
 * watch is set on the directory the sandbox resolved.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { AccessView } from '../sandbox/access-view.js';
import { realPathOf, type Location } from '../sandbox/resolver.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { uriToPath } from './file-uri.js';

/** Where change events go. */
export interface UpdateSink {
  notifyResourceUpdated(uri: string): void;
}

interface DirectoryWatch {
  watcher: FSWatcher;
  /** Entry name → URIs subscribed to it; `''` = URIs of the directory itself (any change). */
  names: Map<string, Set<string>>;
}

/** The shared watchers of one server. */
export class WatchHub {
  readonly #interest = new Map<string, number>();
  readonly #watches = new Map<string, DirectoryWatch>();
  readonly #byUri = new Map<string, { key: string; name: string }>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(
    readonly sandbox: Sandbox,
    readonly view: AccessView,
    readonly sink: UpdateSink,
    readonly maxWatchers: number,
    readonly debounceMs: number,
    readonly log: (line: string) => void,
  ) {}

  /** Number of directories watched. */
  get watchers(): number {
    return this.#watches.size;
  }

  /** One more subscriber to `uri`. */
  add(uri: string): void {
    const count = (this.#interest.get(uri) ?? 0) + 1;
    this.#interest.set(uri, count);
    if (count === 1) void this.#watch(uri);
  }

  /** One subscriber less to `uri`. */
  remove(uri: string): void {
    const count = (this.#interest.get(uri) ?? 0) - 1;
    if (count > 0) {
      this.#interest.set(uri, count);
      return;
    }
    this.#interest.delete(uri);
    this.#unwatch(uri);
  }

  /** Stops every watcher and timer. */
  close(): void {
    this.#closed = true;
    for (const watch of this.#watches.values()) watch.watcher.close();
    this.#watches.clear();
    this.#byUri.clear();
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  async #watch(uri: string): Promise<void> {
    const path = uriToPath(uri);
    if (path === undefined) return;
    let place: { location: Location; name: string };
    try {
      const entry = await this.sandbox.locateEntry(this.view, path, { follow: true, allowRoot: true });
      if (entry.location.name !== null && entry.stat?.isDirectory()) {
        // A directory's URI: watch the directory itself and hear of every change in it.
        await this.sandbox.release(entry.location);
        place = { location: (await this.sandbox.openDirectory(this.view, path)).location, name: '' };
      } else {
        // A file's URI: watch its directory for events on its name (an atomic replace is a rename onto it).
        place = { location: entry.location, name: entry.location.name ?? '' };
      }
    } catch {
      return; // Outside, denied or unresolvable: never watched, never announced.
    }
    const { location, name } = place;
    try {
      if (this.#closed || !this.#interest.has(uri) || this.#byUri.has(uri)) return;
      const key = realPathOf({ ...location, name: null });
      let target = this.#watches.get(key);
      if (!target) {
        if (this.#watches.size >= this.maxWatchers) {
          this.log(`not watching ${uri}: ${this.maxWatchers} directories are watched already (--max-watchers)`);
          return;
        }
        const names = new Map<string, Set<string>>();
        // Through the open directory (/proc/self/fd on Linux): the watch is set on the resolved directory.
        const watcher = watch(location.dir.base, { persistent: false }, (_event, filename) => this.#changed(names, filename));
        watcher.on('error', () => this.#drop(key));
        target = { watcher, names };
        this.#watches.set(key, target);
      }
      const uris = target.names.get(name) ?? new Set<string>();
      uris.add(uri);
      target.names.set(name, uris);
      this.#byUri.set(uri, { key, name });
    } finally {
      await this.sandbox.release(location);
    }
  }

  #changed(names: Map<string, Set<string>>, filename: string | Buffer | null): void {
    const name = filename === null ? undefined : filename.toString();
    for (const [entryName, uris] of names) {
      // The directory's own subscribers hear of every change in it; a file's only of its name (or of an unnamed event).
      if (entryName !== '' && name !== undefined && entryName !== name) continue;
      for (const uri of uris) this.#debounce(uri);
    }
  }

  #debounce(uri: string): void {
    if (this.#timers.has(uri)) return;
    const timer = setTimeout(() => {
      this.#timers.delete(uri);
      if (this.#interest.has(uri)) this.sink.notifyResourceUpdated(uri);
    }, this.debounceMs);
    timer.unref?.();
    this.#timers.set(uri, timer);
  }

  #unwatch(uri: string): void {
    const place = this.#byUri.get(uri);
    if (!place) return;
    this.#byUri.delete(uri);
    const target = this.#watches.get(place.key);
    const uris = target?.names.get(place.name);
    uris?.delete(uri);
    if (uris && uris.size === 0) target!.names.delete(place.name);
    if (target && target.names.size === 0) this.#drop(place.key);
  }

  #drop(key: string): void {
    const target = this.#watches.get(key);
    if (!target) return;
    target.watcher.close();
    this.#watches.delete(key);
    for (const [uri, place] of this.#byUri) if (place.key === key) this.#byUri.delete(uri);
  }
}
