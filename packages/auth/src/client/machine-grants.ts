/**
 * Grants without a user in the loop: client credentials (`client_secret_basic`, `client_secret_post`,
 * `private_key_jwt`), the RFC 7523 JWT bearer grant for workload identity (SEP-1933), and enterprise-managed
 * authorization (SEP-990: an RFC 8693 token exchange at the enterprise IdP for an ID-JAG, then a JWT bearer grant at
 * the MCP authorization server). A refused grant is reported, never retried with another grant type.
 */
import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import { AuthError, describeValue } from '../errors.js';
import { chooseAuthMethod, clientAuthFor, type ClientCredentials } from '../oauth-shared.js';
import { grantParameters, NOT_AN_ACCESS_TOKEN, runTokenRequest, type GrantClient, type GrantContext, type OAuthGrant } from './grant.js';

/** The RFC 7523 JWT bearer grant type. */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The RFC 8693 token exchange grant type. */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Token type of an Identity Assertion JWT Authorization Grant (SEP-990). */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
/** Token type of an OpenID Connect ID token (RFC 8693). */
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** A value given directly or produced on demand (e.g. a workload token read from a file each time). */
export type Provided<T> = T | (() => T | Promise<T>);

async function provided<T>(value: Provided<T>): Promise<T> {
  return typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;
}

/** Imports a PKCS#8 PEM private key for `private_key_jwt` (e.g. from configuration). */
export async function importClientPrivateKey(pem: string, alg = 'ES256'): Promise<CryptoKey> {
  try {
    return (await importPKCS8(pem, alg)) as CryptoKey;
  } catch (cause) {
    throw new AuthError('config_invalid', 'the client private key is not a PKCS#8 PEM key for the given algorithm', { cause });
  }
}

function grantClient(credentials: ClientCredentials, context: GrantContext): GrantClient {
  const method = chooseAuthMethod(credentials, context.as.token_endpoint_auth_methods_supported);
  return { client: { client_id: credentials.clientId }, auth: clientAuthFor(credentials, method) };
}

/** The client credentials grant for a confidential client acting on its own behalf. */
export function clientCredentialsGrant(credentials: ClientCredentials): OAuthGrant {
  return {
    name: 'client_credentials',
    interactive: false,
    refreshClient: (context, clientId) =>
      Promise.resolve(clientId === credentials.clientId ? grantClient(credentials, context) : undefined),
    async acquire(context) {
      const { client, auth } = grantClient(credentials, context);
      const response = await runTokenRequest(
        'the client credentials grant',
        context,
        (options) => oauth.clientCredentialsGrantRequest(context.as, client, auth, grantParameters(context), options),
        (answer) => oauth.processClientCredentialsResponse(context.as, client, answer),
      );
      return { response, clientId: credentials.clientId };
    },
  };
}

/** Options of {@link jwtBearerGrant}. */
export interface JwtBearerGrantOptions extends ClientCredentials {
  /** The assertion (e.g. a workload identity token whose audience is the authorization server). */
  readonly assertion: Provided<string>;
}

/** The RFC 7523 JWT bearer grant (workload identity federation). */
export function jwtBearerGrant(options: JwtBearerGrantOptions): OAuthGrant {
  return {
    name: 'jwt_bearer',
    interactive: false,
    refreshClient: (context, clientId) => Promise.resolve(clientId === options.clientId ? grantClient(options, context) : undefined),
    async acquire(context) {
      const { client, auth } = grantClient(options, context);
      const assertion = await provided(options.assertion);
      const response = await runTokenRequest(
        'the JWT bearer grant',
        context,
        (requestOptions) =>
          oauth.genericTokenEndpointRequest(
            context.as,
            client,
            auth,
            JWT_BEARER_GRANT_TYPE,
            grantParameters(context, { assertion }),
            requestOptions,
          ),
        (answer) => oauth.processGenericTokenEndpointResponse(context.as, client, answer),
      );
      return { response, clientId: options.clientId };
    },
  };
}

/** The enterprise identity provider of {@link enterpriseManagedGrant}. */
export interface EnterpriseIdentityProvider {
  /** The IdP's token endpoint (where the token exchange happens). */
  readonly tokenEndpoint: string;
  /** The IdP's issuer identifier (default: the token endpoint's origin). */
  readonly issuer?: string;
  /** This client's credentials at the IdP. */
  readonly client: ClientCredentials;
  /** The user's ID token from the IdP (the subject token of the exchange). */
  readonly idToken: Provided<string>;
}

/** Options of {@link enterpriseManagedGrant}. */
export interface EnterpriseManagedGrantOptions extends ClientCredentials {
  readonly identityProvider: EnterpriseIdentityProvider;
}

/** Enterprise-managed authorization: token exchange at the IdP for an ID-JAG, then the JWT bearer grant with it. */
export function enterpriseManagedGrant(options: EnterpriseManagedGrantOptions): OAuthGrant {
  const idp = options.identityProvider;
  return {
    name: 'enterprise_managed',
    interactive: false,
    refreshClient: (context, clientId) => Promise.resolve(clientId === options.clientId ? grantClient(options, context) : undefined),
    async acquire(context) {
      const idpServer = { issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin, token_endpoint: idp.tokenEndpoint };
      const idpClient: oauth.Client = { client_id: idp.client.clientId };
      const idpAuth = clientAuthFor(idp.client, chooseAuthMethod(idp.client));
      const exchangeParams = grantParameters(context, {
        subject_token: await provided(idp.idToken),
        subject_token_type: ID_TOKEN_TYPE,
        requested_token_type: ID_JAG_TOKEN_TYPE,
        audience: context.issuer,
      });
      // The exchange happens at the IdP: no DPoP there (the ID-JAG is not an access token).
      const exchangeContext: GrantContext = { ...context, as: idpServer, dpop: undefined };
      const exchanged = await runTokenRequest(
        'the token exchange at the identity provider',
        exchangeContext,
        (requestOptions) =>
          oauth.genericTokenEndpointRequest(idpServer, idpClient, idpAuth, TOKEN_EXCHANGE_GRANT_TYPE, exchangeParams, requestOptions),
        (answer) => oauth.processGenericTokenEndpointResponse(idpServer, idpClient, answer, { recognizedTokenTypes: NOT_AN_ACCESS_TOKEN }),
      );
      if (exchanged.issued_token_type !== ID_JAG_TOKEN_TYPE) {
        throw new AuthError(
          'token_request_failed',
          `the identity provider issued ${describeValue(exchanged.issued_token_type ?? 'no token type')}, not an ID-JAG`,
        );
      }
      const { client, auth } = grantClient(options, context);
      const response = await runTokenRequest(
        'the JWT bearer grant with the ID-JAG',
        context,
        (requestOptions) =>
          oauth.genericTokenEndpointRequest(
            context.as,
            client,
            auth,
            JWT_BEARER_GRANT_TYPE,
            grantParameters(context, { assertion: exchanged.access_token }),
            requestOptions,
          ),
        (answer) => oauth.processGenericTokenEndpointResponse(context.as, client, answer),
      );
      return { response, clientId: options.clientId };
    },
  };
}
