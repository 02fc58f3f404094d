/**
 * Interop of the Skills extension (SEP-2640) with the official TypeScript SDK 2.4.0 (`./ext/skills` of
 * `@modelcontextprotocol/server` and `@modelcontextprotocol/client`), both directions, over Streamable HTTP on
 * 127.0.0.1 in both eras: the official `SkillsClient` lists, gets and reads our catalogue and verifies every digest,
 * size and frontmatter; our `SkillsClient` does the same with a catalogue served by the official `SkillCatalog`.
 * Lying servers on both sides: each client refuses the other side's tampered file with its typed error.
 */
import { Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  SkillsClient as OfficialSkillsClient,
  SkillVerificationError as OfficialVerificationError,
} from '@modelcontextprotocol/client/ext/skills';
import { createMcpHandler, McpServer as OfficialServer } from '@modelcontextprotocol/server';
import { memorySkillFiles, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { McpClient } from '@wiremcp/client';
import { SkillsClient, SkillVerificationError } from '@wiremcp/ext-skills';
import { SkillCatalog, serveSkills } from '@wiremcp/ext-skills/server';
import { McpServer } from '@wiremcp/server';
import { createHttpHandler, httpTransportFactory } from '@wiremcp/transport-http';
import { listen, type Listening } from '@wiremcp/transport-http/node';
import { afterEach, describe, expect, test } from 'vitest';
import { serveWeb, type Served } from './http-fixtures.js';

const skillMd = (name: string, description: string): string =>
  `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\n---\n\n# ${name}\n\nUse templates/.\n`;

const FILES: Record<string, string | Uint8Array> = {
  'pdf-processing/SKILL.md': skillMd('pdf-processing', 'Extract, fill, and assemble PDF documents'),
  'pdf-processing/templates/invoice.md': 'Invoice template\n',
  'pdf-processing/templates/regional/eu.md': 'EU invoice\n',
  'pdf-processing/scripts/extract.py': 'print("hello")\n',
  'acme/refunds/SKILL.md': skillMd('refunds', 'Process refunds'),
  'acme/refunds/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 255]),
};

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop().catch(() => undefined)));
});

async function ourServer(files: Record<string, string | Uint8Array>): Promise<Listening> {
  const server = new McpServer({ name: 'wiremcp-skills', version: '1.0.0' }, { onInternalError: () => undefined });
  serveSkills(server, await SkillCatalog.fromMemory(files, { onWarning: () => undefined }));
  const listening = await listen(createHttpHandler(server));
  stops.push(() => listening.close());
  return listening;
}

async function officialClient(url: URL, era: 'legacy' | 'modern'): Promise<V2Client> {
  const client = new V2Client(
    { name: 'official-skills-host', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  stops.push(() => client.close());
  return client;
}

async function officialServer(files: Record<string, string | Uint8Array>): Promise<Served> {
  const skills = await SkillsExtension.load(memorySkillFiles(files as Record<string, string>), { onWarning: () => undefined });
  const handler = createMcpHandler(() => {
    const mcp = new OfficialServer({ name: 'official-skills', version: '2.4.0' }, { capabilities: { resources: {} } });
    skills.attach(mcp);
    return mcp;
  });
  const served = await serveWeb((request) => handler.fetch(request));
  stops.push(() => served.stop());
  return served;
}

async function ourClient(url: string, era: 'legacy' | 'modern'): Promise<McpClient> {
  const client = new McpClient({ name: 'wiremcp-skills-host', version: '1.0.0' }, { era, onError: () => undefined });
  await client.connect(httpTransportFactory(url));
  stops.push(() => client.close());
  return client;
}

describe.each(['legacy', 'modern'] as const)('official SDK 2.4.0 skills client → our catalogue (%s)', (era) => {
  test('lists, gets and reads every file with digests, sizes and frontmatter verified', async () => {
    const listening = await ourServer(FILES);
    const client = await officialClient(listening.url, era);
    const skills = new OfficialSkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((skill) => skill.uri)).toEqual(['skill://acme/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    if (era === 'modern') expect(listing).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
    let verified = 0;
    for (const skill of listing.skills) {
      for (const file of skill.resources as Array<{ uri: string; size: number }>) {
        const read = await skills.read(skill, file.uri);
        expect(read.verified).toBe(true);
        expect(read.bytes.length).toBe(file.size);
        verified++;
      }
      expect((await skills.get(skill.uri)).skill).toEqual(skill);
    }
    expect(verified).toBe(6);
    const md = await skills.read(listing.skills[1]!);
    expect(md.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'MIT' });
    const dir = await skills.readDirectory('skill://pdf-processing/templates');
    expect(dir.resources.map((entry) => [entry.name, entry.mimeType])).toEqual([
      ['invoice.md', 'text/markdown'],
      ['regional', 'inode/directory'],
    ]);
  });

  test('refuses our server when it lies about a file (the catalogue is edited behind a hand-written entry)', async () => {
    const server = new McpServer({ name: 'lying', version: '1.0.0' }, { onInternalError: () => undefined });
    const honest = await SkillCatalog.fromMemory(FILES, { onWarning: () => undefined });
    serveSkills(
      server,
      await SkillCatalog.fromMemory(
        { ...FILES, 'pdf-processing/templates/invoice.md': 'Invoice templatE\n' },
        { onWarning: () => undefined },
      ),
    );
    const listening = await listen(createHttpHandler(server));
    stops.push(() => listening.close());
    const client = await officialClient(listening.url, era);
    const entry = honest.get('skill://pdf-processing/SKILL.md')!;
    const error = await new OfficialSkillsClient(client).read(entry as never, 'templates/invoice.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfficialVerificationError);
    expect((error as { reason: string }).reason).toBe('digest');
  });
});

describe.each(['legacy', 'modern'] as const)('our skills client → the official SDK 2.4.0 catalogue (%s)', (era) => {
  test('lists, gets and reads every file with digests, sizes and frontmatter verified', async () => {
    const served = await officialServer(FILES);
    const client = await ourClient(`${served.origin}/`, era);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.skills.map((skill) => skill.uri)).toEqual(['skill://acme/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    let verified = 0;
    for (const skill of listing.skills) {
      for (const file of skill.resources as Array<{ uri: string; size: number }>) {
        const read = await skills.read(skill, file.uri);
        expect(read).toMatchObject({ verified: true });
        expect(read.bytes.length).toBe(file.size);
        verified++;
      }
      expect((await skills.get(skill.uri)).skill).toEqual(skill);
    }
    expect(verified).toBe(6);
    expect((await skills.read(listing.skills[1]!)).frontmatter).toEqual({
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      license: 'MIT',
    });
  });

  test('refuses the official server when what it serves no longer matches the entry we hold', async () => {
    const served = await officialServer({ ...FILES, 'pdf-processing/scripts/extract.py': 'print("HELLO")\n' });
    const client = await ourClient(`${served.origin}/`, era);
    const honest = await SkillCatalog.fromMemory(FILES, { onWarning: () => undefined });
    const error = await new SkillsClient(client)
      .read(honest.get('skill://pdf-processing/SKILL.md')!, 'scripts/extract.py')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({ reason: 'digest' });
  });
});
