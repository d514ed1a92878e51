import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { IssuedTokens } from './session-tokens';
import type { WebServerEnv } from './server-env';

interface OidcProfile {
  sub: string;
  email?: string;
  name?: string;
  preferred_username?: string;
}

/** A generic OpenID Connect provider for production identity providers, on when OIDC_* is set. */
export function oidcProvider(oidc: NonNullable<WebServerEnv['oidc']>): OAuthConfig<OidcProfile> {
  return {
    id: 'oidc',
    name: oidc.name,
    type: 'oauth',
    wellKnown: `${oidc.issuer}/.well-known/openid-configuration`,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    // With a secret: client_secret_basic, the default of OpenID Connect, as the refresher and revoker send it.
    client: oidc.clientSecret ? undefined : { token_endpoint_auth_method: 'none' },
    authorization: { params: { scope: oidc.scope } },
    idToken: true,
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      email: profile.email ?? null,
      name: profile.name ?? profile.preferred_username ?? profile.email ?? null,
    }),
  };
}

/** The provider's endpoints, read once from its discovery document. */
function discovery(oidc: NonNullable<WebServerEnv['oidc']>, fetchImpl: typeof fetch) {
  let endpoints: Promise<{ token_endpoint: string; revocation_endpoint?: string }> | undefined;
  return () =>
    (endpoints ??= fetchImpl(`${oidc.issuer}/.well-known/openid-configuration`).then(async (response) => {
      if (!response.ok) throw new Error(`OIDC discovery failed with ${response.status}`);
      return (await response.json()) as { token_endpoint: string; revocation_endpoint?: string };
    })).catch((error: unknown) => {
      endpoints = undefined;
      throw error;
    });
}

/**
 * A token-endpoint request of this client: HTTP Basic with the secret (client_secret_basic, what
 * the sign-in's code exchange uses too), or the client id alone for a public client.
 */
function clientRequest(oidc: NonNullable<WebServerEnv['oidc']>, fields: Record<string, string>): RequestInit {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const form = new URLSearchParams(fields);
  if (oidc.clientSecret) {
    // RFC 6749 2.3.1: both parts form-encoded before Base64.
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(oidc.clientId)}:${encode(oidc.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', oidc.clientId);
  }
  return { method: 'POST', headers, body: form, signal: AbortSignal.timeout(15_000) };
}

/** Renews OIDC tokens at the provider's token endpoint (found by discovery). */
export function oidcRefresher(oidc: NonNullable<WebServerEnv['oidc']>, fetchImpl: typeof fetch = fetch) {
  const endpoints = discovery(oidc, fetchImpl);
  return async (refreshToken: string): Promise<IssuedTokens> => {
    const { token_endpoint: tokenEndpoint } = await endpoints();
    const response = await fetchImpl(tokenEndpoint, clientRequest(oidc, { grant_type: 'refresh_token', refresh_token: refreshToken }));
    if (!response.ok) throw new Error(`OIDC refresh refused with ${response.status}`);
    const issued = (await response.json()) as Partial<IssuedTokens>;
    if (!issued.id_token) throw new Error('The identity provider returned no id token on refresh');
    return issued as IssuedTokens;
  };
}

/**
 * Revokes a refresh token at the provider (RFC 7009) when the person signs out, so that the
 * session cannot be renewed from it. Best effort: sign-out goes on if the provider is unreachable
 * or has no revocation endpoint.
 */
export function oidcRevoker(oidc: NonNullable<WebServerEnv['oidc']>, fetchImpl: typeof fetch = fetch) {
  const endpoints = discovery(oidc, fetchImpl);
  return async (refreshToken: string): Promise<boolean> => {
    try {
      const { revocation_endpoint: revocationEndpoint } = await endpoints();
      if (!revocationEndpoint) return false;
      const response = await fetchImpl(revocationEndpoint, clientRequest(oidc, { token: refreshToken, token_type_hint: 'refresh_token' }));
      return response.ok;
    } catch {
      return false;
    }
  };
}
