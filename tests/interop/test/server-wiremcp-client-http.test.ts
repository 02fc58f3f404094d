/**
 * The filesystem server and the resources demo as remote servers: each built bin spawned with `--http 127.0.0.1:0`,
 * driven by the wiremcp client over Streamable HTTP in both eras (a 2025-11-25 session, and 2026-07-28 stateless
 * requests with a listen stream), the same calls as over stdio: tools, resources, completion, subscriptions that
 * deliver updates, confinement errors that name no host path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient, type ClientOptions } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';

const bin = (server: string, name: string) => ({
  script: fileURLToPath(new URL(`../../../servers/${server}/bin/${name}.js`, import.meta.url)),
  dist: fileURLToPath(new URL(`../../../servers/${server}/dist/bin.js`, import.meta.url)),
});
const FILESYSTEM = bin('filesystem', 'wiremcp-filesystem');
const RESOURCES_DEMO = bin('resources-demo', 'wiremcp-resources-demo');

beforeAll(() => {
  for (const { dist } of [FILESYSTEM, RESOURCES_DEMO]) {
    if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`turbo run build\` first`);
  }
});

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Starts a bin over HTTP on a free loopback port; resolves with its endpoint. Stopped (SIGTERM, exit 0) after the test. */
async function serve(script: string, args: readonly string[]): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [script, '--http', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
  return new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`${script} exited with ${code} before serving:\n${stderr}`)));
  });
}

async function connect(url: string, options: ClientOptions): Promise<McpClient> {
  const client = new McpClient({ name: 'interop-http', version: '1.0.0' }, options);
  cleanup.push(() => client.close());
  await client.connect(httpTransportFactory(url, { legacySse: false }));
  return client;
}

/** Resolves with the first `notifications/resources/updated` for `uri`. */
function nextUpdate(client: McpClient, uri: string): Promise<string> {
  return new Promise((resolve) => {
    const handle = client.onResourceUpdated((params) => {
      if (params.uri !== uri) return;
      handle();
      resolve(params.uri);
    });
  });
}

const text = (result: { content?: unknown }): string =>
  ((result.content as Array<{ type: string; text?: string }> | undefined) ?? []).map((block) => block.text ?? '').join('\n');

const ERAS = [
  { era: 'legacy', protocolVersion: '2025-11-25' },
  { era: 'modern', protocolVersion: '2026-07-28' },
] as const;

describe.each(ERAS)('resources demo over Streamable HTTP ($protocolVersion)', ({ era, protocolVersion }) => {
  test('pages, a blob, dependent completion, not-found per era, a note added, subscribed to and edited', async () => {
    const client = await connect(await serve(RESOURCES_DEMO.script, []), { era, protocolVersion });
    expect([client.era, client.protocolVersion]).toEqual([era, protocolVersion]);
    expect(await client.listAllResources()).toHaveLength(133); // with the SKILL.md of its browse-catalogue skill
    expect((await client.readResource('test://static-binary')).contents[0]).toMatchObject({
      mimeType: 'image/png',
      blob: expect.any(String),
    });
    const names = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://files/{folder}/{+name}' },
      argument: { name: 'name', value: 'p' },
      context: { arguments: { folder: 'images' } },
    });
    expect(names.completion.values).toEqual(['pixel-art/heart.png', 'pixel-art/star.png']);
    await expect(client.readResource('demo://elements/Xx')).rejects.toMatchObject({ code: era === 'legacy' ? -32002 : -32602 });

    const added = await client.callTool('add_note', { title: 'Remote', text: 'first' });
    expect(added.content[1]).toMatchObject({ type: 'resource_link', uri: 'demo://notes/1' });
    await client.subscribeResource('demo://notes/1');
    const updated = nextUpdate(client, 'demo://notes/1');
    await client.callTool('edit_note', { uri: 'demo://notes/1', text: 'second' });
    expect(await updated).toBe('demo://notes/1');
    expect((await client.readResource('demo://notes/1', { fresh: true })).contents[0]).toMatchObject({
      text: expect.stringContaining('second'),
    });
  });
});

describe.each(ERAS)('filesystem server over Streamable HTTP ($protocolVersion)', ({ era, protocolVersion }) => {
  test('write, read, edit, list, search, a file resource with updates, and an escape refused without naming the root', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-http-')));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'readme.md'), '# Remote\nserved over HTTP\n');
    const client = await connect(await serve(FILESYSTEM.script, [root]), { era, protocolVersion });

    const file = join(root, 'notes.txt');
    expect((await client.callTool('write_file', { path: file, content: 'alpha\nbeta\n' })).isError).not.toBe(true);
    expect(text(await client.callTool('read_text_file', { path: file }))).toBe('alpha\nbeta\n');
    const edited = await client.callTool('edit_file', { path: file, edits: [{ oldText: 'beta', newText: 'gamma' }] });
    expect(edited.isError).not.toBe(true);
    expect(text(await client.callTool('read_text_file', { path: file, tail: 1 }))).toContain('gamma');
    expect(text(await client.callTool('list_directory', { path: root }))).toMatch(/\[FILE\] notes\.txt/);
    expect(text(await client.callTool('search_file_contents', { path: root, pattern: 'served' }))).toContain('readme.md');

    const uri = `file://${join(root, 'readme.md')}`;
    expect((await client.readResource(uri)).contents[0]).toMatchObject({ uri, text: '# Remote\nserved over HTTP\n' });
    await client.subscribeResource(uri);
    const updated = nextUpdate(client, uri);
    await client.callTool('write_file', { path: join(root, 'readme.md'), content: '# Remote\nchanged\n' });
    expect(await updated).toBe(uri);

    const escape = await client.callTool('read_text_file', { path: join(root, '..', 'etc', 'passwd') });
    expect(escape.isError).toBe(true);
    expect(text(escape)).not.toContain(root);
  });
});
