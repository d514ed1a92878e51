import dynamic from 'next/dynamic';
import { LoadingStatus } from '@/components/loading-status';
import { useCurrentUser } from '@/lib/auth/current-user';

const loading = (label: string) => () => <LoadingStatus label={label} padding={24} />;
// The sections carry the page's code (dialogs, confirmations): chunks of their own, so that the
// page's first load stays that of the other pages.
const FactorsSection = dynamic(() => import('./factors-section').then((m) => m.FactorsSection), { loading: loading('Loading your second factors') });
const SessionsSection = dynamic(() => import('./sessions-section').then((m) => m.SessionsSection), { loading: loading('Loading your sessions') });

/** The account page: one's own second factors and recovery codes, and one's active sessions. */
export function AccountPage() {
  const me = useCurrentUser();
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Your account</h1>
      {me ? <p style={{ margin: '0 0 16px' }}>Signed in as {me.email}.</p> : null}
      {me?.user_source === 'EXTERNAL' ? (
        <p className="hdp-panel">You sign in through your organisation&apos;s identity provider, which manages your second factor.</p>
      ) : (
        <FactorsSection />
      )}
      <SessionsSection />
    </>
  );
}
