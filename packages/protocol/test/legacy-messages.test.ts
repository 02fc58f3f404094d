// Older revisions: every JSON-RPC message documented in the spec pages of 2024-11-05 … 2025-11-25 (extracted
// verbatim into test/fixtures/legacy/<revision>.json) against that revision's validators, and the differences
// between revisions that the schemas actually encode.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatValidationIssues, loadValidators } from '../src/validators/index.js';
import * as v2024 from '../src/validators/2024-11-05.js';
import * as v2025a from '../src/validators/2025-03-26.js';
import * as v2025b from '../src/validators/2025-06-18.js';
import * as v2025c from '../src/validators/2025-11-25.js';
import * as v2026 from '../src/validators/2026-07-28.js';
import { LEGACY_PROTOCOL_VERSIONS, type LegacyProtocolVersion } from '../src/versions.js';
import { PACKAGE_ROOT } from './support/spec-files.js';

interface DocumentedMessage {
  source: string;
  inReplyTo?: string;
  message: unknown;
}

function corpus(revision: LegacyProtocolVersion): DocumentedMessage[] {
  const file = JSON.parse(readFileSync(`${PACKAGE_ROOT}test/fixtures/legacy/${revision}.json`, 'utf8')) as {
    revision: string;
    messages: DocumentedMessage[];
  };
  expect(file.revision).toBe(revision);
  return file.messages;
}

// Documented messages that are not valid in their own revision, with the reason.
const KNOWN_INVALID: Record<string, string[]> = {
  // The pagination page shows a `resources/list` request without `id`: a notification by JSON-RPC rules.
  '2024-11-05': ['server/utilities/pagination.mdx#2'],
  '2025-03-26': ['server/utilities/pagination.mdx#2'],
  '2025-06-18': [],
  '2025-11-25': [],
};

describe.each(LEGACY_PROTOCOL_VERSIONS)('messages documented for %s', (revision) => {
  const messages = corpus(revision);

  it('are many, and include the initialize exchange', () => {
    expect(messages.length).toBeGreaterThan(40);
    const methods = messages.map((entry) => (entry.message as { method?: string }).method);
    expect(methods).toContain('initialize');
    expect(methods).toContain('notifications/initialized');
    expect(messages.some((entry) => entry.inReplyTo === 'initialize')).toBe(true);
  });

  it('are valid in their revision (result definitions checked by the method they answer)', async () => {
    const validators = await loadValidators(revision);
    const invalid: string[] = [];
    for (const entry of messages) {
      const result = validators.validateMessage(entry.message, entry.inReplyTo === undefined ? {} : { method: entry.inReplyTo });
      if (!result.valid) invalid.push(entry.source);
      else if (entry.inReplyTo !== undefined) expect(result.definitions.length, entry.source).toBe(2);
    }
    expect(invalid).toEqual(KNOWN_INVALID[revision]);
  });

  it('are mostly invalid in 2026-07-28 (no initialize, resultType and _meta required)', () => {
    const invalid = messages.filter((entry) => !v2026.validateMessage(entry.message).valid);
    expect(invalid.length).toBeGreaterThan(messages.length / 3);
  });
});

describe('revision differences the schemas encode', () => {
  const initialize = corpus('2025-11-25').find((entry) => entry.source === 'basic/lifecycle.mdx#1')!.message;

  it('initialize is a known method in every legacy revision and unknown in 2026-07-28', () => {
    for (const validators of [v2024, v2025a, v2025b, v2025c]) {
      const result = validators.validateMessage(initialize);
      expect(result).toMatchObject({ valid: true, kind: 'request', method: 'initialize', knownMethod: true });
      expect(result.definitions).toEqual(['JSONRPCRequest', 'InitializeRequest']);
    }
    expect(v2026.validateMessage(initialize)).toMatchObject({ kind: 'request', knownMethod: false });
  });

  it('initialize requires protocolVersion, capabilities and clientInfo', () => {
    const message = structuredClone(initialize) as { params: Record<string, unknown> };
    delete message.params['clientInfo'];
    const result = v2024.validateMessage(message);
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual({ path: '/params', message: "must have required property 'clientInfo'", keyword: 'required' });
  });

  const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
  const resourceLink = { type: 'resource_link', uri: 'file:///project/README.md', name: 'README.md' };
  const toolResult = (content: unknown[], extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 2,
    result: { content, isError: false, ...extra },
  });

  it('audio content in a tool result appears in 2025-03-26', () => {
    expect(v2024.validateMessage(toolResult([audio]), { method: 'tools/call' }).valid).toBe(false);
    expect(v2025a.validateMessage(toolResult([audio]), { method: 'tools/call' }).valid).toBe(true);
  });

  it('resource_link content appears in 2025-06-18', () => {
    expect(v2025a.validateMessage(toolResult([resourceLink]), { method: 'tools/call' }).valid).toBe(false);
    expect(v2025b.validateMessage(toolResult([resourceLink]), { method: 'tools/call' }).valid).toBe(true);
    expect(v2025c.validateMessage(toolResult([resourceLink]), { method: 'tools/call' }).valid).toBe(true);
  });

  it('structuredContent is an object up to 2025-11-25 and any JSON value in 2026-07-28', () => {
    const text = [{ type: 'text', text: '[1,2]' }];
    expect(v2025b.validate('CallToolResult', { content: text, structuredContent: { values: [1, 2] } }).valid).toBe(true);
    const array = v2025c.validate('CallToolResult', { content: text, structuredContent: [1, 2] });
    expect(array.errors).toContainEqual({ path: '/structuredContent', message: 'must be object', keyword: 'type' });
    expect(v2026.validate('CallToolResult', { content: text, structuredContent: [1, 2], resultType: 'complete' }).valid).toBe(true);
  });

  it('a 2024-11-05 tools/call result without resultType is valid up to 2025-11-25, not in 2026-07-28', () => {
    const message = corpus('2024-11-05').find((entry) => entry.inReplyTo === 'tools/call')!.message;
    for (const validators of [v2024, v2025a, v2025b, v2025c]) {
      expect(validators.validateMessage(message, { method: 'tools/call' }).valid).toBe(true);
    }
    const modern = v2026.validateMessage(message, { method: 'tools/call' });
    expect(modern.errors).toContainEqual({ path: '/result', message: "must have required property 'resultType'", keyword: 'required' });
  });

  it('Tool.title is accepted by every validator (schemas allow extra keys) but typed only from 2025-06-18', () => {
    const tool = { name: 'get_weather', title: 'Weather', inputSchema: { type: 'object' } };
    for (const validators of [v2024, v2025a, v2025b, v2025c]) expect(validators.validate('Tool', tool).valid).toBe(true);
    // The type-level half of this difference is asserted in types.test.ts.
  });

  it('an error response without id is invalid up to 2025-06-18 and valid from 2025-11-25', () => {
    const message = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    for (const validators of [v2024, v2025a, v2025b]) {
      const result = validators.validateMessage(message);
      expect(result.definitions).toEqual(['JSONRPCError']);
      expect(result.errors).toContainEqual({ path: '', message: "must have required property 'id'", keyword: 'required' });
    }
    expect(v2025c.validateMessage(message)).toMatchObject({ valid: true, definitions: ['JSONRPCErrorResponse'] });
    expect(v2026.validateMessage(message)).toMatchObject({ valid: true, definitions: ['JSONRPCErrorResponse', 'ParseError'] });
  });

  it('elicitation/create exists from 2025-06-18, and URL mode (with elicitationId) from 2025-11-25', () => {
    const form = corpus('2025-06-18').find((entry) => (entry.message as { method?: string }).method === 'elicitation/create')!.message;
    expect(v2025a.validateMessage(form)).toMatchObject({ valid: true, knownMethod: false });
    expect(v2025b.validateMessage(form, { from: 'server' })).toMatchObject({ valid: true, knownMethod: true });
    const url = {
      jsonrpc: '2.0',
      id: 3,
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' },
    };
    const missingId = v2025c.validateMessage(url);
    expect(missingId.valid).toBe(false);
    expect(missingId.errors.some((issue) => issue.message === "must have required property 'elicitationId'")).toBe(true);
    expect(v2025c.validateMessage({ ...url, params: { ...url.params, elicitationId: 'e-1' } }).valid).toBe(true);
  });

  it('a 2025-11-25 task-augmented tools/call is answered with a CreateTaskResult', () => {
    const answer = corpus('2025-11-25').find((entry) => entry.source === 'basic/utilities/tasks.mdx#4')!;
    const result = v2025c.validateMessage(answer.message, { method: 'tools/call' });
    expect(result).toMatchObject({ valid: true, definitions: ['JSONRPCResultResponse', 'CreateTaskResult'] });
    expect(v2025b.validateMessage(answer.message, { method: 'tools/call' }).valid).toBe(false);
  });
});

describe('2025-03-26 batches', () => {
  const requests = corpus('2025-03-26');
  const toolsList = requests.find((entry) => entry.source === 'server/tools.mdx#2')!.message;
  const resourcesList = requests.find((entry) => entry.source === 'server/resources.mdx#5')!.message;
  const initialize = requests.find((entry) => entry.source === 'basic/lifecycle.mdx#1')!.message;
  const batch = [toolsList, { ...(resourcesList as object), id: 2 }];

  it('is valid in 2025-03-26 and checks every element', () => {
    const result = v2025a.validateMessage(batch);
    expect(formatValidationIssues(result.errors)).toBe('');
    expect(result).toMatchObject({ valid: true, kind: 'batch', definitions: ['JSONRPCBatchRequest'] });
    expect(result.items?.map((item) => item.method)).toEqual(['tools/list', 'resources/list']);
    const broken = v2025a.validateMessage([toolsList, { jsonrpc: '2.0', id: 3 }]);
    expect(broken.errors[0]?.path.startsWith('/1')).toBe(true);
  });

  it('is rejected by every other revision', () => {
    for (const validators of [v2024, v2025b, v2025c, v2026]) {
      expect(validators.validateMessage(batch)).toMatchObject({ valid: false, kind: 'batch' });
      expect(validators.validateMessage(batch).errors[0]?.keyword).toBe('batch');
    }
  });

  it('must not be empty, nor mix requests with responses, nor contain initialize', () => {
    expect(v2025a.validateMessage([]).errors[0]?.message).toBe('a batch must contain at least one message');
    const mixed = v2025a.validateMessage([toolsList, { jsonrpc: '2.0', id: 9, result: {} }]);
    expect(mixed.errors.map((issue) => issue.message)).toEqual(['a batch holds either requests and notifications or responses, not both']);
    const withInitialize = v2025a.validateMessage([initialize, toolsList]);
    expect(withInitialize.valid).toBe(false);
    expect(withInitialize.errors).toContainEqual({
      path: '/0',
      message: 'initialize must not be part of a JSON-RPC batch',
      keyword: 'batch',
    });
  });
});
