import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { apiIssuer, SignInRefused } from './api-issuer';
import { stampedBrowserAddress } from './client-address';
import { oidcProvider, oidcRefresher } from './oidc-provider';
import { readServerEnv, type WebServerEnv } from './server-env';
import { refreshIfDue, sharedRefresher, toSessionTokens, type SessionTokens, type TokenRefresher } from './session-tokens';
import { BRAND } from '@/config/brand';

/** Sessions last at most this long; the id token inside is renewed well before it expires. */
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * The next-auth configuration: the embedded issuer through a Credentials provider, a generic
 * OIDC provider when configured, JWT sessions carrying the id token, refresh-token rotation.
 */
export function buildAuthOptions(env: WebServerEnv = readServerEnv(), issuer = apiIssuer(env.apiInternalUrl, fetch, env.clientAddressSecret)): AuthOptions {
  const refreshers: Record<'credentials', TokenRefresher> & Partial<Record<'oidc', TokenRefresher>> = {
    credentials: sharedRefresher((refreshToken) => issuer.refresh(refreshToken)),
    ...(env.oidc ? { oidc: sharedRefresher(oidcRefresher(env.oidc)) } : {}),
  };

  return {
    secret: env.nextAuthSecret,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    // Secure (and __Secure-/__Host- prefixed) cookies whenever the public address is HTTPS.
    useSecureCookies: env.publicUrl?.startsWith('https://') ?? false,
    // pages.signIn stays unset: the built-in /api/auth/signin page is the sign-in page.
    pages: { error: '/error', signOut: '/signout' },
    theme: { colorScheme: 'light', brandColor: BRAND.primaryColor, logo: '/logo.svg', buttonText: '#ffffff' },
    providers: [
      CredentialsProvider({
        id: 'credentials',
        name: 'email and password',
        credentials: {
          email: { label: 'Email', type: 'email', placeholder: 'name@example.org', autoComplete: 'username' },
          password: { label: 'Password', type: 'password', autoComplete: 'current-password' },
        },
        async authorize(credentials, req) {
          const email = credentials?.email?.trim();
          const password = credentials?.password;
          if (!email || !password) return null;
          try {
            const tokens = await issuer.issueToken(email, password, stampedBrowserAddress(req?.headers));
            const me = await issuer.me(tokens.id_token);
            return { id: me.id, email: me.email, name: me.name ?? me.email, ...toSessionTokens(tokens, 'credentials', Date.now()) };
          } catch (error) {
            if (error instanceof SignInRefused && error.reason === 'CredentialsSignin') return null;
            // next-auth sends other refusals to the error page as ?error=<reason>.
            throw error instanceof SignInRefused ? error : new SignInRefused('IssuerUnavailable');
          }
        },
      }),
      ...(env.oidc ? [oidcProvider(env.oidc)] : []),
    ],
    callbacks: {
      async jwt({ token, user, account, trigger }) {
        if (account?.type === 'credentials' && user) {
          const { idToken, refreshToken, idTokenExpiresAt, tokenSource } = user as typeof user & SessionTokens;
          return { ...token, idToken, refreshToken, idTokenExpiresAt, tokenSource, error: undefined };
        }
        if (account?.type === 'oauth' && account.id_token) {
          return {
            ...token,
            ...toSessionTokens(
              { id_token: account.id_token, refresh_token: account.refresh_token, expires_in: account.expires_in as number | undefined },
              'oidc',
              Date.now(),
            ),
          };
        }
        // The client asks for an update when the API answered 401: renew now, whatever the expiry says.
        return refreshIfDue(token, refreshers, Date.now(), { force: trigger === 'update' });
      },
      async session({ session, token }) {
        // Only what the browser needs: never the refresh token. Undefined fields do not serialise.
        return {
          ...session,
          ...(token.idToken ? { idToken: token.idToken } : {}),
          ...(token.error ? { error: token.error } : {}),
        };
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.tokenSource === 'credentials' && token.refreshToken) {
          // Revoke the refresh tokens at the API; renew first if the id token has expired.
          const fresh = await refreshIfDue(token, refreshers);
          if (fresh.idToken) await issuer.logout(fresh.idToken);
        }
      },
    },
  };
}
