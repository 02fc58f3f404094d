// The validators' API: definitions, errors, lazy loading, message classification and the format checks.
import { describe, expect, it } from 'vitest';
import { formats, isBase64, isUri, isUriTemplate } from '../src/validators/formats.js';
import { formatValidationIssues, loadValidators, validateMessage } from '../src/validators/index.js';
import * as v2024 from '../src/validators/2024-11-05.js';
import * as v2026 from '../src/validators/2026-07-28.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../src/versions.js';
import { SPECS } from './support/spec-files.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const callTool = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Oslo' }, _meta: meta } };

describe('per-revision validators', () => {
  it.each(SPECS)('$revision: one validator per definition, in schema order', async ({ revision, defs }) => {
    const validators = await loadValidators(revision);
    expect(validators.revision).toBe(revision);
    expect(validators.definitions).toEqual(Object.keys(defs));
    for (const name of validators.definitions) {
      expect(typeof validators.validate(name, {}).valid, name).toBe('boolean');
    }
  });

  it('validate throws a TypeError for a name the revision does not define', () => {
    expect(() => v2026.validate('InitializeRequest' as never, {})).toThrow(TypeError);
    expect(() => v2026.validate('InitializeRequest' as never, {})).toThrow('MCP 2026-07-28 has no definition named "InitializeRequest"');
    expect(v2024.isDefinitionName('InitializeRequest')).toBe(true);
    expect(v2026.isDefinitionName('InitializeRequest')).toBe(false);
    expect(v2026.isDefinitionName('constructor')).toBe(false);
  });

  it('reports readable issues: JSON Pointer path, message with the expected values, keyword', () => {
    const result = v2026.validate('CallToolRequest', { ...callTool, jsonrpc: '1.0' });
    expect(result).toEqual({ valid: false, errors: [{ path: '/jsonrpc', message: 'must be equal to constant "2.0"', keyword: 'const' }] });
    const level = v2026.validate('LoggingLevel', 'verbose');
    expect(level.errors[0]?.message).toBe(
      'must be equal to one of the allowed values: "alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"',
    );
    const nested = v2026.validate('CallToolRequest', {
      ...callTool,
      params: { ...callTool.params, _meta: { 'io.modelcontextprotocol/protocolVersion': 1 } },
    });
    expect(formatValidationIssues(nested.errors)).toBe(
      "/params/_meta: must have required property 'io.modelcontextprotocol/clientCapabilities'",
    );
    expect(formatValidationIssues(v2026.validate('Tool', 'x').errors)).toBe('(root): must be object');
  });

  it('valid values give no errors, and results do not share state between calls', () => {
    const ok = v2026.validate('CallToolRequest', callTool);
    expect(ok).toEqual({ valid: true, errors: [] });
    const bad = v2026.validate('CallToolRequest', {});
    expect(bad.valid).toBe(false);
    expect(v2026.validate('CallToolRequest', callTool).errors).toEqual([]);
    expect(bad.errors.length).toBeGreaterThan(0);
  });

  it('checks the uri and byte formats', () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    expect(v2026.validate('ImageContent', image).valid).toBe(true);
    expect(v2026.validate('ImageContent', { ...image, data: 'base64-encoded-data' }).errors[0]).toEqual({
      path: '/data',
      message: 'must match format "byte"',
      keyword: 'format',
    });
    expect(v2026.validate('Root', { uri: 'file:///home/user' }).valid).toBe(true);
    expect(v2026.validate('Root', { uri: '/home/user' }).errors[0]?.message).toBe('must match format "uri"');
    expect(v2026.validate('ResourceTemplate', { name: 't', uriTemplate: 'file:///{path}' }).valid).toBe(true);
    expect(v2026.validate('ResourceTemplate', { name: 't', uriTemplate: 'file:///{path' }).valid).toBe(false);
  });
});

describe('loadValidators', () => {
  it('caches one module per revision', async () => {
    const first = await loadValidators('2025-06-18');
    expect(await loadValidators('2025-06-18')).toBe(first);
    expect(await loadValidators('2026-07-28')).toBe(v2026.validators);
  });

  it('rejects a revision wiremcp does not implement', async () => {
    await expect(loadValidators('2099-01-01' as ProtocolVersion)).rejects.toThrow(TypeError);
  });

  it('validateMessage(revision, message) loads and validates', async () => {
    await expect(validateMessage('2026-07-28', callTool)).resolves.toMatchObject({ valid: true, kind: 'request', method: 'tools/call' });
    for (const revision of PROTOCOL_VERSIONS) {
      const result = await validateMessage(revision, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(result, revision).toMatchObject({ kind: 'notification', knownMethod: true });
    }
  });
});

describe('validateMessage', () => {
  it('classifies messages and checks the envelope then the method definition', () => {
    expect(v2026.validateMessage(callTool)).toEqual({
      valid: true,
      errors: [],
      kind: 'request',
      definitions: ['JSONRPCRequest', 'CallToolRequest'],
      method: 'tools/call',
      knownMethod: true,
    });
    const missingMeta = v2026.validateMessage({ ...callTool, params: { name: 'get_weather' } });
    expect(missingMeta.errors).toEqual([{ path: '/params', message: "must have required property '_meta'", keyword: 'required' }]);
    expect(v2026.validateMessage({ jsonrpc: '2.0', id: 1, method: 'vendor/custom' })).toMatchObject({ valid: true, knownMethod: false });
  });

  it('reports non-messages', () => {
    expect(v2026.validateMessage('hello')).toMatchObject({ valid: false, kind: 'invalid', definitions: ['JSONRPCMessage'] });
    expect(v2026.validateMessage({ jsonrpc: '2.0' })).toMatchObject({ valid: false, kind: 'invalid' });
    expect(v2026.validateMessage({ jsonrpc: '2.0', id: 1, method: 7 })).toMatchObject({ valid: false, kind: 'request' });
  });

  it('reports a request sent as a notification and vice versa', () => {
    const { id: _id, ...withoutId } = callTool;
    expect(v2026.validateMessage(withoutId).errors).toEqual([
      { path: '', message: '"tools/call" is a request in 2026-07-28: it must carry an id', keyword: 'kind' },
    ]);
    expect(
      v2026.validateMessage({ jsonrpc: '2.0', id: 4, method: 'notifications/cancelled', params: { requestId: 1 } }).errors[0]?.keyword,
    ).toBe('kind');
  });

  it('with `from`, reports a method the sender may not send', () => {
    expect(v2026.validateMessage(callTool, { from: 'client' }).valid).toBe(true);
    expect(v2026.validateMessage(callTool, { from: 'server' }).errors).toEqual([
      { path: '/method', message: '"tools/call" is not sent by the server in 2026-07-28', keyword: 'direction' },
    ]);
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 5 } };
    expect(v2024.validateMessage(progress, { from: 'client' }).valid).toBe(true);
    expect(v2026.validateMessage(progress, { from: 'client' }).errors[0]?.keyword).toBe('direction');
  });

  it('with `method`, checks a result against the method result, choosing InputRequiredResult by resultType', () => {
    const complete = { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: '72°F' }] } };
    expect(v2026.validateMessage(complete, { method: 'tools/call' }).definitions).toEqual(['JSONRPCResultResponse', 'CallToolResult']);
    const input = { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', requestState: 'abc' } };
    expect(v2026.validateMessage(input, { method: 'tools/call' })).toMatchObject({
      valid: true,
      definitions: ['JSONRPCResultResponse', 'InputRequiredResult'],
    });
    // tools/list may not answer input_required: the result is checked as a ListToolsResult and fails.
    expect(v2026.validateMessage(input, { method: 'tools/list' }).valid).toBe(false);
    expect(v2026.validateMessage(input).definitions).toEqual(['JSONRPCResultResponse']);
  });

  it('checks error responses against the definition of their code', () => {
    const unsupported = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version' } };
    const result = v2026.validateMessage(unsupported);
    expect(result.definitions).toEqual(['JSONRPCErrorResponse', 'UnsupportedProtocolVersionError']);
    expect(result.errors).toEqual([{ path: '/error', message: "must have required property 'data'", keyword: 'required' }]);
    const withData = { ...unsupported, error: { ...unsupported.error, data: { supported: ['2026-07-28'], requested: '1900-01-01' } } };
    expect(v2026.validateMessage(withData).valid).toBe(true);
    expect(v2026.validateMessage({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })).toMatchObject({
      valid: true,
      definitions: ['JSONRPCErrorResponse', 'MethodNotFoundError'],
    });
    expect(v2024.validateMessage(unsupported).definitions).toEqual(['JSONRPCError']);
  });
});

describe('formats', () => {
  it('uri: a scheme, then no whitespace or control characters', () => {
    for (const ok of [
      'file:///home/user/a.txt',
      'https://example.com/x?y=1#z',
      'data:image/png;base64,AAAA',
      'test://static/1',
      'urn:isbn:0451450523',
      'file:///Users/José',
    ]) {
      expect(isUri(ok), ok).toBe(true);
    }
    for (const bad of ['', '/home/user', 'relative/path', '1abc:x', 'file:///a b', 'https://x\n', ':nothing']) {
      expect(isUri(bad), bad).toBe(false);
    }
  });

  it('uri-template: closed, non-empty, non-nested expressions', () => {
    for (const ok of ['file:///{path}', 'https://x/{+path}{?q,lang}', 'no-expressions', '']) expect(isUriTemplate(ok), ok).toBe(true);
    for (const bad of ['file:///{path', 'file:///}', '{}', '{a{b}}', 'a b', 'x\t{y}']) expect(isUriTemplate(bad), bad).toBe(false);
  });

  it('byte: padded standard base64, linear on large input', () => {
    for (const ok of ['', 'QQ==', 'QUI=', 'QUJD', 'iVBORw0KGgo=']) expect(isBase64(ok), ok).toBe(true);
    for (const bad of ['Q', 'QQ', 'QUJD\n', 'QU-D', 'QU_D', 'Q===', '=QUJ', 'base64-encoded-data']) expect(isBase64(bad), bad).toBe(false);
    const large = 'QUJD'.repeat(5_000_000);
    expect(isBase64(large)).toBe(true);
    expect(isBase64(`${large}!`)).toBe(false);
  });

  it('are the three formats the schemas use', () => {
    expect(Object.keys(formats).sort()).toEqual(['byte', 'uri', 'uri-template']);
    expect(formats['uri']?.validate('file:///x')).toBe(true);
  });
});
