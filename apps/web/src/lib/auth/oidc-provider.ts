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

/** Renews OIDC tokens at the provider's token endpoint (found by discovery). */
export function oidcRefresher(oidc: NonNullable<WebServerEnv['oidc']>, fetchImpl: typeof fetch = fetch) {
  let tokenEndpoint: string | undefined;
  return async (refreshToken: string): Promise<IssuedTokens> => {
    if (!tokenEndpoint) {
      const discovery = await fetchImpl(`${oidc.issuer}/.well-known/openid-configuration`);
      if (!discovery.ok) throw new Error(`OIDC discovery failed with ${discovery.status}`);
      tokenEndpoint = ((await discovery.json()) as { token_endpoint: string }).token_endpoint;
    }
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: oidc.clientId });
    if (oidc.clientSecret) form.set('client_secret', oidc.clientSecret);
    const response = await fetchImpl(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    if (!response.ok) throw new Error(`OIDC refresh refused with ${response.status}`);
    const issued = (await response.json()) as Partial<IssuedTokens>;
    if (!issued.id_token) throw new Error('The identity provider returned no id token on refresh');
    return issued as IssuedTokens;
  };
}
