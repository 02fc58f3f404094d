import { McpClient } from '@wiremcp/client';
import { SkillsClient } from '@wiremcp/ext-skills';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import { createGrammarServer } from './grammar-server.js';
import { loadTable } from './table/index.js';

describe.each(['legacy', 'modern'] as const)('the grammar skills (%s)', (era) => {
  test('one verified skill per tense, its SKILL.md pointing at conjugate and its table.md holding every verb', async () => {
    const server = createGrammarServer(loadTable());
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new McpClient({ name: 'grammar-skills-test', version: '1.0.0' }, { era, onError: () => undefined });
    await client.connect(a);
    try {
      const skills = new SkillsClient(client);
      const { skills: entries, ttlMs } = await skills.list();
      expect(entries.map((skill) => skill.uri)).toEqual([
        'skill://grammar/conjugate-infinitive/SKILL.md',
        'skill://grammar/conjugate-past-participle/SKILL.md',
        'skill://grammar/conjugate-past-simple/SKILL.md',
        'skill://grammar/conjugate-present-simple/SKILL.md',
        'skill://grammar/conjugate-simple-future/SKILL.md',
      ]);
      expect(ttlMs).toBe(era === 'modern' ? 3_600_000 : undefined);
      const past = entries[2]!;
      expect(past.frontmatter).toMatchObject({ name: 'conjugate-past-simple', license: 'MIT', metadata: { tense: 'past simple' } });
      const md = await skills.read(past);
      expect(md.body).toContain('call the `conjugate` tool with `tense: "past simple"`');
      const rows = (await skills.read(past, 'table.md')).text!;
      expect(rows).toContain('| eat | ate (comí) | ate (comiste) | ate (comió) |');
      expect(
        rows.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| verb') && !line.startsWith('| ---')),
      ).toHaveLength(20);
      expect((await skills.readDirectory('skill://grammar')).resources.map((entry) => entry.name)).toHaveLength(5);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
