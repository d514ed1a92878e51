import Link from 'next/link';
import { Empty } from 'antd';
import { withLocalTimes } from '@/lib/dates/local-times';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
const H1 = { fontSize: 24, fontWeight: 600, margin: '0 0 16px' } as const;
const MUTED = { color: '#595959' } as const;

/**
 * What a page says when its workbench cannot be shown: it was deleted (`deleted`: the API's sentence
 * naming who and when, told to its former members), it does not exist (or the user is not a member),
 * or it failed to load.
 */
export function WorkbenchUnavailable({ reason, deleted }: { reason: 'not-found' | 'error' | 'not-owner'; deleted?: string }) {
  if (deleted) {
    return (
      <>
        <h1 style={H1}>Workbench deleted</h1>
        <section style={PANEL} role="alert" data-testid="workbench-deleted">
          <p style={{ margin: '0 0 12px' }}>{withLocalTimes(deleted)}</p>
          <Link href="/workbenches">Back to your workbenches</Link>
        </section>
      </>
    );
  }
  const text = {
    'not-found': 'This workbench does not exist, or you are not one of its members. Ask one of its owners to add you.',
    error: 'The workbench could not be loaded. Please try again.',
    'not-owner': 'Only the owners of this workbench (and administrators) can edit it.',
  }[reason];
  return (
    <>
      <h1 style={H1}>{reason === 'not-found' ? 'Workbench not found' : 'Workbench'}</h1>
      <section style={PANEL}>
        <Empty description={<span style={MUTED}>{text}</span>} />
      </section>
    </>
  );
}
