import { describe, expect, it } from 'vitest';
import { RpcError } from '@wiremcp/protocol';
import { SkillCatalog } from './catalog.js';
import { serveSkills } from './serve-skills.js';
import { sha256Digest } from './digest.js';
import { connectedPair, newServer, SAMPLE } from './skills.test-util.js';
import { skillsOf } from './skills-client.js';
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION } from './wire.js';

const quiet = { onWarning: () => undefined };

for (const era of ['legacy', 'modern'] as const) {
  describe(`serving a catalogue (${era})`, () => {
    it('declares the extension with directoryRead and the resources capability', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const caps = client.serverCapabilities as Record<string, Record<string, unknown>>;
        expect(caps.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
        expect(caps.resources).toBeDefined();
      } finally {
        await close();
      }
    });

    it('lists every skill with its frontmatter verbatim and a manifest of digests and sizes', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const result = (await client.request('skills/list', {})) as Record<string, unknown>;
        const skills = result.skills as Array<{
          uri: string;
          frontmatter: Record<string, unknown>;
          resources: Array<{ uri: string; digest: string; size: number }>;
        }>;
        expect(skills.map((skill) => skill.uri)).toEqual([
          'skill://acme/billing/refunds/SKILL.md',
          'skill://acme/billing/refunds/partial/SKILL.md',
          'skill://git-workflow/SKILL.md',
        ]);
        expect(skills[2]!.frontmatter).toEqual({
          name: 'git-workflow',
          description: 'Follow the team Git conventions',
          license: 'Apache-2.0',
          metadata: { version: '1.2' },
        });
        const refunds = skills[0]!.resources;
        // Complete: the nested skill's files are the enclosing skill's supporting files too.
        expect(refunds.map((file) => file.uri).sort()).toEqual([
          'skill://acme/billing/refunds/SKILL.md',
          'skill://acme/billing/refunds/logo.png',
          'skill://acme/billing/refunds/partial/SKILL.md',
          'skill://acme/billing/refunds/templates/email.md',
          'skill://acme/billing/refunds/templates/regional/eu.md',
        ]);
        const email = refunds.find((file) => file.uri.endsWith('email.md'))!;
        expect(email.size).toBe(15);
        expect(email.digest).toBe(await sha256Digest(new TextEncoder().encode('Dear customer,\n')));
        if (era === 'modern') expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
        else expect(result).not.toHaveProperty('ttlMs');
      } finally {
        await close();
      }
    });

    it('pages skills/list and refuses a foreign cursor with -32602', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet), { pageSize: 2 });
      const { client, close } = await connectedPair(server, era);
      try {
        const first = (await client.request('skills/list', {})) as { skills: unknown[]; nextCursor?: string };
        expect(first.skills).toHaveLength(2);
        const second = (await client.request('skills/list', { cursor: first.nextCursor! })) as { skills: unknown[]; nextCursor?: string };
        expect(second.skills).toHaveLength(1);
        expect(second.nextCursor).toBeUndefined();
        await expect(client.request('skills/list', { cursor: 'sk1.bm9wZQ' })).rejects.toMatchObject({ code: -32602 });
        const listing = await skillsOf(client).list();
        expect(listing.skills).toHaveLength(3);
      } finally {
        await close();
      }
    });

    it('gets one skill by URI and answers -32602 for one it does not serve', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const got = (await client.request('skills/get', { uri: 'skill://git-workflow/SKILL.md' })) as Record<string, unknown>;
        expect((got.skill as { uri: string }).uri).toBe('skill://git-workflow/SKILL.md');
        expect(got).not.toHaveProperty('nextCursor');
        const error = await client.request('skills/get', { uri: 'skill://acme/billing/chargebacks/SKILL.md' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RpcError);
        expect(error).toMatchObject({ code: -32602, message: 'No skill is served at skill://acme/billing/chargebacks/SKILL.md' });
        await expect(client.request('skills/get', {})).rejects.toMatchObject({ code: -32602 });
      } finally {
        await close();
      }
    });

    it('reads files through resources/read (text, and binary as a blob) and lists the SKILL.md resources', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const md = await client.readResource('skill://git-workflow/SKILL.md');
        expect(md.contents[0]).toMatchObject({ uri: 'skill://git-workflow/SKILL.md', mimeType: 'text/markdown' });
        const png = await client.readResource('skill://acme/billing/refunds/logo.png');
        expect(png.contents[0]).toMatchObject({ mimeType: 'image/png', blob: 'iVBORwABAv8=' });
        const listed = await client.listAllResources();
        expect(listed.find((r) => r.uri === 'skill://git-workflow/SKILL.md')).toMatchObject({
          name: 'git-workflow',
          description: 'Follow the team Git conventions',
          mimeType: 'text/markdown',
        });
        expect(listed.some((r) => r.uri.endsWith('email.md'))).toBe(false);
        await expect(client.readResource('skill://git-workflow/missing.md')).rejects.toBeInstanceOf(RpcError);
        await expect(client.readResource('skill://git-workflow/../acme/billing/refunds/SKILL.md')).rejects.toBeInstanceOf(RpcError);
      } finally {
        await close();
      }
    });

    it('reads directories: direct children, subdirectories as inode/directory, -32602 for a file', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet));
      const { client, close } = await connectedPair(server, era);
      try {
        const dir = (await client.request('resources/directory/read', { uri: 'skill://acme/billing/refunds/templates' })) as {
          resources: unknown[];
        };
        expect(dir.resources).toEqual([
          { uri: 'skill://acme/billing/refunds/templates/email.md', name: 'email.md', mimeType: 'text/markdown', size: 15 },
          { uri: 'skill://acme/billing/refunds/templates/regional', name: 'regional', mimeType: DIRECTORY_MIME_TYPE },
        ]);
        await expect(client.request('resources/directory/read', { uri: 'skill://acme/billing/refunds/SKILL.md' })).rejects.toMatchObject({
          code: -32602,
        });
        const skills = skillsOf(client);
        expect(skills.directoryRead).toBe(true);
        expect((await skills.readDirectory('skill://acme')).resources).toEqual([
          { uri: 'skill://acme/billing', name: 'billing', mimeType: DIRECTORY_MIME_TYPE },
        ]);
      } finally {
        await close();
      }
    });

    it('without directoryRead: no flag, and the method is unknown', async () => {
      const server = newServer();
      serveSkills(server, await SkillCatalog.fromMemory(SAMPLE, quiet), { directoryRead: false });
      const { client, close } = await connectedPair(server, era);
      try {
        expect((client.serverCapabilities as Record<string, Record<string, unknown>>).extensions?.[SKILLS_EXTENSION]).toEqual({});
        await expect(client.request('resources/directory/read', { uri: 'skill://acme' })).rejects.toMatchObject({ code: -32601 });
      } finally {
        await close();
      }
    });
  });
}
