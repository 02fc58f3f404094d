/**
 * An {@link AuthStore} in one JSON file, for CLIs: created with mode 0600 in a directory created with 0700, written
 * atomically (temporary file, then rename), operations serialized so concurrent saves never interleave.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AuthError } from '../errors.js';
import type { AuthStore, StoredClient, StoredTokens } from '../client/store.js';

interface FileContents {
  version: 1;
  clients: Record<string, StoredClient>;
  tokens: Record<string, StoredTokens>;
}

/** Largest store file read, in bytes (a store holds a few registrations and token sets). */
export const MAX_STORE_FILE_BYTES = 4 * 1024 * 1024;

/** Stores registrations and tokens in a JSON file readable only by the current user. */
export class FileAuthStore implements AuthStore {
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();

  /** `path` is the JSON file (e.g. `~/.config/my-cli/auth.json`). */
  constructor(path: string) {
    this.#path = path;
  }

  async #read(): Promise<FileContents> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, clients: {}, tokens: {} };
      throw new AuthError('storage_failed', 'could not read the auth store file', { cause });
    }
    if (text.length > MAX_STORE_FILE_BYTES) throw new AuthError('storage_failed', 'the auth store file is too large');
    try {
      const parsed = JSON.parse(text) as Partial<FileContents>;
      if (parsed.version !== 1 || typeof parsed.clients !== 'object' || typeof parsed.tokens !== 'object')
        throw new Error('unexpected shape');
      return { version: 1, clients: parsed.clients ?? {}, tokens: parsed.tokens ?? {} };
    } catch (cause) {
      throw new AuthError('storage_failed', 'the auth store file is not a valid store', { cause });
    }
  }

  async #write(contents: FileContents): Promise<void> {
    try {
      await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
      const temporary = join(dirname(this.#path), `.${randomUUID()}.tmp`);
      await writeFile(temporary, JSON.stringify(contents, null, 2), { mode: 0o600, flag: 'wx' });
      await rename(temporary, this.#path);
    } catch (cause) {
      throw new AuthError('storage_failed', 'could not write the auth store file', { cause });
    }
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #update(change: (contents: FileContents) => void): Promise<void> {
    return this.#serial(async () => {
      const contents = await this.#read();
      change(contents);
      await this.#write(contents);
    });
  }

  loadClient(issuer: string): Promise<StoredClient | undefined> {
    return this.#serial(async () => (await this.#read()).clients[issuer]);
  }
  saveClient(issuer: string, client: StoredClient): Promise<void> {
    return this.#update((contents) => void (contents.clients[issuer] = client));
  }
  deleteClient(issuer: string): Promise<void> {
    return this.#update((contents) => void delete contents.clients[issuer]);
  }
  loadTokens(server: string): Promise<StoredTokens | undefined> {
    return this.#serial(async () => (await this.#read()).tokens[server]);
  }
  saveTokens(server: string, tokens: StoredTokens): Promise<void> {
    return this.#update((contents) => void (contents.tokens[server] = tokens));
  }
  deleteTokens(server: string): Promise<void> {
    return this.#update((contents) => void delete contents.tokens[server]);
  }
}
