import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { apiIssuer, SecondFactorPending, SignInRefused } from './api-issuer';
import { stampedBrowserAddress } from './client-address';
import { pendingCookieHeader, readPendingSecondStep, safeCallbackPath, setCookieOnAuthResponse } from './pending-second-step';
import { secondStepRequest } from './second-step-answer';
import { oidcProvider, oidcRefresher, oidcRevoker } from './oidc-provider';
import { readServerEnv, type WebServerEnv } from './server-env';
import { refreshIfDue, sharedRefresher, toSessionTokens, type IssuedTokens, type SessionTokens, type TokenRefresher } from './session-tokens';
import { ssoRefusalOf, ssoRefusedUrl } from './sso-refusals';
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
    ...(env.oidc ? { oidc: sharedRefresher(acceptedByApi(oidcRefresher(env.oidc), issuer)) } : {}),
  };
  const revokeAtProvider = env.oidc ? oidcRevoker(env.oidc) : undefined;

  const useSecureCookies = env.publicUrl?.startsWith('https://') ?? false;
  return {
    secret: env.nextAuthSecret,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    // Secure (and __Secure-/__Host- prefixed) cookies whenever the public address is HTTPS.
    useSecureCookies,
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
        // Two steps, one provider: the password (the form's email and password), then, when the API
        // asks for it, the second factor (`answer`, posted by the second-step page). The session is
        // made only when the API answers with tokens.
        async authorize(credentials, req) {
          const browserAddress = stampedBrowserAddress(req?.headers);
          const agent = req?.headers?.['user-agent'];
          const browserAgent = typeof agent === 'string' ? agent : undefined;
          const secure = useSecureCookies;
          try {
            const answer = (credentials as Record<string, unknown> | undefined)?.answer;
            if (typeof answer === 'string') {
              const pending = readPendingSecondStep(req?.headers, secure);
              if (!pending) throw new SignInRefused('SecondStepExpired');
              const body = secondStepRequest(pending.challenge, answer);
              if (!body) throw new SignInRefused('SecondFactorWrong');
              const tokens = await issuer.answerSecondStep(body, browserAddress, browserAgent);
              setCookieOnAuthResponse(pendingCookieHeader(null, secure));
              const me = await issuer.me(tokens.id_token);
              return {
                id: me.id,
                email: me.email,
                name: me.name ?? me.email,
                ...toSessionTokens(tokens, 'credentials', Date.now()),
                ...(tokens.recovery_codes ? { recoveryCodes: tokens.recovery_codes } : {}),
              };
            }
            const email = credentials?.email?.trim();
            const password = credentials?.password;
            if (!email || !password) return null;
            const tokens = await issuer.issueToken(email, password, browserAddress, browserAgent);
            const me = await issuer.me(tokens.id_token);
            return { id: me.id, email: me.email, name: me.name ?? me.email, ...toSessionTokens(tokens, 'credentials', Date.now()) };
          } catch (error) {
            if (error instanceof SecondFactorPending) {
              const callbackUrl = safeCallbackPath((credentials as Record<string, unknown> | undefined)?.callbackUrl, env.publicUrl);
              const { challenge, methods, enrolment_required: enrolmentRequired, expires_in: expiresIn } = error.answer;
              setCookieOnAuthResponse(pendingCookieHeader({ challenge, methods, enrolmentRequired, callbackUrl, expiresAt: Date.now() + expiresIn * 1000 }, secure));
              // The auth route sends this refusal on to the second-step page.
              throw new SignInRefused('SecondFactorRequired');
            }
            if (error instanceof SignInRefused && error.reason === 'CredentialsSignin') return null;
            if (error instanceof SignInRefused && error.reason === 'SecondStepExpired') setCookieOnAuthResponse(pendingCookieHeader(null, secure));
            // next-auth sends other refusals to the error page as ?error=<reason>.
            throw error instanceof SignInRefused ? error : new SignInRefused('IssuerUnavailable');
          }
        },
      }),
      ...(env.oidc ? [oidcProvider(env.oidc)] : []),
    ],
    callbacks: {
      /**
       * A provider's sign-in opens a session only when the API takes its id token: a known,
       * active user, the platform's audience, a key the provider publishes, the required acr/amr.
       * Otherwise the sign-in page says why.
       */
      async signIn({ account }) {
        if (account?.type !== 'oauth') return true;
        if (!account.id_token) return ssoRefusedUrl('SsoTokenRefused');
        const refusal = ssoRefusalOf(await issuer.checkToken(account.id_token));
        return refusal ? ssoRefusedUrl(refusal) : true;
      },
      async jwt({ token, user, account, trigger, session }) {
        if (account?.type === 'credentials' && user) {
          const { idToken, refreshToken, idTokenExpiresAt, tokenSource, recoveryCodes } = user as typeof user & SessionTokens & { recoveryCodes?: string[] };
          // A first factor enrolled at sign-in comes with recovery codes: kept (encrypted, in the
          // session cookie) only until the page that shows them once says they were seen.
          return { ...token, idToken, refreshToken, idTokenExpiresAt, tokenSource, recoveryCodes, error: undefined };
        }
        if (trigger === 'update' && (session as { recoveryCodesSeen?: unknown } | undefined)?.recoveryCodesSeen === true) {
          return { ...token, recoveryCodes: undefined };
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
          ...(token.recoveryCodes ? { recoveryCodes: token.recoveryCodes } : {}),
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
        // The provider's refresh token dies with the session, so it cannot renew it afterwards.
        if (token?.tokenSource === 'oidc' && token.refreshToken && revokeAtProvider) await revokeAtProvider(token.refreshToken);
      },
    },
  };
}

/**
 * A provider's renewed tokens still have to be taken by the API: a person disabled on the platform
 * since signing in is signed out (and told so), though their provider keeps renewing their tokens.
 */
function acceptedByApi(refresh: TokenRefresher, issuer: ReturnType<typeof apiIssuer>): TokenRefresher {
  return async (refreshToken: string): Promise<IssuedTokens> => {
    const issued = await refresh(refreshToken);
    const refusal = ssoRefusalOf(await issuer.checkToken(issued.id_token));
    if (refusal === 'SsoAccountDisabled') throw Object.assign(new Error(refusal), { refusal: 'accountNotActive' });
    // An API that cannot be reached says nothing about the person: the renewed tokens are kept.
    if (refusal && refusal !== 'SsoUnavailable') throw new Error(refusal);
    return issued;
  };
}
