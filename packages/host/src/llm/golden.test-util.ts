/**
 * The tools and outcomes the golden tests of the LLM converters run on: the schema shapes that trip APIs up ($ref,
 * root oneOf, nullable unions, constants, non-string enums, open maps, formats), names with dots and over-long names,
 * and results of every kind (text, image, structured, isError, JSON-RPC error, local error, refused consent).
 */
import type { Tool } from '@wiremcp/client';
import { LocalError, RpcError } from '@wiremcp/protocol';
import { HostError } from '../host/host-error.js';
import type { DeclarableTool } from './declarations.js';
import type { ToolOutcome } from './tool-outcome.js';

const tool = (name: string, inputSchema: Record<string, unknown>, extra: Partial<Tool> = {}): Tool =>
  ({ name, inputSchema: inputSchema as Tool['inputSchema'], ...extra }) as Tool;

/** Catalogue entries (host name + the server's tool). */
export const GOLDEN_TOOLS: DeclarableTool[] = [
  {
    name: 'grammar.conjugate',
    tool: tool(
      'conjugate',
      {
        type: 'object',
        properties: {
          verb: { type: 'string', description: 'An English verb' },
          tense: { type: 'string', enum: ['present simple', 'past simple'] },
          person: { type: 'string', enum: ['1st singular', '3rd singular'], default: '1st singular' },
        },
        required: ['verb', 'tense'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
      { description: 'Conjugates a verb.', annotations: { readOnlyHint: true } },
    ),
  },
  {
    name: 'fs.write_file',
    tool: tool(
      'write_file',
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { encoding: { type: 'string', enum: ['utf8', 'base64'] } },
        properties: {
          path: { type: 'string', format: 'uri-reference' },
          content: { type: 'string' },
          encoding: { $ref: '#/$defs/encoding' },
          mode: { type: ['integer', 'null'], minimum: 0, exclusiveMaximum: 4096 },
          tags: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['path', 'content'],
      },
      { title: 'Write a file', annotations: { destructiveHint: true } },
    ),
  },
  {
    name: 'search.find',
    tool: tool('find', {
      oneOf: [
        { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      ],
      properties: { limit: { type: 'integer', enum: [10, 50, 100] } },
    }),
  },
  {
    name: 'everything.test_simple_text',
    tool: tool('test_simple_text', { type: 'object', properties: {} }, { description: 'Returns simple text content.' }),
  },
  {
    name: 'nested.tree',
    tool: tool('tree', {
      type: 'object',
      definitions: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
        },
      },
      properties: {
        root: { $ref: '#/definitions/node' },
        kind: { const: 'tree' },
        version: { const: 2 },
        when: { allOf: [{ type: 'string' }, { format: 'date-time' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        maybe: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
      },
      required: ['root', 'unknown'],
    }),
  },
  {
    name: 'a-server-with-a-rather-long-name.a_tool_whose_name_goes_on_and_on_and_on_past_the_limit',
    tool: tool('a_tool_whose_name_goes_on_and_on_and_on_past_the_limit', { type: 'object' }),
  },
  { name: 'dup.x_y', tool: tool('x_y', { type: 'object' }) },
  { name: 'dup_x.y', tool: tool('y', { type: 'object' }) },
  { name: '9lives.cat', tool: tool('cat', { type: 'object' }) },
];

/** Outcomes of calls, by label. */
export const GOLDEN_OUTCOMES: Record<string, ToolOutcome> = {
  text: { result: { content: [{ type: 'text', text: 'comió' }], isError: false } },
  structured: { result: { content: [], structuredContent: { english: 'ate', spanish: 'comió' } } },
  mixed: {
    result: {
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', uri: 'file:///tmp/chart.png', name: 'chart.png', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///tmp/notes.txt', mimeType: 'text/plain', text: 'a note' } },
        { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      ],
      structuredContent: { ok: true },
    },
  },
  toolError: { result: { content: [{ type: 'text', text: "verb 'run' is out of scope (§A13)" }], isError: true } },
  rpcError: { error: new RpcError(-32602, 'Unknown tool: nope') },
  localError: { error: new LocalError('REQUEST_TIMEOUT', 'Request timed out after 60000 ms') },
  consentDenied: {
    error: new HostError('CONSENT_DENIED', 'the call of fs.write_file was not allowed: read-only session', { server: 'fs' }),
  },
};

/** One model call per API, naming the first golden tool. */
export const GOLDEN_CALLS = {
  anthropic: { type: 'tool_use', id: 'toolu_01', name: 'grammar_conjugate', input: { verb: 'eat', tense: 'past simple' } },
  'openai-chat': {
    id: 'call_01',
    type: 'function',
    function: { name: 'grammar_conjugate', arguments: '{"verb":"eat","tense":"past simple"}' },
  },
  'openai-responses': {
    type: 'function_call',
    call_id: 'call_01',
    name: 'grammar_conjugate',
    arguments: '{"verb":"eat","tense":"past simple"}',
  },
  gemini: { functionCall: { id: 'fc_01', name: 'grammar_conjugate', args: { verb: 'eat', tense: 'past simple' } } },
} as const;
