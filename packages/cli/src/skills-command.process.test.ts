import { SkillCatalog, serveSkills } from '@wiremcp/ext-skills/server';
import { McpServer } from '@wiremcp/server';
import { createHttpHandler } from '@wiremcp/transport-http';
import { listen, type Listening } from '@wiremcp/transport-http/node';
import { afterEach, describe, expect, test } from 'vitest';
import { GRAMMAR, stopAll, wiremcp } from './cli.test-util.js';

const listening: Listening[] = [];
afterEach(async () => {
  await Promise.all(listening.splice(0).map((server) => server.close()));
  await stopAll();
});

const skillMd = (name: string, description: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

describe('wiremcp skills', () => {
  test('lists the skills of a stdio server, shows an entry, reads a file verified, lists a directory', async () => {
    const list = await wiremcp(['skills', 'node', GRAMMAR]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^conjugate-infinitive {2}Conjugate the 20 §A13 English verbs in the infinitive/);
    expect(list.stdout).toContain('skill://grammar/conjugate-past-simple/SKILL.md (2 files, ');

    const get = await wiremcp(['skills', '--json', '--get', 'skill://grammar/conjugate-past-simple/SKILL.md', 'node', GRAMMAR]);
    expect(get.code).toBe(0);
    const { skill } = JSON.parse(get.stdout) as { skill: { resources: Array<{ uri: string; digest: string }> } };
    expect(skill.resources.map((file) => file.uri)).toEqual([
      'skill://grammar/conjugate-past-simple/SKILL.md',
      'skill://grammar/conjugate-past-simple/table.md',
    ]);

    const read = await wiremcp(['skills', '--read', 'conjugate-past-simple', '--file', 'table.md', 'node', GRAMMAR]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('| eat | ate (comí) | ate (comiste) | ate (comió) |');

    const dir = await wiremcp(['skills', '--dir', 'skill://grammar/conjugate-past-simple', 'node', GRAMMAR]);
    expect(dir.stdout).toBe(
      'SKILL.md  skill://grammar/conjugate-past-simple/SKILL.md\ntable.md  skill://grammar/conjugate-past-simple/table.md\n',
    );

    const unknown = await wiremcp(['skills', '--read', 'no-such-skill', 'node', GRAMMAR]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no skill named "no-such-skill" is listed/);
  });

  test('refuses a file whose digest lies (exit 1, nothing printed) and says so for a server without skills', async () => {
    const honest = await SkillCatalog.fromMemory({
      'refunds/SKILL.md': skillMd('refunds', 'Refunds'),
      'refunds/policy.md': 'Refund within 30 days.\n',
    });
    const server = new McpServer({ name: 'liar', version: '1.0.0' }, { onInternalError: () => undefined });
    // It lists the honest manifest, but serves other bytes.
    serveSkills(
      server,
      await SkillCatalog.fromMemory({
        'refunds/SKILL.md': skillMd('refunds', 'Refunds'),
        'refunds/policy.md': 'Refund within 300 days.\n',
      }),
    );
    server.setRequestHandler('skills/list', () => ({ skills: honest.entries as never }));
    const served = await listen(createHttpHandler(server));
    listening.push(served);
    const lie = await wiremcp(['skills', '--read', 'refunds', '--file', 'policy.md', served.url.href]);
    expect(lie.code).toBe(1);
    expect(lie.stdout).toBe('');
    expect(lie.stderr).toMatch(/verification failed \(size\): skill:\/\/refunds\/policy\.md has 24 bytes; the entry says 23/);

    const plain = new McpServer({ name: 'plain', version: '1.0.0' });
    plain.registerTool({ name: 'noop', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const plainServed = await listen(createHttpHandler(plain));
    listening.push(plainServed);
    const none = await wiremcp(['skills', plainServed.url.href]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/the server does not serve skills/);
  });
});
