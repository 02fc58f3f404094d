import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DATA_DIR } from './catalogue.js';
import { STATIC_TEXT } from './conformance-names.js';
import { connectDemo, ERAS } from './resources-demo.test-util.js';

const onDisk = (path: string) => readFileSync(new URL(path, DATA_DIR));
const MANIFEST = JSON.parse(onDisk('catalogue.json').toString('utf8')) as { files: Array<{ path: string }> };
/** Direct resources besides the catalogue: clock, log, request, static text, static binary, watched resource. */
const OTHER_DIRECT = 6;

describe.each(ERAS)('reading and listing (%s)', (era) => {
  test('resources/list comes in pages of five with opaque cursors; the pages hold every resource once', async () => {
    const { client, requests } = await connectDemo(era);
    const first = await client.listResources();
    expect(first.resources).toHaveLength(5);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = await client.listAllResources();
    // The catalogue, the other direct resources, the browse-catalogue skill's SKILL.md, the 118 elements.
    expect(all).toHaveLength(MANIFEST.files.length + OTHER_DIRECT + 1 + 118);
    expect(new Set(all.map((resource) => resource.uri)).size).toBe(all.length);
    expect(all.map((resource) => resource.uri).slice(0, 2)).toEqual(['demo://files/docs/welcome.md', 'demo://files/docs/uri-templates.md']);
    expect(all.at(-1)).toMatchObject({ uri: 'demo://elements/Og', title: 'Oganesson' });
    // One request per page. Legacy: the first page twice. 2026-07-28: the first page was still fresh in the
    // client's cache (resources/list says ttlMs 60000), so it was not asked for again.
    expect(requests('resources/list').length).toBe((era === 'legacy' ? 1 : 0) + Math.ceil(all.length / 5));
  });

  test('a cursor the server did not issue, or one of another list, is -32602', async () => {
    const { client } = await connectDemo(era);
    await expect(client.listResources({ cursor: 'page-2' })).rejects.toMatchObject({ code: -32602 });
    const templates = await client.listResourceTemplates();
    await expect(client.listResources({ cursor: templates.nextCursor! })).rejects.toMatchObject({ code: -32602 });
  });

  test('a catalogue file is listed with every field a resource has', async () => {
    const { client } = await connectDemo(era);
    const [welcome] = (await client.listResources()).resources;
    expect(welcome).toEqual({
      uri: 'demo://files/docs/welcome.md',
      name: 'docs/welcome.md',
      title: 'Welcome',
      description: 'What this server shows and where to start.',
      mimeType: 'text/markdown',
      size: onDisk('docs/welcome.md').length,
      annotations: { audience: ['user', 'assistant'], priority: 1, lastModified: '2026-11-20T09:00:00Z' },
      icons: [{ src: expect.stringMatching(/^data:image\/svg\+xml;base64,/), mimeType: 'image/svg+xml', sizes: ['any'] }],
    });
    const icon = Buffer.from(welcome!.icons![0]!.src.split(',')[1]!, 'base64').toString('utf8');
    expect(icon).toBe(onDisk('icons/document.svg').toString('utf8'));
  });

  test('text contents for text types, base64 blobs for binary ones', async () => {
    const { client } = await connectDemo(era);
    expect((await client.readResource('demo://files/docs/welcome.md')).contents).toEqual([
      { uri: 'demo://files/docs/welcome.md', mimeType: 'text/markdown', text: onDisk('docs/welcome.md').toString('utf8') },
    ]);
    expect((await client.readResource('demo://files/images/pixel-art/heart.png')).contents).toEqual([
      {
        uri: 'demo://files/images/pixel-art/heart.png',
        mimeType: 'image/png',
        blob: onDisk('images/pixel-art/heart.png').toString('base64'),
      },
    ]);
    // SVG is an image whose contents are text.
    expect((await client.readResource('demo://files/images/logo.svg')).contents[0]).toMatchObject({
      mimeType: 'image/svg+xml',
      text: /^<svg/,
    });
  });

  test('a folder is read as several contents: its index, then each file in it', async () => {
    const { client } = await connectDemo(era);
    const { contents } = await client.readResource('demo://folders/images/pixel-art');
    expect(contents.map((item) => [item.uri, item.mimeType])).toEqual([
      ['demo://folders/images/pixel-art', 'application/json'],
      ['demo://files/images/pixel-art/heart.png', 'image/png'],
      ['demo://files/images/pixel-art/star.png', 'image/png'],
    ]);
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual({
      folder: 'images/pixel-art',
      folders: [],
      files: ['demo://files/images/pixel-art/heart.png', 'demo://files/images/pixel-art/star.png'],
    });
    const root = JSON.parse(((await client.readResource('demo://folders')).contents[0] as { text: string }).text);
    expect(root).toEqual({ folder: '', folders: ['demo://folders/docs', 'demo://folders/images', 'demo://folders/tables'], files: [] });
    const images = await client.readResource('demo://folders/images');
    expect(images.contents.map((item) => item.uri)).toEqual(['demo://folders/images', 'demo://files/images/logo.svg']);
  });

  test('templates: seven, in two pages; {+name} keeps the slash and an encoded one names the same file', async () => {
    const { client } = await connectDemo(era);
    const first = await client.listResourceTemplates();
    expect(first.resourceTemplates).toHaveLength(5);
    const all = await client.listAllResourceTemplates();
    expect(all.map((template) => template.uriTemplate)).toEqual([
      'demo://files/{folder}/{+name}',
      'demo://folders{/segments*}',
      'skill://{+path}',
      'demo://search{?q,limit}',
      'demo://elements/{symbol}',
      'demo://live/log{?lines}',
      'test://template/{id}/data',
    ]);
    const encoded = await client.readResource('demo://files/images/pixel-art%2Fstar.png');
    expect(encoded.contents[0]).toMatchObject({
      uri: 'demo://files/images/pixel-art%2Fstar.png',
      blob: onDisk('images/pixel-art/star.png').toString('base64'),
    });
  });

  test('search: {?q,limit} as JSON results; a bad limit is -32602', async () => {
    const { client } = await connectDemo(era);
    const read = async (uri: string) => JSON.parse(((await client.readResource(uri)).contents[0] as { text: string }).text);
    const iron = await read('demo://search?q=iron&limit=5');
    expect(iron).toEqual({ q: 'iron', limit: 5, total: 1, results: [{ uri: 'demo://elements/Fe', name: 'Fe', title: 'Iron' }] });
    const png = await read('demo://search?q=png');
    expect(png.results.map((result: { uri: string }) => result.uri)).toEqual([
      'demo://files/images/pixel-art/heart.png',
      'demo://files/images/pixel-art/star.png',
    ]);
    const everything = await read('demo://search');
    expect(everything).toMatchObject({ q: '', limit: 10, total: MANIFEST.files.length + 118 });
    await expect(client.readResource('demo://search?q=iron&limit=0')).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource('demo://search?limit=51')).rejects.toMatchObject({ code: -32602 });
  });

  test('elements: JSON per element; the f-block has no group', async () => {
    const { client } = await connectDemo(era);
    const element = async (symbol: string) =>
      JSON.parse(((await client.readResource(`demo://elements/${symbol}`)).contents[0] as { text: string }).text);
    expect(await element('Fe')).toEqual({ number: 26, symbol: 'Fe', name: 'Iron', period: 4, group: 8 });
    expect(await element('La')).toEqual({ number: 57, symbol: 'La', name: 'Lanthanum', period: 6 });
    expect(await element('Lr')).toEqual({ number: 103, symbol: 'Lr', name: 'Lawrencium', period: 7, group: 3 });
  });

  test(`a missing resource is ${era === 'legacy' ? '-32002' : '-32602'} with data.uri, from a template or not`, async () => {
    const { client } = await connectDemo(era);
    const code = era === 'legacy' ? -32002 : -32602;
    for (const uri of [
      'demo://nothing/here',
      'demo://elements/Xx',
      'demo://files/docs/missing.md',
      'demo://folders/nope',
      'demo://notes/1',
    ]) {
      await expect(client.readResource(uri)).rejects.toMatchObject({ code, data: { uri } });
    }
  });

  test('the conformance suite finds its resources', async () => {
    const { client } = await connectDemo(era);
    expect((await client.readResource('test://static-text')).contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT },
    ]);
    expect((await client.readResource('test://static-binary')).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: onDisk('images/pixel-art/heart.png').toString('base64') },
    ]);
    const data = (await client.readResource('test://template/123/data')).contents[0] as { text: string; mimeType: string };
    expect(data.mimeType).toBe('application/json');
    expect(JSON.parse(data.text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    expect((await client.readResource('test://watched-resource')).contents[0]).toMatchObject({ text: 'Watched resource, version 1' });
  });

  test('demo://request describes the request that read it', async () => {
    const { client } = await connectDemo(era);
    const seen = JSON.parse(((await client.readResource('demo://request')).contents[0] as { text: string }).text);
    expect(seen).toMatchObject({
      era,
      protocolVersion: era === 'legacy' ? '2025-11-25' : '2026-07-28',
      clientInfo: { name: 'resources-demo-test', version: '1.0.0' },
      clientCapabilities: expect.any(Object),
    });
  });

  test('the activity log tail: ?lines chooses how many; a bad value is -32602', async () => {
    const { client } = await connectDemo(era);
    for (const title of ['one', 'two', 'three']) await client.callTool('add_note', { title, text: `# ${title}` });
    const lines = async (uri: string) => ((await client.readResource(uri)).contents[0] as { text: string }).text.split('\n');
    expect(await lines('demo://live/log')).toEqual([
      expect.stringMatching(/Z server started$/),
      expect.stringMatching(/Z added demo:\/\/notes\/1 "one"$/),
      expect.stringMatching(/Z added demo:\/\/notes\/2 "two"$/),
      expect.stringMatching(/Z added demo:\/\/notes\/3 "three"$/),
    ]);
    expect(await lines('demo://live/log?lines=2')).toEqual([expect.stringMatching(/"two"$/), expect.stringMatching(/"three"$/)]);
    await expect(client.readResource('demo://live/log?lines=abc')).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource('demo://live/log?lines=101')).rejects.toMatchObject({ code: -32602 });
  });
});
