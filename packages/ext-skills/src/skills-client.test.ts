import { describe, expect, it } from 'vitest';
import { LocalError } from '@wiremcp/protocol';
import type { McpServer } from '@wiremcp/server';
import { SkillCatalog } from './catalog.js';
import { sha256Digest } from './digest.js';
import { serveSkills } from './serve-skills.js';
import { connectedPair, newServer, SAMPLE, skillMd } from './skills.test-util.js';
import { SkillsClient } from './skills-client.js';
import { SkillVerificationError } from './verification-error.js';
import type { Skill } from './wire.js';

const quiet = { onWarning: () => undefined };
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A server that lists `entry` and serves `files` as they are, whatever the entry claims. */
function lyingServer(entry: Skill, files: Record<string, string>): { server: McpServer; reads: string[] } {
  const server = newServer();
  const reads: string[] = [];
  server.declareExtension('io.modelcontextprotocol/skills', {});
  server.setRequestHandler('skills/list', () => ({ skills: [entry as never] }));
  server.setRequestHandler('skills/get', () => ({ skill: entry as never }));
  server.registerResourceTemplate({ uriTemplate: 'skill://{+path}', name: 'files' }, (uri) => {
    reads.push(uri);
    return { contents: [{ uri, mimeType: 'text/markdown', text: files[uri] ?? '' }] };
  });
  return { server, reads };
}

const BODY = skillMd('pdf-processing', 'Extract, fill, and assemble PDF documents');
const FORMS = 'Supporting content.\n';

async function honestEntry(): Promise<Skill> {
  return {
    uri: 'skill://pdf-processing/SKILL.md',
    frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' },
    resources: [
      { uri: 'skill://pdf-processing/SKILL.md', digest: await sha256Digest(encode(BODY)), size: encode(BODY).length },
      { uri: 'skill://pdf-processing/references/FORMS.md', digest: await sha256Digest(encode(FORMS)), size: encode(FORMS).length },
    ],
  };
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`the skills client (${era})`, () => {
    it('reads and verifies a catalogue, SKILL.md with its frontmatter and body, binary files by digest', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const skills = new SkillsClient(client);
        expect(skills.supported).toBe(true);
        const { skills: entries } = await skills.list();
        const refunds = entries.find((skill) => skill.frontmatter.name === 'refunds')!;
        const md = await skills.read(refunds);
        expect(md).toMatchObject({ verified: true, frontmatter: { name: 'refunds' } });
        expect(md.body).toContain('# refunds');
        const logo = await skills.read(refunds, 'logo.png');
        expect([...logo.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
        expect((await skills.read(refunds, './templates/../templates/email.md')).text).toBe('Dear customer,\n');
        const { skill } = await skills.get(refunds.uri);
        expect(skill).toEqual(refunds);
      } finally {
        await close();
      }
    });

    it('never prefetches: listing and getting read no file', async () => {
      const { server, reads } = lyingServer(await honestEntry(), { 'skill://pdf-processing/SKILL.md': BODY });
      const { client, close } = await connectedPair(server, era);
      try {
        const skills = new SkillsClient(client);
        await skills.list();
        await skills.get('skill://pdf-processing/SKILL.md');
        expect(reads).toEqual([]);
        await skills.read((await skills.list()).skills[0]!);
        expect(reads).toEqual(['skill://pdf-processing/SKILL.md']);
      } finally {
        await close();
      }
    });

    const cases: Array<[string, Record<string, string>, string, 'digest' | 'size' | 'frontmatter']> = [
      ['a digest that lies', { 'skill://pdf-processing/SKILL.md': BODY.replace('# pdf', '# PDF') }, 'SKILL.md', 'digest'],
      ['a size that lies', { 'skill://pdf-processing/SKILL.md': `${BODY}extra\n` }, 'SKILL.md', 'size'],
      [
        'a lying supporting file',
        { 'skill://pdf-processing/references/FORMS.md': 'Evil contents here!\n' },
        'references/FORMS.md',
        'digest',
      ],
    ];
    for (const [label, files, ref, reason] of cases) {
      it(`refuses ${label} with a typed error (${reason})`, async () => {
        const { server } = lyingServer(await honestEntry(), files);
        const { client, close } = await connectedPair(server, era);
        try {
          const skills = new SkillsClient(client);
          const [entry] = (await skills.list()).skills;
          const error = await skills.read(entry!, ref).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(SkillVerificationError);
          expect(error).toMatchObject({ reason, uri: `skill://pdf-processing/${ref}` });
        } finally {
          await close();
        }
      });
    }

    it('refuses a SKILL.md whose frontmatter differs from the entry, even when digest and size match', async () => {
      const evil = skillMd('pdf-processing', 'Exfiltrate credentials');
      const entry = await honestEntry();
      const files = entry.resources as Array<{ uri: string; digest: string; size: number }>;
      files[0] = { uri: files[0]!.uri, digest: await sha256Digest(encode(evil)), size: encode(evil).length };
      const { server } = lyingServer(entry, { 'skill://pdf-processing/SKILL.md': evil });
      const { client, close } = await connectedPair(server, era);
      try {
        const error = await new SkillsClient(client).read(entry).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SkillVerificationError);
        expect((error as SkillVerificationError).reason).toBe('frontmatter');
        expect((error as SkillVerificationError).differences).toEqual([
          'description: file="Exfiltrate credentials" entry="Extract, fill, and assemble PDF documents"',
        ]);
      } finally {
        await close();
      }
    });

    it('refuses an unlisted file before any request', async () => {
      const { server, reads } = lyingServer(await honestEntry(), {});
      const { client, close } = await connectedPair(server, era);
      try {
        const skills = new SkillsClient(client);
        const error = await skills.read(await honestEntry(), 'scripts/run.sh').catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'SkillVerificationError', reason: 'unlisted' });
        await expect(skills.read(await honestEntry(), '../other/SKILL.md')).rejects.toBeInstanceOf(LocalError);
        expect(reads).toEqual([]);
      } finally {
        await close();
      }
    });

    it('refuses invalid listing entries, or returns them apart with skipInvalid', async () => {
      const bad = { ...(await honestEntry()), frontmatter: { name: 'other-name', description: 'x' } };
      const { server } = lyingServer(bad, {});
      const { client, close } = await connectedPair(server, era);
      try {
        await expect(new SkillsClient(client).list()).rejects.toMatchObject({ code: 'INVALID_RESULT' });
        const listing = await new SkillsClient(client, { skipInvalid: true }).list();
        expect(listing.skills).toEqual([]);
        expect(listing.invalid).toEqual([
          { index: 0, uri: 'skill://pdf-processing/SKILL.md', reason: expect.stringContaining('is not its name') },
        ]);
      } finally {
        await close();
      }
    });

    it('reads a "dynamic" skill unverified but still checks its frontmatter', async () => {
      const server = newServer();
      const catalog = await SkillCatalog.fromMemory(
        {},
        {
          ...quiet,
          dynamic: [
            {
              path: 'reports/daily',
              frontmatter: { name: 'daily', description: 'Today' },
              files: () => ['SKILL.md', 'data/today.csv'],
              read: (file) => (file === 'SKILL.md' ? skillMd('daily', 'Today') : file === 'data/today.csv' ? 'a,b\n1,2\n' : undefined),
            },
          ],
        },
      );
      serveSkills(server, catalog);
      const { client, close } = await connectedPair(server, era);
      try {
        const skills = new SkillsClient(client);
        const [daily] = (await skills.list()).skills;
        expect(daily).toEqual({
          uri: 'skill://reports/daily/SKILL.md',
          frontmatter: { name: 'daily', description: 'Today' },
          resources: 'dynamic',
        });
        expect(await skills.read(daily!)).toMatchObject({ verified: false, frontmatter: { name: 'daily' } });
        expect((await skills.read(daily!, 'data/today.csv')).text).toBe('a,b\n1,2\n');
        expect((await skills.readDirectory('skill://reports/daily')).resources.map((r) => r.name)).toEqual(['SKILL.md', 'data']);
      } finally {
        await close();
      }
    });

    it('says plainly when the server does not declare the extension', async () => {
      const server = newServer();
      server.registerTool({ name: 'noop', inputSchema: { type: 'object' } }, () => ({ content: [] }));
      const { client, close } = await connectedPair(server, era);
      try {
        const skills = new SkillsClient(client);
        expect(skills.supported).toBe(false);
        await expect(skills.list()).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
      } finally {
        await close();
      }
    });
  });
}
