/** Test helpers: a sample catalogue, and a server and client connected in memory in either era. */
import { McpClient } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { McpServer } from '@wiremcp/server';

/** A skill's SKILL.md text. */
export function skillMd(name: string, description = `The ${name} skill`, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nSee templates/.\n`;
}

/** Files of a small catalogue: a plain skill, a prefixed one with a subfolder, a nested one. */
export const SAMPLE: Record<string, string | Uint8Array> = {
  'git-workflow/SKILL.md': skillMd('git-workflow', 'Follow the team Git conventions', 'license: Apache-2.0\nmetadata:\n  version: "1.2"\n'),
  'acme/billing/refunds/SKILL.md': skillMd('refunds', 'Process refunds per policy'),
  'acme/billing/refunds/templates/email.md': 'Dear customer,\n',
  'acme/billing/refunds/templates/regional/eu.md': 'EU rules\n',
  'acme/billing/refunds/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]),
  'acme/billing/refunds/partial/SKILL.md': skillMd('partial', 'Partial refunds'),
};

/** A server, and a client connected to it in memory in `era`. */
export async function connectedPair(server: McpServer, era: 'legacy' | 'modern'): Promise<{ client: McpClient; close(): Promise<void> }> {
  const [a, b] = createLinkedPair();
  await server.connect(b);
  const client = new McpClient({ name: 'skills-test', version: '1.0.0' }, { era, onError: () => undefined });
  await client.connect(a);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** A new server. */
export function newServer(): McpServer {
  return new McpServer({ name: 'skills-server', version: '1.0.0' }, { onInternalError: () => undefined });
}
