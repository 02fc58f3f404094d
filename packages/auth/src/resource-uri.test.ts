import { describe, expect, test } from 'vitest';
import { authorizationServerMetadataUrls, canonicalResourceUri, protectedResourceMetadataUrls, resourceCovers } from './resource-uri.js';

describe('canonicalResourceUri', () => {
  test('lower-cases scheme and host, drops default port, fragment and a lone trailing slash', () => {
    expect(canonicalResourceUri('HTTPS://MCP.Example.COM:443/')).toBe('https://mcp.example.com');
    expect(canonicalResourceUri('https://mcp.example.com/mcp#frag')).toBe('https://mcp.example.com/mcp');
    expect(canonicalResourceUri('https://mcp.example.com:8443')).toBe('https://mcp.example.com:8443');
    expect(canonicalResourceUri(new URL('http://127.0.0.1:3000/server/mcp'))).toBe('http://127.0.0.1:3000/server/mcp');
  });

  test('refuses what is not an http(s) URL', () => {
    expect(() => canonicalResourceUri('mcp.example.com')).toThrow(expect.objectContaining({ code: 'config_invalid' }));
    expect(() => canonicalResourceUri('file:///etc/passwd')).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});

describe('resourceCovers', () => {
  test('accepts the same resource and parents on a segment boundary', () => {
    expect(resourceCovers('https://h/mcp', 'https://h/mcp')).toBe(true);
    expect(resourceCovers('https://h', 'https://h/mcp')).toBe(true);
    expect(resourceCovers('https://h/', 'https://h/mcp')).toBe(true);
    expect(resourceCovers('https://h/api', 'https://h/api/mcp')).toBe(true);
  });

  test('refuses other origins, sibling paths and fragments', () => {
    expect(resourceCovers('https://evil.example.com/mcp', 'http://localhost:3000/mcp')).toBe(false);
    expect(resourceCovers('https://h/mc', 'https://h/mcp')).toBe(false);
    expect(resourceCovers('https://h/mcp/deeper', 'https://h/mcp')).toBe(false);
    expect(resourceCovers('http://h/mcp', 'https://h/mcp')).toBe(false);
    expect(resourceCovers('https://h/mcp#x', 'https://h/mcp')).toBe(false);
    expect(resourceCovers('not a url', 'https://h/mcp')).toBe(false);
  });
});

describe('well-known URLs', () => {
  test('protected resource metadata: path-based first, then root', () => {
    expect(protectedResourceMetadataUrls('https://h/public/mcp').map(String)).toEqual([
      'https://h/.well-known/oauth-protected-resource/public/mcp',
      'https://h/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls('https://h').map(String)).toEqual(['https://h/.well-known/oauth-protected-resource']);
  });

  test('authorization server metadata in the 2025-11-25 order', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1').map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com').map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});
