/** What the encrypted session cookie carries besides the user's name and email. */
export interface SessionTokens {
  idToken?: string;
  refreshToken?: string;
  /** When the id token expires, in milliseconds since the epoch. */
  idTokenExpiresAt?: number;
  /** Which provider issued the tokens, so that refresh goes back to it. */
  tokenSource?: 'credentials' | 'oidc';
  error?: SessionError;
}

/**
 * Set on the session when its tokens can no longer be renewed; the client then signs out and the
 * sign-in page says why: the account was disabled, the refresh token was revoked elsewhere (or
 * reused), or any other failure.
 */
export type SessionError = 'RefreshTokenError' | 'AccountDisabled' | 'SessionRevoked' | 'SessionExpired';

/** Why a refresh failed, from what the refresher threw (an error carrying the contract's refusal). */
function sessionErrorOf(error: unknown): SessionError {
  const refusal = (error as { refusal?: unknown } | null)?.refusal;
  if (refusal === 'accountNotActive') return 'AccountDisabled';
  if (refusal === 'revoked' || refusal === 'reused') return 'SessionRevoked';
  if (refusal === 'expired') return 'SessionExpired';
  return 'RefreshTokenError';
}

/** Renew the id token when less than this is left (the client re-reads its session every 4 minutes). */
export const REFRESH_MARGIN_MS = 3 * 60 * 1000;
/** How often the client re-reads its session, which is when the refresh happens. */
export const SESSION_REFETCH_SECONDS = 4 * 60;

/** A token pair as an issuer returns it. */
export interface IssuedTokens {
  id_token: string;
  refresh_token?: string;
  expires_in?: number;
}

/** Reads `exp` from a JWT without verifying it (the API verifies; this only schedules the refresh). */
export function jwtExpiry(jwt: string): number | undefined {
  const payload = jwt.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Turns an issuer's answer into session tokens; a refresh that returns no new refresh token keeps the old one. */
export function toSessionTokens(
  issued: IssuedTokens,
  source: NonNullable<SessionTokens['tokenSource']>,
  now: number,
  previousRefreshToken?: string,
): SessionTokens {
  const expiresAt = jwtExpiry(issued.id_token) ?? now + (issued.expires_in ?? 0) * 1000;
  return {
    idToken: issued.id_token,
    refreshToken: issued.refresh_token ?? previousRefreshToken,
    idTokenExpiresAt: expiresAt,
    tokenSource: source,
    error: undefined,
  };
}

/** Renews tokens with a refresh token; rejects when the issuer refuses. */
export type TokenRefresher = (refreshToken: string) => Promise<IssuedTokens>;

/**
 * Keeps the session's id token fresh: renews it when it is within the margin of expiring, or at
 * once with `force` (the API refused the token, e.g. because the account was disabled).
 * When renewal fails (the refresh token was revoked, the user was disabled, the issuer is gone)
 * the tokens are dropped and the session carries an error, which signs the user out.
 */
export async function refreshIfDue<T extends SessionTokens>(
  token: T,
  refreshers: Partial<Record<NonNullable<SessionTokens['tokenSource']>, TokenRefresher>>,
  now: number = Date.now(),
  { force = false }: { force?: boolean } = {},
): Promise<T> {
  if (token.error || !token.idToken) return token;
  if (!force && token.idTokenExpiresAt !== undefined && token.idTokenExpiresAt - now > REFRESH_MARGIN_MS) return token;
  const refresher = token.tokenSource ? refreshers[token.tokenSource] : undefined;
  if (!token.refreshToken || !refresher) return failed(token);
  try {
    const issued = await refresher(token.refreshToken);
    return { ...token, ...toSessionTokens(issued, token.tokenSource!, now, token.refreshToken) };
  } catch (error) {
    return failed(token, sessionErrorOf(error));
  }
}

function failed<T extends SessionTokens>(token: T, error: SessionError = 'RefreshTokenError'): T {
  return { ...token, idToken: undefined, refreshToken: undefined, idTokenExpiresAt: undefined, error };
}

/**
 * Lets concurrent renewals with the same refresh token share one call. Refresh tokens rotate and
 * reusing one revokes its family, so two tabs refreshing at once must not both spend it.
 */
export function sharedRefresher(refresher: TokenRefresher, keepMs = 30_000): TokenRefresher {
  const inFlight = new Map<string, Promise<IssuedTokens>>();
  return (refreshToken) => {
    const existing = inFlight.get(refreshToken);
    if (existing) return existing;
    const pending = refresher(refreshToken);
    inFlight.set(refreshToken, pending);
    const forget = () => setTimeout(() => inFlight.delete(refreshToken), keepMs).unref?.();
    pending.then(forget, () => inFlight.delete(refreshToken));
    return pending;
  };
}
