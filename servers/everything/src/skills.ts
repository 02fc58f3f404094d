/**
 * The everything server's skills (the `io.modelcontextprotocol/skills` extension, with `directoryRead`): a few
 * skills held in memory that exercise what the extension defines — a prefixed skill with subfolders, a nested
 * skill, a binary file, a skill whose content is generated (`"dynamic"`) — so that the official suite's
 * `sep-2640-*` scenarios run their checks against a declaring server.
 */
import { SkillCatalog, serveSkills } from '@wiremcp/ext-skills/server';
import type { McpServer } from '@wiremcp/server';

const skillMd = (name: string, description: string, body: string, extra = ''): string =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;

/** The skill files, by path below `skill://`. */
export const EVERYTHING_SKILL_FILES: Readonly<Record<string, string | Uint8Array>> = {
  'acme/billing/refunds/SKILL.md': skillMd(
    'refunds',
    'Process customer refund requests per company policy',
    '# Refunds\n\nCheck the order, then pick the matching letter from `examples/`. Partial refunds: see `partial/SKILL.md`.',
    'license: Apache-2.0\nmetadata:\n  version: "2.1.0"\n',
  ),
  'acme/billing/refunds/examples/email.md': 'Dear customer,\n\nYour refund of {amount} is on its way.\n',
  'acme/billing/refunds/examples/regional/eu.md': 'EU customers have 14 days to withdraw.\n',
  'acme/billing/refunds/partial/SKILL.md': skillMd('partial', 'Refund part of an order', '# Partial refunds\n\nRefund line by line.'),
  'pdf-processing/SKILL.md': skillMd(
    'pdf-processing',
    'Extract, fill, and assemble PDF documents',
    '# PDF processing\n\nChoose the matching template from `templates/`; run `scripts/extract.py` to pull out fields.',
  ),
  'pdf-processing/templates/invoice.md': '# Invoice\n\n| item | amount |\n| --- | --- |\n',
  'pdf-processing/scripts/extract.py': 'import sys\n\nprint(sys.argv[1:])\n',
  'pdf-processing/assets/stamp.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
};

/** Serves the skills on `server`. */
export function registerEverythingSkills(server: McpServer): void {
  const catalog = SkillCatalog.fromMemory(EVERYTHING_SKILL_FILES as Record<string, string | Uint8Array>, {
    dynamic: [
      {
        path: 'reports/daily',
        frontmatter: { name: 'daily', description: "Assemble today's report from live data" },
        files: () => ['SKILL.md', 'data/today.csv'],
        read: (file) =>
          file === 'SKILL.md'
            ? skillMd('daily', "Assemble today's report from live data", '# Daily report\n\nRead `data/today.csv`; it changes every time.')
            : file === 'data/today.csv'
              ? `generated,${new Date().toISOString()}\n`
              : undefined,
      },
    ],
  });
  serveSkills(server, catalog);
}
