import { useCurrentUser } from '@/lib/auth/current-user';
import { FactorsSection } from './factors-section';
import { SessionsSection } from './sessions-section';

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
