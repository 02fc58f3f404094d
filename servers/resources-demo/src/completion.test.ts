import { describe, expect, test } from 'vitest';
import { connectDemo, ERAS } from './resources-demo.test-util.js';

describe.each(ERAS)('completion (%s)', (era) => {
  const complete = async (uri: string, name: string, value: string, context?: Record<string, string>) => {
    const { client } = await connectDemo(era);
    const result = await client.complete({
      ref: { type: 'ref/resource', uri },
      argument: { name, value },
      ...(context ? { context: { arguments: context } } : {}),
    });
    return result.completion;
  };

  test('per variable: folder, element symbol (from a symbol or a name), search words and limits, folder segments', async () => {
    expect((await complete('demo://files/{folder}/{+name}', 'folder', 'i')).values).toEqual(['images']);
    expect((await complete('demo://elements/{symbol}', 'symbol', 'F')).values).toEqual(['F', 'Fe', 'Fr', 'Fm', 'Fl']);
    expect((await complete('demo://elements/{symbol}', 'symbol', 'iro')).values).toEqual(['Fe']);
    expect((await complete('demo://search{?q,limit}', 'q', 'pix')).values).toEqual(['pixel']);
    expect((await complete('demo://search{?q,limit}', 'limit', '')).values).toEqual(['5', '10', '20', '50']);
    expect((await complete('demo://folders{/segments*}', 'segments', 'images')).values).toEqual(['images', 'images/pixel-art']);
    expect((await complete('demo://live/log{?lines}', 'lines', '1')).values).toEqual(['10', '100']);
    expect((await complete('test://template/{id}/data', 'id', '12')).values).toEqual(['123', '124', '125']);
  });

  test('dependent: the file name completes within the folder given in context.arguments', async () => {
    expect((await complete('demo://files/{folder}/{+name}', 'name', '', { folder: 'images' })).values).toEqual([
      'logo.svg',
      'pixel-art/heart.png',
      'pixel-art/star.png',
    ]);
    expect((await complete('demo://files/{folder}/{+name}', 'name', 'g', { folder: 'docs' })).values).toEqual(['glossary.txt']);
    // Without the folder, every name of every folder is a candidate.
    expect((await complete('demo://files/{folder}/{+name}', 'name', '')).values).toHaveLength(8);
  });

  test('more than 100 candidates: 100 values, the total and hasMore', async () => {
    const completion = await complete('demo://elements/{symbol}', 'symbol', '');
    expect(completion).toEqual({ values: expect.any(Array), total: 118, hasMore: true });
    expect(completion.values).toHaveLength(100);
  });

  test('prompt arguments complete; an unknown template or prompt is -32602', async () => {
    const { client } = await connectDemo(era);
    const uri = await client.complete({
      ref: { type: 'ref/prompt', name: 'discuss_resource' },
      argument: { name: 'uri', value: 'demo://files/images/' },
    });
    expect(uri.completion.values).toEqual([
      'demo://files/images/logo.svg',
      'demo://files/images/pixel-art/heart.png',
      'demo://files/images/pixel-art/star.png',
    ]);
    const folder = await client.complete({ ref: { type: 'ref/prompt', name: 'tour' }, argument: { name: 'folder', value: 't' } });
    expect(folder.completion.values).toEqual(['tables']);
    await expect(
      client.complete({ ref: { type: 'ref/resource', uri: 'demo://nope/{x}' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
