/**
 * The `auth/*` client scenarios of the official conformance suite: the wiremcp client connects to the scenario's MCP
 * server over HTTP with `McpOAuthProvider` from `@wiremcp/auth/client`, lists the tools and calls `test-tool` when
 * the server has it. Everything the scenarios check (discovery order, registration priority, PKCE, resource
 * indicators, scope selection and step-up, `iss` checks, DPoP, re-registration when the authorization server
 * changes) is the library's behaviour; this file only chooses the grant from the scenario's context
 * (`MCP_CONFORMANCE_CONTEXT`: pre-registered or client-credentials secrets, a private key, workload or enterprise
 * tokens) and the wire from `MCP_CONFORMANCE_PROTOCOL_VERSION`.
 */
import {
  authorizationCodeGrant,
  automaticUserAgent,
  clientCredentialsGrant,
  enterpriseManagedGrant,
  importClientPrivateKey,
  jwtBearerGrant,
  McpOAuthProvider,
  type OAuthGrant,
} from '@wiremcp/auth/client';
import { McpClient } from '@wiremcp/client';
import type { ProtocolVersion } from '@wiremcp/protocol';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { clientTimeLimitMs } from './time-limit.js';

/** The Client ID Metadata Document URL the suite's authorization servers accept as a client_id. */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The redirect URI registered for the authorization code flow (the suite's servers redirect at once, no browser). */
const REDIRECT_URI = 'http://127.0.0.1:3333/callback';

/** What the suite may put in `MCP_CONFORMANCE_CONTEXT` for an auth scenario. */
interface AuthContext {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly issuer?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_issuer?: string;
  readonly idp_token_endpoint?: string;
  readonly valid_jwt?: string;
}

function readContext(): AuthContext {
  const text = process.env.MCP_CONFORMANCE_CONTEXT;
  if (text === undefined || text === '') return {};
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? (parsed as AuthContext) : {};
}

function required(context: AuthContext, key: keyof AuthContext, scenario: string): string {
  const value = context[key];
  if (typeof value !== 'string' || value === '') throw new Error(`${scenario}: MCP_CONFORMANCE_CONTEXT has no ${key}`);
  return value;
}

/** The grant a scenario calls for. */
async function grantFor(scenario: string, context: AuthContext): Promise<OAuthGrant> {
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return clientCredentialsGrant({
        clientId: required(context, 'client_id', scenario),
        clientSecret: required(context, 'client_secret', scenario),
      });
    case 'auth/client-credentials-jwt':
      return clientCredentialsGrant({
        clientId: required(context, 'client_id', scenario),
        privateKey: await importClientPrivateKey(required(context, 'private_key_pem', scenario), context.signing_algorithm ?? 'ES256'),
      });
    case 'auth/wif-jwt-bearer':
      return jwtBearerGrant({ clientId: required(context, 'client_id', scenario), assertion: required(context, 'valid_jwt', scenario) });
    case 'auth/enterprise-managed-authorization':
      return enterpriseManagedGrant({
        clientId: required(context, 'client_id', scenario),
        ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
        identityProvider: {
          tokenEndpoint: required(context, 'idp_token_endpoint', scenario),
          ...(context.idp_issuer !== undefined ? { issuer: context.idp_issuer } : {}),
          client: { clientId: required(context, 'idp_client_id', scenario) },
          idToken: required(context, 'idp_id_token', scenario),
        },
      });
    default:
      // Every other scenario is the interactive flow; pre-registered credentials come first when the suite gives some.
      return authorizationCodeGrant({
        redirectUri: REDIRECT_URI,
        userAgent: automaticUserAgent({ fetchPolicy: { timeoutMs: clientTimeLimitMs() } }),
        clientName: 'wiremcp conformance client',
        clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
        ...(context.client_id !== undefined
          ? {
              preRegistered: {
                clientId: context.client_id,
                ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
                ...(context.issuer !== undefined ? { issuer: context.issuer } : {}),
              },
            }
          : {}),
      });
  }
}

/**
 * Runs one `auth/*` scenario against `serverUrl`: logs in as the scenario requires (on the first 401), lists the
 * tools, calls `test-tool` when present, and disconnects. Rejects when authorization fails; the scenarios that
 * expect a refusal (a resource mismatch, a wrong `iss`, repeated 403s) accept a non-zero exit.
 */
export async function runAuthScenario(scenario: string, serverUrl: string): Promise<void> {
  const context = readContext();
  const version = (process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25') as ProtocolVersion;
  const limit = clientTimeLimitMs();
  const auth = new McpOAuthProvider({
    serverUrl,
    grant: await grantFor(scenario, context),
    protocolVersion: version,
    fetchPolicy: { timeoutMs: limit },
  });
  const client = new McpClient(
    { name: 'wiremcp-conformance-client', version: '0.1.0' },
    { era: version === '2026-07-28' ? 'modern' : 'legacy', protocolVersion: version, requestTimeoutMs: limit },
  );
  try {
    await client.connect(httpTransportFactory(serverUrl, { auth, legacySse: false }));
    const tools = await client.listAllTools();
    if (tools.some((tool) => tool.name === 'test-tool')) await client.callTool('test-tool', {});
  } finally {
    await client.close();
  }
}
