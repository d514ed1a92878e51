import { useEffect, useRef, useState } from 'react';
import Head from 'next/head';
import dynamic from 'next/dynamic';
import { signIn, useSession } from 'next-auth/react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { BRAND } from '@/config/brand';
import { formatDate } from '@/lib/dates/format-date';
import { AuthCard } from '@/components/auth-card';
import { Notice } from '@/components/notice';
import { SIGN_IN_PATH } from '@/lib/auth/sign-in-urls';
import { detailOf } from '@/lib/errors/api-error-handler';
import { useAcceptInvitationMutation, useInspectInvitationQuery } from '../api/invitations';
import { EXTERNAL_SIGN_IN_KEY, forgetInvitationToken, takeInvitationToken } from '../invitation-token';
import { useOrganisationSignIn } from '../hooks/use-organisation-sign-in';
import { InvitationPlaceholder, PasswordFormPlaceholder } from './accept-invitation-placeholder';

// Only a local account's invitation shows the form: its code loads once the link has a token,
// while the invitation is checked, so it is there when the answer is.
const loadLocalPasswordForm = () => import('./local-password-form');
const LocalPasswordForm = dynamic(loadLocalPasswordForm, { ssr: false, loading: () => <PasswordFormPlaceholder /> });

export { OIDC_PROVIDER_ID } from '../hooks/use-organisation-sign-in';
import { OIDC_PROVIDER_ID } from '../hooks/use-organisation-sign-in';
export const INCOMPLETE_LINK = 'This invitation link is incomplete. Open the link from your e-mail again.';
export const NO_ORGANISATION_SIGN_IN =
  "Sign-in with your organisation is not set up on this platform yet, so this invitation cannot be accepted now. Ask the administrator who invited you to set it up, or to invite you again with a password of your own.";

/** Whether the identity provider of external invitations is configured; undefined while asking. */
function failureText(error: unknown, fallback: string): string {
  return detailOf((error as FetchBaseQueryError | undefined)?.data) ?? fallback;
}

/**
 * The page an invitation link opens. It shows whose invitation it is; a local account then sets
 * its password, an external identity signs in with the identity provider, and the invitation is
 * accepted. The token comes from the link's fragment, so it never reaches a server log.
 */
export function AcceptInvitationPage() {
  // undefined until read in the browser (the fragment is not sent to the server).
  const [token, setToken] = useState<string | null | undefined>(undefined);
  // Taken once per page: the link's fragment is gone after the first take (effects may run twice).
  const taken = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (taken.current === undefined) taken.current = takeInvitationToken();
    if (taken.current) void loadLocalPasswordForm();
    setToken(taken.current);
  }, []);

  const inspection = useInspectInvitationQuery(token ?? '', { skip: !token });
  const [accept, acceptance] = useAcceptInvitationMutation();
  const { data: session, status: sessionStatus } = useSession();
  const externalTried = useRef(false);

  const info = inspection.data;
  const accepted = acceptance.isSuccess;
  const organisationSignIn = useOrganisationSignIn(info?.user_source === 'EXTERNAL');
  useEffect(() => {
    if (accepted) forgetInvitationToken();
  }, [accepted]);

  // Back from the identity provider: prove the identity with its id token.
  useEffect(() => {
    if (!token || info?.user_source !== 'EXTERNAL' || externalTried.current) return;
    if (sessionStatus !== 'authenticated' || !session?.idToken) return;
    if (window.sessionStorage.getItem(EXTERNAL_SIGN_IN_KEY) !== token) return;
    externalTried.current = true;
    window.sessionStorage.removeItem(EXTERNAL_SIGN_IN_KEY);
    void accept({ token, id_token: session.idToken });
  }, [token, info?.user_source, sessionStatus, session?.idToken, accept]);

  let body;
  if (token === undefined || (token && inspection.isLoading)) {
    body = <InvitationPlaceholder />;
  } else if (!token) {
    body = <Notice type="warning" title={INCOMPLETE_LINK} />;
  } else if (accepted) {
    const external = acceptance.data?.user_source === 'EXTERNAL';
    body = (
      <>
        <Notice type="success" title="Your account is ready.">
          {external ? undefined : 'Sign in with your email and new password.'}
        </Notice>
        {external ? (
          <a className="hdp-button hdp-button-primary hdp-button-block" href="/">
            Continue to {BRAND.name}
          </a>
        ) : (
          <a className="hdp-button hdp-button-primary hdp-button-block" href={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent('/')}`}>
            Sign in
          </a>
        )}
      </>
    );
  } else if (inspection.isError || !info) {
    body = <Notice type="error" title={failureText(inspection.error, 'This invitation could not be checked. Please try again.')} />;
  } else {
    const refusal = acceptance.isError ? failureText(acceptance.error, 'The invitation could not be accepted. Please try again.') : null;
    body = (
      <>
        <p style={{ margin: 0, textAlign: 'center' }}>
          {info.name ? (
            <>
              <strong>{info.name}</strong>, you are invited to {BRAND.name} as <strong>{info.email}</strong>.
            </>
          ) : (
            <>
              <strong>{info.email}</strong> is invited to {BRAND.name}.
            </>
          )}{' '}
          The link is valid until {formatDate(info.expires_at)}.
        </p>
        {info.user_source === 'LOCAL' ? (
          <LocalPasswordForm
            email={info.email}
            name={info.name}
            submitting={acceptance.isLoading}
            refusal={refusal}
            onSubmit={(password) => void accept({ token, password })}
          />
        ) : organisationSignIn === false ? (
          <Notice type="warning" title={NO_ORGANISATION_SIGN_IN} />
        ) : (
          <>
            {refusal ? <Notice type="error" title={refusal} /> : null}
            <button
              type="button"
              className="hdp-button hdp-button-primary hdp-button-block"
              disabled={organisationSignIn === undefined}
              aria-busy={acceptance.isLoading || undefined}
              onClick={() => {
                if (acceptance.isLoading) return;
                window.sessionStorage.setItem(EXTERNAL_SIGN_IN_KEY, token);
                externalTried.current = false;
                void signIn(OIDC_PROVIDER_ID, { callbackUrl: '/accept-invitation' });
              }}
            >
              {acceptance.isLoading ? <span className="hdp-spinner hdp-spinner-small" aria-hidden /> : null}
              Sign in with your organisation to accept
            </button>
          </>
        )}
      </>
    );
  }

  return (
    <>
      <Head>
        <title>{`Accept your invitation · ${BRAND.name}`}</title>
      </Head>
      <AuthCard title="Accept your invitation" top>
        {body}
      </AuthCard>
    </>
  );
}
