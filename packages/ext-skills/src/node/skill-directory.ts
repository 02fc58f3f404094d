/**
 * A skill catalogue from a directory tree, kept current: each skill a folder with a `SKILL.md` and its files,
 * folders above skills an organisational prefix. With `watch`, changes below the root reload the catalogue (after a
 * short quiet period, so an editor's burst of writes is one reload), and every server it is served on tells its
 * clients (`resources/list_changed`).
 */
import { watch as watchTree, type FSWatcher } from 'node:fs';
import { SkillCatalog, type SkillCatalogOptions } from '../catalog.js';
import { directorySkillStore, type DirectorySkillStore } from './directory-store.js';

/** Options of {@link openSkillDirectory}. */
export interface SkillDirectoryOptions extends SkillCatalogOptions {
  /** Reload when the tree changes (default false); `debounceMs` is the quiet period before a reload (default 100). */
  watch?: boolean | { debounceMs?: number };
  /** Receives a failed reload or a watcher error (the old catalogue keeps serving). Default: stderr. */
  onError?: (error: unknown) => void;
}

/** An open skill directory. */
export interface SkillDirectory {
  readonly catalog: SkillCatalog;
  readonly store: DirectorySkillStore;
  /** Stops watching and releases the pinned root. */
  close(): Promise<void>;
}

/** Opens `root`, scans it, and (with `watch`) keeps the catalogue current. */
export async function openSkillDirectory(root: string, options: SkillDirectoryOptions = {}): Promise<SkillDirectory> {
  const store = await directorySkillStore(root);
  let catalog: SkillCatalog;
  try {
    catalog = await SkillCatalog.load(store, options);
  } catch (error) {
    await store.close();
    throw error;
  }
  const report = options.onError ?? ((error: unknown) => console.error('[wiremcp skills]', error instanceof Error ? error.message : error));
  let watcher: FSWatcher | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.watch) {
    const debounceMs = typeof options.watch === 'object' ? (options.watch.debounceMs ?? 100) : 100;
    watcher = watchTree(root, { recursive: true, persistent: false }, () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        catalog.reload().catch(report);
      }, debounceMs);
    });
    watcher.on('error', report);
  }
  return {
    catalog,
    store,
    async close() {
      if (timer !== undefined) clearTimeout(timer);
      watcher?.close();
      await store.close();
    },
  };
}
