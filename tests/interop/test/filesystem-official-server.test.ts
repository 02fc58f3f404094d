/**
 * Drop-in parity and the checklist, side by side: our client drives the official `@modelcontextprotocol/server-filesystem`
 * (2026.8.31) and the wiremcp filesystem server on the same directory. The official tools are all there under the same
 * names, with the same arguments and annotations; where the official server is known to leak (reference notes §1.2,
 * §1.3), the same request against ours is shown to hold. Skipped until `servers/filesystem/dist/bin.js` exists.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient, type InputHandlers } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const FS_BIN = fileURLToPath(new URL('../../../servers/filesystem/dist/bin.js', import.meta.url));
const manifest = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
const OFFICIAL_BIN = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin['mcp-server-filesystem']!,
);
const SECRET = 'OUTSIDE-SECRET-1234567';

let base: string;
let root: string;
const clients: McpClient[] = [];
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-parity-')));
  root = join(base, 'root');
  mkdirSync(root);
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'tail.txt'), 'hello\nline2\nline3\n');
  writeFileSync(join(root, 'crlf.txt'), 'a\r\nb\r\nc\r\n');
  symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link-out'));
  linkSync(join(base, 'outside', 'secret.txt'), join(root, 'hard.txt'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  rmSync(base, { recursive: true, force: true });
});

async function start(bin: string, handlers: InputHandlers = {}): Promise<McpClient> {
  const client = new McpClient({ name: 'parity', version: '1.0.0' }, { era: 'legacy', handlers });
  clients.push(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, root], stderr: 'pipe', shutdownTimeoutMs: 500 }));
  return client;
}

type Result = { content: Array<{ text?: string }>; structuredContent?: { entries?: unknown[] }; isError?: boolean };
const call = async (client: McpClient, name: string, args: Record<string, unknown>): Promise<Result> =>
  (await client.callTool(name, args)) as Result;

describe.skipIf(!existsSync(FS_BIN))('official server-filesystem and wiremcp-filesystem side by side', () => {
  test('every official tool exists in ours with the same argument names, required ones and annotations', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    const theirs = await official.listAllTools();
    const mine = new Map((await ours.listAllTools()).map((tool) => [tool.name, tool]));
    expect(theirs.length).toBe(14);
    for (const tool of theirs) {
      const match = mine.get(tool.name);
      expect(match, tool.name).toBeDefined();
      const theirProps = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
      expect(Object.keys((match!.inputSchema as { properties?: object }).properties ?? {}), tool.name).toEqual(
        expect.arrayContaining(theirProps),
      );
      expect((match!.inputSchema as { required?: string[] }).required ?? [], tool.name).toEqual(
        expect.arrayContaining(
          ((tool.inputSchema as { required?: string[] }).required ?? []).filter(
            (name) => name !== 'dryRun' && name !== 'sortBy' && name !== 'excludePatterns',
          ),
        ),
      );
      expect(match!.annotations, tool.name).toEqual(tool.annotations);
      expect(match!.title, tool.name).toBe(tool.title);
    }
  });

  test('the same reads give the same text', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    for (const args of [{ path: join(root, 'tail.txt') }, { path: join(root, 'tail.txt'), head: 2 }]) {
      const [a, b] = [await call(official, 'read_text_file', args), await call(ours, 'read_text_file', args)];
      expect(b.content[0]!.text!.replace(/\n$/, '')).toBe(a.content[0]!.text!.replace(/\n$/, ''));
    }
  });

  test('tail: the official server returns one line too few on a file ending in a newline; ours returns the lines asked for', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    expect((await call(official, 'read_text_file', { path: join(root, 'tail.txt'), tail: 2 })).content[0]!.text).toBe('line3\n');
    expect((await call(ours, 'read_text_file', { path: join(root, 'tail.txt'), tail: 2 })).content[0]!.text).toBe('line2\nline3\n');
  });

  test('hard links: the official server reads a hard link to a file outside; ours refuses it', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    expect(JSON.stringify(await call(official, 'read_text_file', { path: join(root, 'hard.txt') }))).toContain(SECRET);
    const refused = await call(ours, 'read_text_file', { path: join(root, 'hard.txt') });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).not.toContain(SECRET);
  });

  test('listings: the official server reveals the size of a link target outside; ours lists the link as a link', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    const theirs = (await call(official, 'list_directory_with_sizes', { path: root })).content[0]!.text!;
    expect(theirs).toMatch(new RegExp(`\\[FILE\\] link-out\\s+${SECRET.length} B`));
    const mine = await call(ours, 'list_directory_with_sizes', { path: root });
    expect(mine.structuredContent?.entries).toContainEqual({ name: 'link-out', type: 'symlink' });
    expect(mine.content[0]!.text).not.toContain(`${SECRET.length} B`);
  });

  test('errors: the official server echoes its allow-list; ours names only the path given', async () => {
    const official = await start(OFFICIAL_BIN);
    const ours = await start(FS_BIN);
    expect((await call(official, 'read_text_file', { path: '/etc/passwd' })).content[0]!.text).toContain(`not in ${root}`);
    expect((await call(ours, 'read_text_file', { path: '/etc/passwd' })).content[0]!.text).toBe(
      'Access denied - path outside allowed directories: /etc/passwd',
    );
  });

  test('roots: a client root outside widens the official server; ours keeps its directory as the upper bound', async () => {
    const roots: InputHandlers = { roots: () => ({ roots: [{ uri: `file://${join(base, 'outside')}` }] }) };
    const official = await start(OFFICIAL_BIN, roots);
    const ours = await start(FS_BIN, roots);
    const secret = join(base, 'outside', 'secret.txt');
    // The official server adopts the roots after `initialized`; it answers with the secret once it has them.
    let theirs: Result | undefined;
    for (let i = 0; i < 50 && !JSON.stringify(theirs ?? '').includes(SECRET); i++)
      theirs = await call(official, 'read_text_file', { path: secret });
    expect(JSON.stringify(theirs)).toContain(SECRET);
    const mine = await call(ours, 'read_text_file', { path: secret });
    expect(mine.isError).toBe(true);
    expect(JSON.stringify(mine)).not.toContain(SECRET);
  });

  test('edits: the official server rewrites CRLF files as LF; ours keeps CRLF', async () => {
    const official = await start(OFFICIAL_BIN);
    await call(official, 'edit_file', { path: join(root, 'crlf.txt'), edits: [{ oldText: 'b', newText: 'B' }] });
    expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('a\nB\nc\n');
    writeFileSync(join(root, 'crlf.txt'), 'a\r\nb\r\nc\r\n');
    const ours = await start(FS_BIN);
    await call(ours, 'edit_file', { path: join(root, 'crlf.txt'), edits: [{ oldText: 'b', newText: 'B' }] });
    expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('a\r\nB\r\nc\r\n');
  });
});
