import type { NextApiRequest, NextApiResponse } from 'next';
import { MfaFactorKind } from '@hdp/contract';
import { apiIssuer, SignInRefused, type ApiIssuer } from './api-issuer';
import { browserAddress } from './client-address';
import { pendingCookieHeader, readPendingSecondStep } from './pending-second-step';
import { readServerEnv, type WebServerEnv } from './server-env';

/** What the second-step page learns about the sign-in under way: never the challenge itself. */
export interface SecondStepState {
  methods: string[];
  enrolmentRequired: boolean;
  callbackUrl: string;
  expiresAt: number;
}

const STATUS_OF: Record<SignInRefused['reason'], number> = {
  CredentialsSignin: 401,
  SecondFactorRequired: 401,
  SecondFactorWrong: 401,
  SecondStepExpired: 401,
  AccountNotActive: 403,
  SignInThrottled: 429,
  IssuerUnavailable: 502,
};

/**
 * The second-step page's server calls: GET the sign-in under way; POST `{ action: "passkey-options" }`
 * for a passkey's sign-in options, `{ action: "enrol", kind }` to start enrolling a first factor.
 * The challenge stays in its HttpOnly cookie; the browser's address goes to the API signed.
 */
export function secondStepRoute(env: WebServerEnv = readServerEnv(), issuer: ApiIssuer = apiIssuer(env.apiInternalUrl, fetch, env.clientAddressSecret)) {
  const secure = env.publicUrl?.startsWith('https://') ?? false;
  return async function handle(req: NextApiRequest, res: NextApiResponse) {
    res.setHeader('Cache-Control', 'no-store');
    const pending = readPendingSecondStep(req.headers, secure);
    const refuse = (reason: SignInRefused['reason']) => {
      if (reason === 'SecondStepExpired') res.setHeader('Set-Cookie', pendingCookieHeader(null, secure));
      res.status(STATUS_OF[reason]).json({ reason });
    };
    if (!pending) return refuse('SecondStepExpired');
    if (req.method === 'GET') {
      const state: SecondStepState = { methods: pending.methods, enrolmentRequired: pending.enrolmentRequired, callbackUrl: pending.callbackUrl, expiresAt: pending.expiresAt };
      return res.status(200).json(state);
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return res.status(405).json({ detail: 'Use GET or POST.' });
    }
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as { action?: unknown; kind?: unknown };
    const address = browserAddress(req, env.trustProxy);
    try {
      if (body.action === 'passkey-options') return res.status(200).json(await issuer.secondStepOptions(pending.challenge, address));
      const kind = MfaFactorKind.safeParse(body.kind);
      if (body.action === 'enrol' && kind.success) return res.status(200).json(await issuer.enrolAtSignIn(pending.challenge, kind.data, address));
      return res.status(400).json({ detail: 'action: give "passkey-options", or "enrol" with kind TOTP or WEBAUTHN.' });
    } catch (error) {
      return refuse(error instanceof SignInRefused ? error.reason : 'IssuerUnavailable');
    }
  };
}
