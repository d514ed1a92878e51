import {
  refreshRefusalOf,
  ROUTES,
  SECOND_STEP_EXPIRED_DETAIL,
  type Me,
  type MfaChallengeResponse,
  type MfaFactorKind,
  type MfaTokenRequest,
  type MfaTokenResponse,
  type RefreshRefusal,
  type SignInResponse,
  type TokenResponse,
} from '@hdp/contract';
import { clientAddressHeaders } from './client-address';

/** Why the embedded issuer refused a sign-in. */
export type SignInRefusal =
  | 'CredentialsSignin'
  | 'AccountNotActive'
  | 'SignInThrottled'
  | 'IssuerUnavailable'
  | 'SecondFactorRequired'
  | 'SecondFactorWrong'
  | 'SecondStepExpired';

export class SignInRefused extends Error {
  constructor(readonly reason: SignInRefusal) {
    super(reason);
  }
}

/** The password was right and the API asks for a second factor: the challenge to answer it with. */
export class SecondFactorPending extends Error {
  constructor(readonly answer: MfaChallengeResponse) {
    super('SecondFactorRequired');
  }
}

/** The browser's User-Agent on a sign-in call: the session list names the device by it (not by this server's). */
const agentHeader = (userAgent: string | undefined): Record<string, string> => (userAgent ? { 'user-agent': userAgent.slice(0, 512) } : {});

/** Why the API refused a step of the second factor, from its status (and, for 401, its detail). */
async function secondStepRefusal(response: Response): Promise<SignInRefusal> {
  if (response.status === 429) return 'SignInThrottled';
  if (response.status === 403) return 'AccountNotActive';
  if (response.status === 401) {
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    return body?.detail === SECOND_STEP_EXPIRED_DETAIL ? 'SecondStepExpired' : 'SecondFactorWrong';
  }
  // 400: an answer the contract refuses (a code of the wrong shape) is a wrong answer to the person.
  if (response.status === 400) return 'SecondFactorWrong';
  return 'IssuerUnavailable';
}

/** The API refused to renew a session; `refusal` is the contract's name for why (undefined: not said). */
export class RefreshRefused extends Error {
  constructor(
    readonly status: number,
    readonly refusal: RefreshRefusal | undefined,
  ) {
    super(`Refresh refused with ${status}${refusal ? ` (${refusal})` : ''}`);
  }
}

/**
 * Calls the API's embedded issuer from the Next.js server (never from the browser). With the
 * shared secret, a sign-in names the browser's address, so the API throttles each browser apart.
 */
export function apiIssuer(apiInternalUrl: string, fetchImpl: typeof fetch = fetch, clientAddressSecret?: string) {
  const post = (path: string, body: unknown, idToken?: string, extraHeaders: Record<string, string> = {}) =>
    fetchImpl(`${apiInternalUrl}${path}`, {
      method: 'POST',
      headers: {
        // Fastify refuses an empty body declared as JSON, so the header goes only with a body.
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });

  /** A call of the second step; throws SignInRefused with the reason when the API refuses it. */
  const secondStepCall = async (path: string, body: unknown, browserAddress?: string, browserAgent?: string): Promise<Response> => {
    let response: Response;
    try {
      response = await post(path, body, undefined, { ...clientAddressHeaders(clientAddressSecret, browserAddress), ...agentHeader(browserAgent) });
    } catch {
      throw new SignInRefused('IssuerUnavailable');
    }
    if (!response.ok) throw new SignInRefused(await secondStepRefusal(response));
    return response;
  };

  return {
    /** Exchanges email and password for tokens; throws SignInRefused with the reason. */
    async issueToken(email: string, password: string, browserAddress?: string, browserAgent?: string): Promise<TokenResponse> {
      let response: Response;
      try {
        response = await post(ROUTES.issueToken.path, { email, password }, undefined, {
          ...clientAddressHeaders(clientAddressSecret, browserAddress),
          ...agentHeader(browserAgent),
        });
      } catch {
        throw new SignInRefused('IssuerUnavailable');
      }
      if (response.ok) {
        const answer = (await response.json()) as SignInResponse;
        // The password was right and a second factor is asked for: the second-step page takes it.
        if ('mfa_required' in answer) throw new SecondFactorPending(answer);
        return answer;
      }
      if (response.status === 401 || response.status === 400) throw new SignInRefused('CredentialsSignin');
      if (response.status === 403) throw new SignInRefused('AccountNotActive');
      if (response.status === 429) throw new SignInRefused('SignInThrottled');
      throw new SignInRefused('IssuerUnavailable');
    },

    /**
     * The second step of signing in: the challenge with one answer (a code, a passkey, or a new
     * factor's first proof). Tokens, with recovery codes when a first factor was enrolled.
     */
    async answerSecondStep(body: MfaTokenRequest, browserAddress?: string, browserAgent?: string): Promise<MfaTokenResponse> {
      const response = await secondStepCall(ROUTES.issueMfaToken.path, body, browserAddress, browserAgent);
      return (await response.json()) as MfaTokenResponse;
    },

    /** The WebAuthn options for signing in with one of the person's passkeys (null: they have none). */
    async secondStepOptions(challenge: string, browserAddress?: string): Promise<{ webauthn: Record<string, unknown> | null }> {
      const response = await secondStepCall(ROUTES.mfaSignInOptions.path, { challenge }, browserAddress);
      return (await response.json()) as { webauthn: Record<string, unknown> | null };
    },

    /** Starts enrolling a first factor during sign-in: an authenticator app's secret, or passkey options. */
    async enrolAtSignIn(challenge: string, kind: MfaFactorKind, browserAddress?: string): Promise<unknown> {
      const response = await secondStepCall(ROUTES.enrolMfaAtSignIn.path, { challenge, kind }, browserAddress);
      return response.json();
    },

    /** Rotates a refresh token; throws when the API refuses (revoked, reused, user disabled). */
    async refresh(refreshToken: string): Promise<TokenResponse> {
      const response = await post(ROUTES.refreshToken.path, { refresh_token: refreshToken });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
        throw new RefreshRefused(response.status, refreshRefusalOf(body?.detail));
      }
      return (await response.json()) as TokenResponse;
    },

    /** The signed-in user. */
    async me(idToken: string): Promise<Me> {
      const response = await fetchImpl(`${apiInternalUrl}${ROUTES.getMe.path}`, {
        headers: { authorization: `Bearer ${idToken}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw new Error(`Reading the current user failed with ${response.status}`);
      return (await response.json()) as Me;
    },

    /**
     * The API's answer to a token (an outside provider's, before a session is opened on it): its
     * status, and the detail of a refusal.
     */
    async checkToken(idToken: string): Promise<{ status: number; detail?: unknown }> {
      try {
        const response = await fetchImpl(`${apiInternalUrl}${ROUTES.getMe.path}`, {
          headers: { authorization: `Bearer ${idToken}` },
          signal: AbortSignal.timeout(15_000),
        });
        if (response.ok) return { status: response.status };
        const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
        return { status: response.status, detail: body?.detail };
      } catch {
        return { status: 503 };
      }
    },

    /** Revokes the user's refresh tokens. Best effort: sign-out goes on if the API is unreachable. */
    async logout(idToken: string): Promise<boolean> {
      try {
        const response = await post(ROUTES.logout.path, undefined, idToken);
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}

export type ApiIssuer = ReturnType<typeof apiIssuer>;
