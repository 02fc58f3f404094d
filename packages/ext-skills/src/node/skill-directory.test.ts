import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveSkills } from '../serve-skills.js';
import { connectedPair, newServer, skillMd } from '../skills.test-util.js';
import { SkillsClient } from '../skills-client.js';
import type { SkillWarning } from '../catalog-scan.js';
import { directorySkillStore } from './directory-store.js';
import { openSkillDirectory } from './skill-directory.js';

let root: string;
const write = (path: string, content: string | Uint8Array): void => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wiremcp-skills-'));
  write('alpha/SKILL.md', skillMd('alpha'));
  write('alpha/notes/one.md', 'one\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a skill directory', () => {
  it('serves the tree, and nothing through a symbolic link (to /etc, or a file outside)', async () => {
    symlinkSync('/etc', join(root, 'alpha', 'etc'));
    symlinkSync('/etc/passwd', join(root, 'alpha', 'passwd.md'));
    mkdirSync(join(root, 'linked'));
    symlinkSync('/etc', join(root, 'linked', 'beta'));
    const warnings: SkillWarning[] = [];
    const dir = await openSkillDirectory(root, { onWarning: (warning) => warnings.push(warning) });
    try {
      const [alpha] = dir.catalog.entries;
      expect(dir.catalog.entries).toHaveLength(1);
      expect((alpha!.resources as Array<{ uri: string }>).map((file) => file.uri)).toEqual([
        'skill://alpha/SKILL.md',
        'skill://alpha/notes/one.md',
      ]);
      expect(warnings.map((w) => w.path).sort()).toEqual(['alpha/etc', 'alpha/passwd.md', 'linked/beta']);
      expect(warnings[0]!.message).toBe('a symbolic link: never followed or served');
      expect(await dir.catalog.read('skill://alpha/passwd.md')).toBeUndefined();
      expect(await dir.catalog.read('skill://alpha/etc/passwd')).toBeUndefined();
      await expect(dir.store.read('alpha/passwd.md', 1024)).rejects.toMatchObject({ code: 'not_a_file' });
      // O_NOFOLLOW | O_DIRECTORY on a link: the kernel refuses it (ENOTDIR); /etc is never listed.
      await expect(dir.store.list('linked/beta', 10)).rejects.toMatchObject({ name: 'SkillStoreError' });
      await expect(dir.store.read('../etc/passwd', 1024)).rejects.toMatchObject({ code: 'not_found' });
      // Nothing in a message says where the root is.
      for (const warning of warnings) expect(warning.message).not.toContain(root);
    } finally {
      await dir.close();
    }
  });

  it('refuses a 100 MB SKILL.md without reading it, and serves the other skills', async () => {
    write('huge/SKILL.md', skillMd('huge'));
    truncateSync(join(root, 'huge', 'SKILL.md'), 100 * 1024 * 1024);
    const warnings: SkillWarning[] = [];
    const dir = await openSkillDirectory(root, { onWarning: (warning) => warnings.push(warning) });
    try {
      expect(dir.catalog.entries.map((skill) => skill.frontmatter.name)).toEqual(['alpha']);
      expect(warnings).toEqual([
        { path: 'huge', message: 'skill refused: its files are larger than 16777216 bytes in total (at huge/SKILL.md)' },
      ]);
    } finally {
      await dir.close();
    }
  });

  it('refuses a skill of 100,000 files after a bounded look, and serves the other skills', async () => {
    write('crowded/SKILL.md', skillMd('crowded'));
    const many = join(root, 'crowded', 'many');
    mkdirSync(many);
    for (let i = 0; i < 100_000; i++) closeSync(openSync(join(many, `f${i}`), 'w'));
    const warnings: SkillWarning[] = [];
    let lists = 0;
    const store = await directorySkillStore(root);
    const counting = { ...store, list: (dir: string, limit: number) => (lists++, store.list(dir, limit)) };
    const { SkillCatalog } = await import('../catalog.js');
    try {
      const catalog = await SkillCatalog.load(counting, { onWarning: (warning) => warnings.push(warning) });
      expect(catalog.entries.map((skill) => skill.frontmatter.name)).toEqual(['alpha']);
      expect(warnings).toEqual([{ path: 'crowded', message: 'skill refused: crowded/many has more than 4096 entries' }]);
      expect(lists).toBeLessThan(10);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('refuses a skill whose folder and name differ, or whose frontmatter is broken, with a clear reason', async () => {
    write('gamma/SKILL.md', skillMd('delta'));
    write('eps/SKILL.md', '# no frontmatter\n');
    write('zeta/SKILL.md', '---\nname: zeta\ndescription: [unclosed\n---\n');
    const warnings: SkillWarning[] = [];
    const dir = await openSkillDirectory(root, { onWarning: (warning) => warnings.push(warning) });
    try {
      expect(dir.catalog.entries).toHaveLength(1);
      expect(warnings.map((w) => `${w.path}: ${w.message.split(':').slice(0, 2).join(':')}`)).toEqual([
        'eps: skill refused: SKILL.md does not begin with a YAML frontmatter block between --- lines',
        'gamma: skill refused: its folder is "gamma" but its frontmatter name is "delta"',
        'zeta: skill refused: the frontmatter is not valid YAML',
      ]);
    } finally {
      await dir.close();
    }
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`reloads when the tree changes and tells clients (${era})`, async () => {
      const dir = await openSkillDirectory(root, { watch: { debounceMs: 20 }, onWarning: () => undefined });
      const server = newServer();
      serveSkills(server, dir.catalog);
      const { client, close } = await connectedPair(server, era);
      try {
        const changed = new Promise<void>((resolve) => client.onResourcesListChanged(() => resolve()));
        const updated = new Promise<string>((resolve) => client.onResourceUpdated((params) => resolve(params.uri)));
        await client.subscribeResource('skill://alpha/notes/one.md');
        if (era === 'modern') await client.onResourcesListChanged(() => undefined).ready;
        write('beta/SKILL.md', skillMd('beta'));
        write('alpha/notes/one.md', 'one, changed\n');
        await changed;
        expect(await updated).toBe('skill://alpha/notes/one.md');
        const skills = new SkillsClient(client);
        expect((await skills.list()).skills.map((skill) => skill.frontmatter.name)).toEqual(['alpha', 'beta']);
        const [alpha] = (await skills.list()).skills;
        expect((await skills.read(alpha!, 'notes/one.md')).text).toBe('one, changed\n');
      } finally {
        await close();
        await dir.close();
      }
    });
  }

  it('a file changed behind the catalogue: the read reloads and serves what the new entry says', async () => {
    const dir = await openSkillDirectory(root, { onWarning: () => undefined });
    try {
      const before = dir.catalog.get('skill://alpha/SKILL.md')!;
      write('alpha/notes/one.md', 'one, edited\n');
      const file = await dir.catalog.read('skill://alpha/notes/one.md');
      expect(new TextDecoder().decode(file!.bytes)).toBe('one, edited\n');
      expect(dir.catalog.get('skill://alpha/SKILL.md')).not.toEqual(before);
    } finally {
      await dir.close();
    }
  });
});
