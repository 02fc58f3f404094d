/**
 * The client side of the Skills extension on `@wiremcp/client`: lists and gets skill entries (checked before use),
 * reads skill files and verifies each against the entry it came from — listed, size, digest, and for a `SKILL.md`
 * its frontmatter — raising {@link SkillVerificationError} otherwise. Nothing is ever fetched ahead of need: listing
 * reads no file, and a file is read only when `read` asks for it. Approval, origin tagging and loading policy stay
 * with the host.
 */
import { LocalError, type JsonObject } from '@wiremcp/protocol';
import type { CallOptions, McpClient } from '@wiremcp/client';
import { sha256Digest } from './digest.js';
import { entryProblem, normalise } from './entry-check.js';
import { FrontmatterError, frontmatterDifferences, splitSkillMarkdown } from './frontmatter.js';
import { fromBase64 } from './media-types.js';
import { SkillVerificationError } from './verification-error.js';
import {
  DIRECTORY_READ,
  SKILL_LIMITS,
  SKILL_MD,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type DirectoryEntry,
  type Skill,
  type SkillsCacheFields,
} from './wire.js';

/** Options of a {@link SkillsClient}. */
export interface SkillsClientOptions {
  /** Return invalid `skills/list` entries in `invalid` instead of throwing (default false). */
  skipInvalid?: boolean;
  /** Pages walked by `list` and `readDirectory` before they stop with an error (default 100). */
  maxPages?: number;
  /** Bytes of verified content kept to answer repeated reads without a request (default 32 MiB; 0 disables). */
  cacheBytes?: number;
}

/** A refused `skills/list` entry: its position across all pages, its URI if it had one, and why. */
export interface InvalidSkillEntry {
  readonly index: number;
  readonly uri?: string;
  readonly reason: string;
}

/** What `list` returns: the valid entries, the refused ones (with `skipInvalid`), the first page's caching fields. */
export interface SkillListing extends SkillsCacheFields {
  readonly skills: Skill[];
  readonly invalid: InvalidSkillEntry[];
  /** Only when `list` was given a cursor (one page). */
  readonly nextCursor?: string;
}

/** A skill file as read and verified. */
export interface SkillFile {
  /** The URI as the entry spells it (for `"dynamic"` skills, as resolved). */
  readonly uri: string;
  readonly mimeType?: string;
  /** Exactly the bytes the digest covers. */
  readonly bytes: Uint8Array;
  /** The text, when the server sent text. */
  readonly text?: string;
  /** Size and digest were checked (`false` only for `"dynamic"` skills). */
  readonly verified: boolean;
  /** For the skill's own `SKILL.md`: its frontmatter (equal to the entry's) and the markdown after it. */
  readonly frontmatter?: Record<string, unknown>;
  readonly body?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** See the module comment. */
export class SkillsClient {
  readonly #client: McpClient;
  readonly #options: Required<SkillsClientOptions>;
  /** Verified bytes by `uri digest` (least recently used first), bounded by `cacheBytes`. */
  readonly #cache = new Map<string, Uint8Array>();
  #cached = 0;

  constructor(client: McpClient, options: SkillsClientOptions = {}) {
    this.#client = client;
    this.#options = {
      skipInvalid: options.skipInvalid ?? false,
      maxPages: options.maxPages ?? 100,
      cacheBytes: options.cacheBytes ?? 32 * 1024 * 1024,
    };
  }

  /** The server declared the extension (false before connecting). */
  get supported(): boolean {
    return this.#capability() !== undefined;
  }

  /** The server serves `resources/directory/read`. */
  get directoryRead(): boolean {
    return this.#capability()?.directoryRead === true;
  }

  /**
   * Lists the server's skills, every page unless `params.cursor` asks for one. Throws a `LocalError`
   * (`INVALID_RESULT`) naming the first invalid or repeated entry; with `skipInvalid` returns them in `invalid`.
   */
  async list(params: { cursor?: string } = {}, options?: CallOptions): Promise<SkillListing> {
    this.#require();
    const skills: Skill[] = [];
    const invalid: InvalidSkillEntry[] = [];
    const seen = new Set<string>();
    let cursor = params.cursor;
    let first: SkillsCacheFields | undefined;
    let index = 0;
    for (let pages = 0; ; pages++) {
      if (pages >= this.#options.maxPages)
        throw new LocalError('INVALID_RESULT', `skills/list has more than ${this.#options.maxPages} pages`);
      const result = (await this.#client.request(SKILLS_LIST, cursor === undefined ? {} : { cursor }, options)) as JsonObject;
      first ??= cacheFields(result);
      const entries = Array.isArray(result.skills) ? result.skills : [];
      if (!Array.isArray(result.skills)) throw new LocalError('INVALID_RESULT', 'skills/list returned no skills array');
      for (const entry of entries) {
        const problem = entryProblem(entry) ?? (seen.has(normalise((entry as Skill).uri)) ? 'the listing repeats this uri' : undefined);
        if (problem === undefined) {
          seen.add(normalise((entry as Skill).uri));
          skills.push(entry as Skill);
        } else {
          const uri = typeof (entry as { uri?: unknown })?.uri === 'string' ? (entry as Skill).uri.slice(0, 200) : undefined;
          if (!this.#options.skipInvalid)
            throw new LocalError('INVALID_RESULT', `skills/list entry ${index}${uri ? ` (${uri})` : ''}: ${problem}`);
          invalid.push(uri === undefined ? { index, reason: problem } : { index, uri, reason: problem });
        }
        index++;
      }
      const next = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (params.cursor !== undefined) return { skills, invalid, ...first, ...(next === undefined ? {} : { nextCursor: next }) };
      if (next === undefined) return { skills, invalid, ...first };
      cursor = next;
    }
  }

  /** The entry of the skill whose `SKILL.md` is at `uri`, listed or not, checked like a listing entry. */
  async get(uri: string, options?: CallOptions): Promise<{ skill: Skill } & SkillsCacheFields> {
    this.#require();
    const result = (await this.#client.request(SKILLS_GET, { uri }, options)) as JsonObject;
    const problem = entryProblem(result.skill);
    if (problem !== undefined) throw new LocalError('INVALID_RESULT', `skills/get ${uri.slice(0, 200)}: ${problem}`);
    const skill = result.skill as unknown as Skill;
    if (normalise(skill.uri) !== normalise(uri))
      throw new LocalError('INVALID_RESULT', `skills/get ${uri.slice(0, 200)} returned another skill`);
    return { skill, ...cacheFields(result) };
  }

  /**
   * Reads file `ref` of `skill` (a path relative to the skill's root, or an absolute URI; default its `SKILL.md`)
   * and verifies it against the entry. An unlisted file fails before any request.
   *
   * @throws {SkillVerificationError} when a check fails.
   */
  async read(skill: Skill, ref: string = SKILL_MD, options?: CallOptions): Promise<SkillFile> {
    const problem = entryProblem(skill);
    if (problem !== undefined) throw new LocalError('INVALID_ARGUMENT', `not a valid skill entry: ${problem}`);
    const root = skill.uri.slice(0, -SKILL_MD.length);
    const wanted = resolveRef(root, ref);
    const isSkillMd = normalise(wanted) === normalise(skill.uri);
    const listed = skill.resources === 'dynamic' ? undefined : skill.resources.find((file) => normalise(file.uri) === normalise(wanted));
    if (skill.resources !== 'dynamic' && listed === undefined) {
      throw new SkillVerificationError('unlisted', wanted, `${wanted.slice(0, 200)} is not listed in the skill's resources`);
    }
    const uri = listed?.uri ?? wanted;
    let bytes = listed === undefined ? undefined : this.#fromCache(`${listed.uri} ${listed.digest}`);
    let mimeType: string | undefined;
    let text: string | undefined;
    if (bytes === undefined) {
      const result = await this.#client.readResource(uri, options);
      const content = result.contents.find((item) => normalise(item.uri) === normalise(uri)) ?? result.contents[0];
      if (content === undefined) throw new LocalError('INVALID_RESULT', `resources/read ${uri.slice(0, 200)} returned no contents`);
      mimeType = content.mimeType;
      if ('text' in content && typeof content.text === 'string') {
        text = content.text;
        bytes = encoder.encode(text);
      } else if ('blob' in content && typeof content.blob === 'string') bytes = fromBase64(content.blob);
      else throw new LocalError('INVALID_RESULT', `resources/read ${uri.slice(0, 200)} returned neither text nor blob`);
      if (listed !== undefined) {
        // Size first: a read of the wrong length fails whatever its digest would be.
        if (bytes.length !== listed.size) {
          throw new SkillVerificationError('size', uri, `${uri.slice(0, 200)} has ${bytes.length} bytes; the entry says ${listed.size}`);
        }
        if ((await sha256Digest(bytes)) !== listed.digest) {
          throw new SkillVerificationError('digest', uri, `${uri.slice(0, 200)} does not match the digest in the skill's entry`);
        }
      } else if (bytes.length > SKILL_LIMITS.bytes) {
        throw new SkillVerificationError('size', uri, `${uri.slice(0, 200)} is larger than ${SKILL_LIMITS.bytes} bytes`);
      }
    }
    if (text === undefined && isSkillMd) text = decoder.decode(bytes);
    let file: SkillFile = {
      uri,
      bytes,
      verified: listed !== undefined,
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(text === undefined ? {} : { text }),
    };
    if (isSkillMd) {
      let parsed: { frontmatter: Record<string, unknown>; body: string };
      try {
        parsed = splitSkillMarkdown(text!);
      } catch (error) {
        const reason = error instanceof FrontmatterError ? error.message : 'unreadable frontmatter';
        throw new SkillVerificationError('frontmatter', uri, `${uri.slice(0, 200)}: ${reason}`, [reason]);
      }
      const differences = frontmatterDifferences(parsed.frontmatter, skill.frontmatter);
      if (differences.length > 0) {
        throw new SkillVerificationError('frontmatter', uri, `${uri.slice(0, 200)}: the frontmatter differs from the entry's`, differences);
      }
      file = { ...file, frontmatter: parsed.frontmatter, body: parsed.body };
    }
    if (listed !== undefined) this.#remember(`${listed.uri} ${listed.digest}`, bytes);
    return file;
  }

  /** The direct children of directory `uri`, every page; needs the server's `directoryRead`. */
  async readDirectory(uri: string, options?: CallOptions): Promise<{ resources: DirectoryEntry[] } & SkillsCacheFields> {
    this.#require();
    if (!this.directoryRead) {
      throw new LocalError('CAPABILITY_NOT_SUPPORTED', 'The server does not declare directoryRead for the skills extension', {
        details: { method: DIRECTORY_READ },
      });
    }
    const resources: DirectoryEntry[] = [];
    let cursor: string | undefined;
    let first: SkillsCacheFields | undefined;
    for (let pages = 0; pages < this.#options.maxPages; pages++) {
      const result = (await this.#client.request(DIRECTORY_READ, cursor === undefined ? { uri } : { uri, cursor }, options)) as JsonObject;
      first ??= cacheFields(result);
      if (!Array.isArray(result.resources)) throw new LocalError('INVALID_RESULT', `${DIRECTORY_READ} returned no resources array`);
      resources.push(...(result.resources as unknown as DirectoryEntry[]));
      if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return { resources, ...first };
      cursor = result.nextCursor;
    }
    throw new LocalError('INVALID_RESULT', `${DIRECTORY_READ} has more than ${this.#options.maxPages} pages`);
  }

  #capability(): Record<string, unknown> | undefined {
    const extensions = (this.#client.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    const value = extensions?.[SKILLS_EXTENSION];
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  }

  #require(): void {
    if (!this.supported) {
      throw new LocalError('CAPABILITY_NOT_SUPPORTED', `The server does not declare the ${SKILLS_EXTENSION} extension`, {
        details: { capability: `extensions.${SKILLS_EXTENSION}` },
      });
    }
  }

  #fromCache(key: string): Uint8Array | undefined {
    const bytes = this.#cache.get(key);
    if (bytes !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, bytes);
    }
    return bytes;
  }

  #remember(key: string, bytes: Uint8Array): void {
    if (bytes.length > this.#options.cacheBytes || this.#cache.has(key)) return;
    this.#cache.set(key, bytes);
    this.#cached += bytes.length;
    for (const [old, value] of this.#cache) {
      if (this.#cached <= this.#options.cacheBytes) break;
      this.#cache.delete(old);
      this.#cached -= value.length;
    }
  }
}

const clients = new WeakMap<McpClient, SkillsClient>();

/** The {@link SkillsClient} of `client` (one per client, created on first use): `skillsOf(client).list()`. */
export function skillsOf(client: McpClient): SkillsClient {
  let skills = clients.get(client);
  if (skills === undefined) clients.set(client, (skills = new SkillsClient(client)));
  return skills;
}

function cacheFields(result: JsonObject): SkillsCacheFields {
  const fields: SkillsCacheFields = {};
  if (typeof result.ttlMs === 'number') fields.ttlMs = result.ttlMs;
  if (result.cacheScope === 'public' || result.cacheScope === 'private') fields.cacheScope = result.cacheScope;
  return fields;
}

/** `ref` resolved against the skill's root (`skill://x/`): an absolute URI as is, a relative path below the root. */
function resolveRef(root: string, ref: string): string {
  const plain = ref.replace(/#.*$/s, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(plain)) return plain;
  const parts: string[] = [];
  for (const part of plain.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw new LocalError('INVALID_ARGUMENT', `${ref.slice(0, 200)} leaves the skill's directory`);
      parts.pop();
    } else parts.push(part);
  }
  return root + parts.join('/');
}
