/**
 * A skill catalogue: the skills of a store (a directory tree, memory, your own) as entries with manifests, plus
 * skills generated on demand (`"dynamic"`). It holds metadata only: every file read goes to the store and is
 * checked against the published entry, so what a client receives always matches what it was told.
 */
import { DEFAULT_SCAN_LIMITS, scanStore, type FileRecord, type ScanLimits, type ScanResult, type SkillWarning } from './catalog-scan.js';
import { sha256Digest } from './digest.js';
import { frontmatterProblems } from './frontmatter.js';
import { mediaTypeOf } from './media-types.js';
import { canonicalUri, pathOf, uriOf } from './skill-uri.js';
import { memorySkillStore, type SkillStore } from './store.js';
import { DIRECTORY_MIME_TYPE, SKILL_MD, SKILL_SCHEME, type DirectoryEntry, type Skill, type SkillFrontmatter } from './wire.js';

/** A skill whose content is generated, so no stable digests can be published (`resources: "dynamic"`). */
export interface DynamicSkill {
  /** Its skill path below the catalogue's base (`reports/daily`); the last segment is its name. */
  readonly path: string;
  readonly frontmatter: SkillFrontmatter;
  /** Its files now, as paths relative to the skill (`SKILL.md`, `data/today.csv`). */
  files(): readonly string[] | Promise<readonly string[]>;
  /** A file's content now; `undefined` when there is no such file. */
  read(file: string): string | Uint8Array | undefined | Promise<string | Uint8Array | undefined>;
}

/** Options of a catalogue. */
export interface SkillCatalogOptions {
  /** Organisational prefix (`acme/billing`): skills are served at `skill://acme/billing/<skill>/…`. */
  prefix?: string;
  /** The scheme and authority part every URI starts with (default `skill://`). */
  baseUri?: string;
  /** Limits of a scan (defaults: the extension's 512 files and 16 MiB per skill; see {@link DEFAULT_SCAN_LIMITS}). */
  limits?: Partial<ScanLimits>;
  /** Skills generated on demand, served with `resources: "dynamic"`. */
  dynamic?: readonly DynamicSkill[];
  /** Receives every problem of every scan (skills refused, links skipped). Default: stderr. */
  onWarning?: (warning: SkillWarning) => void;
}

/** What a reload changed, as `SKILL.md` URIs; `files` lists every file URI whose content changed or went away. */
export interface SkillCatalogChanges {
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
  readonly files: string[];
}

/** A file as the catalogue serves it. */
export interface SkillFileContent {
  readonly uri: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/** Thrown when a read's bytes no longer match the catalogue even after a reload (a file changing under it). */
export class SkillContentChangedError extends Error {
  constructor(readonly uri: string) {
    super(`The content of ${uri.slice(0, 200)} changed while it was read; list the skill again`);
    this.name = 'SkillContentChangedError';
  }
}

/** See the module comment. */
export class SkillCatalog {
  readonly #store: SkillStore;
  readonly #base: string;
  readonly #limits: ScanLimits;
  readonly #dynamic: ReadonlyMap<string, DynamicSkill>;
  readonly #onWarning: (warning: SkillWarning) => void;
  readonly #listeners = new Set<(changes: SkillCatalogChanges) => void>();
  #scan: ScanResult;
  #entries: readonly Skill[];
  #byUri: ReadonlyMap<string, Skill>;
  #reloading: Promise<SkillCatalogChanges> | undefined;
  #again = false;

  private constructor(store: SkillStore, base: string, limits: ScanLimits, options: SkillCatalogOptions, scan: ScanResult) {
    this.#store = store;
    this.#base = base;
    this.#limits = limits;
    this.#onWarning = options.onWarning ?? ((warning) => console.error(`[wiremcp skills] ${warning.path}: ${warning.message}`));
    const dynamic = new Map<string, DynamicSkill>();
    for (const skill of options.dynamic ?? []) {
      const problems = frontmatterProblems(skill.frontmatter);
      const name = skill.path.slice(skill.path.lastIndexOf('/') + 1);
      if (problems.length > 0 || name !== skill.frontmatter.name || pathOf(base, uriOf(base, skill.path)) !== skill.path) {
        throw new TypeError(`dynamic skill ${skill.path}: ${problems.join('; ') || 'its last path segment must equal its name'}`);
      }
      dynamic.set(uriOf(base, `${skill.path}/${SKILL_MD}`), skill);
    }
    this.#dynamic = dynamic;
    this.#scan = scan;
    this.#entries = [];
    this.#byUri = new Map();
    this.#publish(scan);
  }

  /** Scans `store` into a catalogue (warnings go to `onWarning`; a refused skill never fails the whole load). */
  static async load(store: SkillStore, options: SkillCatalogOptions = {}): Promise<SkillCatalog> {
    const base = baseOf(options);
    const limits = { ...DEFAULT_SCAN_LIMITS, ...options.limits };
    return new SkillCatalog(store, base, limits, options, await scanStore(store, base, limits));
  }

  /** A catalogue of skills held in memory: `{ 'refunds/SKILL.md': '---\nname: refunds\n…' }`. */
  static fromMemory(files: Record<string, string | Uint8Array>, options: SkillCatalogOptions = {}): Promise<SkillCatalog> {
    return SkillCatalog.load(memorySkillStore(files), options);
  }

  /** Every URI of this catalogue starts with this (`skill://`, or `skill://<prefix>/`). */
  get baseUri(): string {
    return this.#base;
  }

  /** The skills served, sorted by URI (frozen: exactly what clients receive). */
  get entries(): readonly Skill[] {
    return this.#entries;
  }

  /** The problems of the last scan. */
  get warnings(): readonly SkillWarning[] {
    return this.#scan.warnings;
  }

  /** The entry of the skill whose `SKILL.md` is at `uri` (any spelling of it), or `undefined`. */
  get(uri: string): Skill | undefined {
    const canonical = canonicalUri(this.#base, uri);
    return canonical === undefined ? undefined : this.#byUri.get(canonical);
  }

  /** The `SKILL.md` resources, for `resources/list`. */
  skillResources(): Array<{ uri: string; name: string; description: string; mimeType: string; size?: number }> {
    return this.#entries.map((skill) => {
      const size = Array.isArray(skill.resources) ? skill.resources.find((file) => file.uri === skill.uri)?.size : undefined;
      const resource = {
        uri: skill.uri,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        mimeType: 'text/markdown',
      };
      return size === undefined ? resource : { ...resource, size };
    });
  }

  /**
   * A file of the catalogue, read now from the store and checked against its entry; `undefined` when the catalogue
   * serves no such file. When the bytes differ from the entry, the catalogue reloads (and announces the change) and
   * serves the file as the new scan has it; throws {@link SkillContentChangedError} if it still does not match.
   */
  async read(uri: string): Promise<SkillFileContent | undefined> {
    const canonical = canonicalUri(this.#base, uri);
    if (canonical === undefined) return undefined;
    const dynamic = await this.#readDynamic(canonical);
    if (dynamic !== null) return dynamic;
    for (let attempt = 0; attempt < 2; attempt++) {
      const record = this.#scan.files.get(canonical);
      if (record === undefined) return undefined;
      const bytes = await this.#readRecord(record);
      if (bytes !== undefined) return { uri: record.uri, mimeType: record.mimeType, bytes };
      if (attempt === 0) await this.reload();
    }
    throw new SkillContentChangedError(canonical);
  }

  /** The direct children of directory `uri`, or `undefined` when the catalogue has no such directory. */
  async directory(uri: string): Promise<DirectoryEntry[] | undefined> {
    const above = this.#prefixDirectory(uri);
    if (above !== undefined) return above;
    const canonical = canonicalUri(this.#base, uri);
    if (canonical === undefined) return undefined;
    const listed = this.#scan.directories.get(canonical);
    if (listed !== undefined) return listed;
    for (const [skillUri, skill] of this.#dynamic) {
      const root = skillUri.slice(0, -(SKILL_MD.length + 1));
      if (canonical !== root && !canonical.startsWith(`${root}/`)) continue;
      const below = canonical === root ? '' : pathOf(this.#base, canonical)!.slice(skill.path.length + 1);
      return dynamicChildren(this.#base, skill, below, await skill.files());
    }
    return undefined;
  }

  /** Listens to reloads that changed something; returns the function that stops listening. */
  onChange(listener: (changes: SkillCatalogChanges) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Scans the store again and swaps the new catalogue in at once; listeners hear of what changed. Overlapping calls
   * share one scan, and a call made during a scan starts one more after it (so no change is missed).
   */
  reload(): Promise<SkillCatalogChanges> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    const run = async (): Promise<SkillCatalogChanges> => {
      let changes: SkillCatalogChanges;
      do {
        this.#again = false;
        const next = await scanStore(this.#store, this.#base, this.#limits);
        changes = diff(this.#scan, next);
        this.#publish(next);
        if (changes.added.length + changes.removed.length + changes.changed.length + changes.files.length > 0) {
          for (const listener of this.#listeners) listener(changes);
        }
      } while (this.#again);
      return changes;
    };
    this.#reloading = run().finally(() => (this.#reloading = undefined));
    return this.#reloading;
  }

  /** The root under a prefix (`skill://acme/billing`) and the directories above it (`skill://acme`). */
  #prefixDirectory(uri: string): DirectoryEntry[] | undefined {
    const scheme = this.#base.indexOf('://') + 3;
    const prefix = this.#base.slice(scheme, -1);
    if (prefix === '') return undefined;
    const wanted = pathOf(this.#base.slice(0, scheme), uri);
    if (wanted === undefined || (wanted !== prefix && !prefix.startsWith(`${wanted}/`))) return undefined;
    if (wanted === prefix) return this.#scan.directories.get(this.#base.slice(0, -1)) ?? [];
    const name = decodeURIComponent(prefix.slice(wanted.length + 1).split('/')[0]!);
    return [{ uri: uriOf(this.#base.slice(0, scheme), `${wanted}/${name}`), name, mimeType: DIRECTORY_MIME_TYPE }];
  }

  #publish(scan: ScanResult): void {
    this.#scan = scan;
    for (const warning of scan.warnings) this.#onWarning(warning);
    const dynamic: Skill[] = [...this.#dynamic].map(([uri, skill]) => ({ uri, frontmatter: skill.frontmatter, resources: 'dynamic' }));
    const entries = [...scan.skills.filter((skill) => !this.#dynamic.has(skill.uri)), ...dynamic].sort((a, b) =>
      a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0,
    );
    this.#entries = deepFreeze(entries);
    this.#byUri = new Map(entries.map((skill) => [skill.uri, skill]));
  }

  async #readRecord(record: FileRecord): Promise<Uint8Array | undefined> {
    let bytes: Uint8Array;
    try {
      bytes = await this.#store.read(record.path, record.size);
    } catch {
      return undefined;
    }
    if (bytes.length !== record.size || (await sha256Digest(bytes)) !== record.digest) return undefined;
    return bytes;
  }

  /** A dynamic skill's file (`null` when `uri` is in no dynamic skill; `undefined` when the skill has no such file). */
  async #readDynamic(uri: string): Promise<SkillFileContent | undefined | null> {
    for (const [skillUri, skill] of this.#dynamic) {
      const root = skillUri.slice(0, -SKILL_MD.length);
      if (!uri.startsWith(root)) continue;
      const file = pathOf(this.#base, uri)!.slice(skill.path.length + 1);
      const content = await skill.read(file);
      if (content === undefined) return undefined;
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      if (bytes.length > this.#limits.bytes) throw new RangeError(`${uri.slice(0, 200)} is larger than ${this.#limits.bytes} bytes`);
      return { uri, mimeType: mediaTypeOf(file), bytes };
    }
    return null;
  }
}

function baseOf(options: SkillCatalogOptions): string {
  const base = options.baseUri ?? SKILL_SCHEME;
  if (!/^[a-z][a-z0-9+.-]*:\/\/([^/?#]+\/)*$/i.test(base))
    throw new TypeError(`baseUri must be a scheme and "://" with optional path segments ending in "/": ${base}`);
  const prefix = options.prefix?.replace(/^\/+|\/+$/g, '');
  if (prefix === undefined || prefix === '') return base;
  if (prefix.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new TypeError(`invalid prefix: ${prefix}`);
  return uriOf(base, prefix) + '/';
}

function dynamicChildren(base: string, skill: DynamicSkill, below: string, files: readonly string[]): DirectoryEntry[] | undefined {
  const prefix = below === '' ? '' : `${below}/`;
  const children = new Map<string, DirectoryEntry>();
  for (const file of files) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    const name = slash < 0 ? rest : rest.slice(0, slash);
    const path = `${skill.path}/${prefix}${name}`;
    children.set(
      name,
      slash < 0
        ? { uri: uriOf(base, path), name, mimeType: mediaTypeOf(name) }
        : { uri: uriOf(base, path), name, mimeType: DIRECTORY_MIME_TYPE },
    );
  }
  if (children.size === 0 && below !== '') return undefined;
  return [...children.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

function diff(before: ScanResult, after: ScanResult): SkillCatalogChanges {
  const old = new Map(before.skills.map((skill) => [skill.uri, JSON.stringify(skill)]));
  const now = new Map(after.skills.map((skill) => [skill.uri, JSON.stringify(skill)]));
  const files: string[] = [];
  for (const [uri, record] of before.files) {
    const next = after.files.get(uri);
    if (next === undefined || next.digest !== record.digest) files.push(uri);
  }
  return {
    added: [...now.keys()].filter((uri) => !old.has(uri)),
    removed: [...old.keys()].filter((uri) => !now.has(uri)),
    changed: [...now].filter(([uri, json]) => old.has(uri) && old.get(uri) !== json).map(([uri]) => uri),
    files,
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
