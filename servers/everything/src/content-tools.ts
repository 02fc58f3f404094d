/**
 * Tools whose point is what they return: every content block type, tool errors, structured output, JSON
 * Schema 2020-12 input schemas, resource links and annotations. None of them talks back to the client, so they
 * behave the same in every era.
 */
import type { McpServer, ToolAnnotations } from '@wiremcp/server';
import { ICONS, PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64, TONE_WAV_BASE64, WAV_MIME_TYPE } from './media.js';
import { STATIC_BINARY_URI, STATIC_TEXT_URI, templateDataUri } from './resources.js';

/** Hints of a tool that only computes its answer. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Text of `test_error_handling`, as the conformance suite words it. */
export const ERROR_HANDLING_TEXT = 'This tool intentionally returns an error for testing';

/** The conditions `test_structured_output` reports (its `outputSchema` enumerates them). */
const CONDITIONS = ['sunny', 'cloudy', 'rainy', 'windy', 'snowy'] as const;

/**
 * The input of json_schema_2020_12_tool, typed as a plain object schema: the keywords the typed authoring helpers do
 * not model (`allOf`, `if`/`then`/`else`) must reach `tools/list` verbatim, and the handler takes the arguments as
 * they come.
 */
const JSON_SCHEMA_2020_12_INPUT: { readonly type: 'object'; readonly [keyword: string]: unknown } = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'postalAddress', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contact: { type: 'string', enum: ['email', 'phone'] },
    phone: { type: 'string' },
  },
  // Someone is named by a name, an address or both.
  allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
  // A phone number is required when the contact method is "phone", and refused otherwise.
  if: { properties: { contact: { const: 'phone' } }, required: ['contact'] },
  then: { required: ['phone'] },
  else: { not: { required: ['phone'] } },
  additionalProperties: false,
};

/** The made-up weather of `test_structured_output`: deterministic per city, so tests can predict it. */
export function weatherOf(city: string): { city: string; temperatureC: number; conditions: (typeof CONDITIONS)[number]; humidity: number } {
  let hash = 0;
  for (const char of city.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const conditions = CONDITIONS[hash % 5]!;
  return { city, temperatureC: (hash % 40) - 5, conditions, humidity: 20 + (hash % 71) };
}

/** Registers the content tools. */
export function registerContentTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'test_simple_text',
      title: 'Simple text',
      description: 'Returns one text block. Conformance: tools-call-simple-text.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
      icons: ICONS,
    },
    () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
  );

  server.registerTool(
    {
      name: 'test_image_content',
      title: 'Image content',
      description: 'Returns one image block: a 1x1 red PNG. Conformance: tools-call-image.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE }] }),
  );

  server.registerTool(
    {
      name: 'test_audio_content',
      title: 'Audio content',
      description: 'Returns one audio block: 50 ms of a 440 Hz tone as audio/wav. Conformance: tools-call-audio.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({ content: [{ type: 'audio', data: TONE_WAV_BASE64, mimeType: WAV_MIME_TYPE }] }),
  );

  server.registerTool(
    {
      name: 'test_embedded_resource',
      title: 'Embedded resource',
      description: 'Returns one embedded text resource (test://embedded-resource). Conformance: tools-call-embedded-resource.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
        },
      ],
    }),
  );

  server.registerTool(
    {
      name: 'test_multiple_content_types',
      title: 'Mixed content',
      description: 'Returns a text, an image and an embedded JSON resource in one result. Conformance: tools-call-mixed-content.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );

  server.registerTool(
    {
      name: 'test_error_handling',
      title: 'Tool error',
      description:
        'Always fails: answers isError: true with a readable text (a tool error, not a JSON-RPC error). Conformance: tools-call-error.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => {
      throw new Error(ERROR_HANDLING_TEXT);
    },
  );

  server.registerTool(
    {
      name: 'json_schema_2020_12_tool',
      title: 'JSON Schema 2020-12 input',
      description:
        'Takes a name and/or an address, and a phone number only when the contact method is "phone"; its inputSchema ' +
        'uses JSON Schema 2020-12 ($schema, $defs with $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties), ' +
        'which clients must preserve. Conformance: json-schema-2020-12 (SEP-1613, SEP-2106).',
      inputSchema: JSON_SCHEMA_2020_12_INPUT,
      annotations: READ_ONLY,
    },
    (args: Record<string, unknown>) => ({
      content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }],
    }),
  );

  server.registerTool(
    {
      name: 'test_structured_output',
      title: 'Structured output',
      description:
        'Returns the (made-up, deterministic) weather of a city as structuredContent matching its outputSchema, ' +
        'plus the same JSON as text for clients without structured output.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1, description: 'Any city name, e.g. "Paris".' } },
        required: ['city'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          temperatureC: { type: 'number' },
          conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rainy', 'windy', 'snowy'] },
          humidity: { type: 'number', minimum: 0, maximum: 100 },
        },
        required: ['city', 'temperatureC', 'conditions', 'humidity'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    (args: { city: string }) => {
      const weather = weatherOf(args.city);
      return { content: [{ type: 'text', text: JSON.stringify(weather) }], structuredContent: weather };
    },
  );

  server.registerTool(
    {
      name: 'test_resource_links',
      title: 'Resource links',
      description: 'Returns resource_link blocks pointing at readable resources of this server (text, binary, template).',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        { type: 'text', text: 'Three resources of this server:' },
        {
          type: 'resource_link',
          uri: STATIC_TEXT_URI,
          name: 'static-text',
          mimeType: 'text/plain',
          description: 'A static text resource.',
        },
        { type: 'resource_link', uri: STATIC_BINARY_URI, name: 'static-binary', mimeType: PNG_MIME_TYPE, description: 'A static PNG.' },
        {
          type: 'resource_link',
          uri: templateDataUri('123'),
          name: 'template-123',
          mimeType: 'application/json',
          description: 'Template data.',
        },
      ],
    }),
  );

  server.registerTool(
    {
      name: 'test_annotated_content',
      title: 'Annotated content',
      description: 'Returns content blocks carrying annotations (audience, priority, lastModified).',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        { type: 'text', text: 'For the user only, high priority.', annotations: { audience: ['user'], priority: 1 } },
        { type: 'text', text: 'For the model only, low priority.', annotations: { audience: ['assistant'], priority: 0.1 } },
        {
          type: 'image',
          data: RED_PIXEL_PNG_BASE64,
          mimeType: PNG_MIME_TYPE,
          annotations: { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' },
        },
      ],
    }),
  );
}
