import { useEffect, useState } from 'react';
import Head from 'next/head';
import { getSession, useSession } from 'next-auth/react';
import type { MfaMethod } from '@hdp/contract';
import { AuthCard } from '@/components/auth-card';
import { Notice } from '@/components/notice';
import { RecoveryCodes } from '@/components/recovery-codes';
import { BRAND } from '@/config/brand';
import { SIGN_IN_PATH } from '@/lib/auth/sign-in-urls';
import type { SecondStepState } from '@/lib/auth/second-step-route';
import { authErrorMessage } from '../auth-errors';
import { readSecondStep } from '../second-step/second-step-calls';
import { AnswerSecondFactor } from './answer-second-factor';
import { EnrolFirstFactor } from './enrol-first-factor';

/** A refusal to show: the reason (auth error messages) or, for the browser's own passkey prompt, words. */
interface Refusal {
  reason: string;
  message?: string;
}

/** Refusals after which this sign-in cannot go on: the person starts again with the password. */
const START_AGAIN = new Set(['SecondStepExpired', 'AccountNotActive']);

/**
 * The sign-in's second step, after a right password: the second factor, or (first sign-in on a
 * platform that requires one) enrolling it; then, after enrolling, the recovery codes once.
 */
export function SecondFactorPage() {
  const [state, setState] = useState<SecondStepState | null | undefined>(undefined);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { update } = useSession();

  useEffect(() => {
    readSecondStep().then(setState, () => setState(null));
  }, []);

  const callbackUrl = state?.callbackUrl ?? '/';
  const onSignedIn = async () => {
    const session = await getSession();
    if (session?.recoveryCodes?.length) setCodes(session.recoveryCodes);
    else window.location.assign(callbackUrl);
  };
  const onRefused = (reason: string | null, message?: string) => setRefusal(reason ? { reason, message } : null);
  const finish = async () => {
    await update({ recoveryCodesSeen: true });
    window.location.assign(callbackUrl);
  };

  let title = 'Second factor';
  let body;
  if (codes) {
    title = 'Save your recovery codes';
    body = (
      <>
        <Notice type="success" title="Your second factor is set up.">
          If you lose it, each of these codes signs you in once. They are shown only now: copy or download them and keep them somewhere safe.
        </Notice>
        <RecoveryCodes codes={codes} />
        <button type="button" className="hdp-button hdp-button-primary hdp-button-block" onClick={() => void finish()}>
          I have saved them: continue
        </button>
      </>
    );
  } else if (state === undefined) {
    body = <p aria-busy="true">Loading…</p>;
  } else if (state === null || (refusal && START_AGAIN.has(refusal.reason))) {
    body = (
      <>
        <Notice type="warning" title={authErrorMessage(refusal?.reason === 'AccountNotActive' ? 'AccountNotActive' : 'SecondStepExpired')} />
        <a className="hdp-button hdp-button-primary hdp-button-block" href={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(callbackUrl)}`}>
          Sign in again
        </a>
      </>
    );
  } else {
    if (state.enrolmentRequired) title = 'Set up a second factor';
    const problem = refusal ? <Notice type="error" title={refusal.message ?? authErrorMessage(refusal.reason)} /> : null;
    body = (
      <>
        {problem}
        {state.enrolmentRequired ? (
          <EnrolFirstFactor onSignedIn={() => void onSignedIn()} onRefused={onRefused} />
        ) : (
          <AnswerSecondFactor methods={state.methods as MfaMethod[]} onSignedIn={() => void onSignedIn()} onRefused={onRefused} />
        )}
      </>
    );
  }

  return (
    <>
      <Head>
        <title>{`${title} · ${BRAND.name}`}</title>
      </Head>
      <AuthCard title={title} top>
        {body}
      </AuthCard>
    </>
  );
}
