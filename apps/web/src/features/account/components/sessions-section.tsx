import { Button, Popconfirm, Tag } from 'antd';
import { signOut } from 'next-auth/react';
import type { Session } from '@hdp/contract';
import { formatDate } from '@/lib/dates/format-date';
import { SIGN_IN_PATH } from '@/lib/auth/sign-in-urls';
import { useEndAllMySessionsMutation, useEndMySessionMutation, useListMySessionsQuery } from '../api/my-sessions';
import { deviceInWords } from '../device-in-words';

function SessionRow({ session }: { session: Session }) {
  const [end, ending] = useEndMySessionMutation();
  const device = deviceInWords(session.device);
  return (
    <li className="hdp-account-row">
      <div>
        <strong>{device}</strong> {session.current ? <Tag color="blue">This browser</Tag> : null}
        <div className="hdp-account-meta">
          {session.client_address ?? 'address unknown'} · signed in {formatDate(session.signed_in_at)} · last used {formatDate(session.last_used_at)}
        </div>
      </div>
      <div className="hdp-account-actions">
        <Popconfirm
          title="End this session?"
          description={session.current ? 'You will be signed out here.' : 'That browser or script will be signed out.'}
          okText="End session"
          onConfirm={async () => {
            await end({ sessionId: session.id }).unwrap().catch(() => null);
            if (session.current) await signOut({ callbackUrl: SIGN_IN_PATH });
          }}
        >
          <Button loading={ending.isLoading} aria-label={`End the session of ${device}${session.current ? ' (this browser)' : ''}`}>
            End
          </Button>
        </Popconfirm>
      </div>
    </li>
  );
}

/** The person's active sessions: where and when, and ending one or all of them. */
export function SessionsSection() {
  const { data, isLoading } = useListMySessionsQuery();
  const [endAll, endingAll] = useEndAllMySessionsMutation();
  const sessions = data?.sessions ?? [];
  return (
    <section aria-labelledby="sessions-heading" className="hdp-panel">
      <h2 id="sessions-heading">Active sessions</h2>
      <p className="hdp-account-meta">Each browser or script signed in to your account. End one you do not recognise, then change your password.</p>
      {isLoading ? <p aria-busy="true">Loading your sessions…</p> : null}
      <ul className="hdp-account-list" aria-label="Your active sessions">
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      <Popconfirm
        title="End all sessions?"
        description="Every browser and script is signed out, this one included."
        okText="End all"
        onConfirm={async () => {
          const ended = await endAll().unwrap().catch(() => null);
          if (ended) await signOut({ callbackUrl: SIGN_IN_PATH });
        }}
      >
        <Button danger loading={endingAll.isLoading} disabled={sessions.length === 0}>
          End all sessions
        </Button>
      </Popconfirm>
    </section>
  );
}
