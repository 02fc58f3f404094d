import { afterEach, describe, expect, test } from 'vitest';
import { json, serve, type Served } from '../test/helpers/serve.js';
import { discoverAuthorizationServer, validateAuthorizationServerMetadata } from './authorization-server-metadata.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('discoverAuthorizationServer', () => {
  test('tries the well-known URLs in order and returns the first document with the exact issuer', async () => {
    const seen: string[] = [];
    served = await serve((request) => {
      const path = new URL(request.url).pathname;
      seen.push(path);
      return path === '/tenant/.well-known/openid-configuration'
        ? json({ issuer: `${served!.url}/tenant`, token_endpoint: `${served!.url}/t` })
        : json({}, 404);
    });
    const metadata = await discoverAuthorizationServer(`${served.url}/tenant`);
    expect(metadata.token_endpoint).toBe(`${served.url}/t`);
    expect(seen).toEqual([
      '/.well-known/oauth-authorization-server/tenant',
      '/.well-known/openid-configuration/tenant',
      '/tenant/.well-known/openid-configuration',
    ]);
  });

  test('an issuer that differs even by a trailing slash is refused', async () => {
    served = await serve(() => json({ issuer: `${served!.url}/` }));
    await expect(discoverAuthorizationServer(served.url)).rejects.toMatchObject({ code: 'issuer_mismatch' });
  });

  test('non-JSON, wrongly typed fields, nothing found, not a URL', async () => {
    served = await serve((request) => {
      const path = new URL(request.url).pathname;
      if (path.startsWith('/.well-known/oauth-authorization-server/a')) return new Response('<html>', { status: 200 });
      if (path.startsWith('/.well-known/oauth-authorization-server/b'))
        return json({ issuer: `${served!.url}/b`, token_endpoint: 'javascript:alert(1)' });
      return json({}, 404);
    });
    await expect(discoverAuthorizationServer(`${served.url}/a`)).rejects.toMatchObject({ code: 'metadata_invalid' });
    await expect(discoverAuthorizationServer(`${served.url}/b`)).rejects.toMatchObject({ code: 'metadata_invalid' });
    await expect(discoverAuthorizationServer(`${served.url}/c`)).rejects.toMatchObject({ code: 'discovery_failed' });
    await expect(discoverAuthorizationServer('not a url')).rejects.toMatchObject({ code: 'discovery_failed' });
  });

  test('validation rejects bad list and flag fields', () => {
    expect(() => validateAuthorizationServerMetadata({ issuer: 'https://a', scopes_supported: 'x' }, 'https://a')).toThrow(
      /scopes_supported/,
    );
    expect(() =>
      validateAuthorizationServerMetadata({ issuer: 'https://a', client_id_metadata_document_supported: 'yes' }, 'https://a'),
    ).toThrow(/client_id_metadata/);
    expect(() => validateAuthorizationServerMetadata({}, 'https://a')).toThrow(/no issuer/);
  });
});
