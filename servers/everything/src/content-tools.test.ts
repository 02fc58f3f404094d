import type { EmbeddedResource, ResourceLink } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { ERROR_HANDLING_TEXT, weatherOf } from './content-tools.js';
import { connectEverything, ERAS, text } from './everything.test-util.js';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64, TONE_WAV_BASE64, WAV_MIME_TYPE } from './media.js';

describe.each(ERAS)('content tools (%s)', (era) => {
  test('test_simple_text returns the conformance text', async () => {
    const client = await connectEverything(era);
    const result = await client.tool('test_simple_text');
    expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect(result.isError).toBeUndefined();
  });

  test('test_image_content returns a PNG image block', async () => {
    const client = await connectEverything(era);
    expect((await client.tool('test_image_content')).content).toEqual([
      { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE },
    ]);
  });

  test('test_audio_content returns an audio/wav block', async () => {
    const client = await connectEverything(era);
    expect((await client.tool('test_audio_content')).content).toEqual([{ type: 'audio', data: TONE_WAV_BASE64, mimeType: WAV_MIME_TYPE }]);
  });

  test('test_embedded_resource returns an embedded text resource', async () => {
    const client = await connectEverything(era);
    expect((await client.tool('test_embedded_resource')).content).toEqual([
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ]);
  });

  test('test_multiple_content_types returns text, image and an embedded JSON resource', async () => {
    const client = await connectEverything(era);
    const result = await client.tool('test_multiple_content_types');
    expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'resource']);
    expect(text(result)).toBe('Multiple content types test:');
    expect(result.content[2]).toMatchObject({ type: 'resource' });
    expect((result.content[2] as EmbeddedResource).resource).toEqual({
      uri: 'test://mixed-content-resource',
      mimeType: 'application/json',
      text: '{"test":"data","value":123}',
    });
  });

  test('test_error_handling answers isError with the conformance text', async () => {
    const client = await connectEverything(era);
    const result = await client.tool('test_error_handling');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: ERROR_HANDLING_TEXT }]);
  });

  test('json_schema_2020_12_tool keeps its 2020-12 schema in tools/list and validates against it', async () => {
    const client = await connectEverything(era);
    const { tools } = await client.call('tools/list');
    const tool = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(tool?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      properties: { address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    });
    const ok = await client.tool('json_schema_2020_12_tool', { name: 'Ada', address: { street: '1 Main St', city: 'Paris' } });
    expect(text(ok)).toBe('Received: {"name":"Ada","address":{"street":"1 Main St","city":"Paris"}}');
    const bad = await client.tool('json_schema_2020_12_tool', { name: 'Ada', address: { city: 5 }, extra: true });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for tool 'json_schema_2020_12_tool'/);
    expect(tool?.inputSchema).toMatchObject({
      $defs: { address: { $anchor: 'postalAddress' } },
      allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
      if: { required: ['contact'] },
      then: { required: ['phone'] },
      else: { not: { required: ['phone'] } },
    });
    const phone = await client.tool('json_schema_2020_12_tool', { name: 'Ada', contact: 'phone', phone: '555-0100' });
    expect(phone.isError).toBeFalsy();
    const noPhone = await client.tool('json_schema_2020_12_tool', { name: 'Ada', contact: 'phone' });
    expect(noPhone.isError).toBe(true);
    const strayPhone = await client.tool('json_schema_2020_12_tool', { name: 'Ada', contact: 'email', phone: '555-0100' });
    expect(strayPhone.isError).toBe(true);
    const nobody = await client.tool('json_schema_2020_12_tool', { contact: 'email' });
    expect(nobody.isError).toBe(true);
  });

  test('test_structured_output returns structuredContent and the same JSON as text', async () => {
    const client = await connectEverything(era);
    const result = await client.tool('test_structured_output', { city: 'Paris' });
    expect(result.structuredContent).toEqual(weatherOf('Paris'));
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    const invalid = await client.tool('test_structured_output', {});
    expect(invalid.isError).toBe(true);
  });

  test('test_resource_links links readable resources', async () => {
    const client = await connectEverything(era);
    const { content } = await client.tool('test_resource_links');
    const links = content.filter((block): block is ResourceLink => block.type === 'resource_link');
    expect(links.map((link) => link.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://template/123/data']);
    for (const link of links) {
      const read = await client.call('resources/read', { uri: link.uri });
      expect(read.contents[0]).toMatchObject({ uri: link.uri, mimeType: link.mimeType });
    }
  });

  test('test_annotated_content carries annotations', async () => {
    const client = await connectEverything(era);
    const { content } = await client.tool('test_annotated_content');
    expect(content.map((block) => ('annotations' in block ? block.annotations : undefined))).toEqual([
      { audience: ['user'], priority: 1 },
      { audience: ['assistant'], priority: 0.1 },
      { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' },
    ]);
  });

  test('an unknown tool is a -32602 protocol error', async () => {
    const client = await connectEverything(era);
    await expect(client.tool('no_such_tool')).rejects.toMatchObject({ code: -32602 });
  });
});

test('the WAV fixture is a well-formed RIFF/WAVE file', () => {
  const bytes = Uint8Array.from(atob(TONE_WAV_BASE64), (c) => c.charCodeAt(0));
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  const view = new DataView(bytes.buffer);
  expect([ascii(0, 4), ascii(8, 12), ascii(12, 16), ascii(36, 40)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
  expect(view.getUint32(4, true)).toBe(bytes.length - 8);
  expect(view.getUint32(40, true)).toBe(bytes.length - 44);
});

test('the PNG fixture has the PNG signature and a 1x1 IHDR', () => {
  const bytes = Uint8Array.from(atob(RED_PIXEL_PNG_BASE64), (c) => c.charCodeAt(0));
  expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer);
  expect([view.getUint32(16), view.getUint32(20)]).toEqual([1, 1]);
});
