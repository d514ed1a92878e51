import { Tag } from 'antd';
import type { CheckVerdict, ReleaseRequestState } from '@hdp/contract/output-lifecycle';
import { REQUEST_STATE_LABELS, VERDICT_LABELS } from '../labels';

/** A release request's state, in words. */
export function RequestStateTag({ state }: { state: ReleaseRequestState }) {
  const { label, color } = REQUEST_STATE_LABELS[state];
  return (
    <Tag color={color} style={{ marginInlineEnd: 0 }} data-testid="release-state" data-state={state}>
      {label}
    </Tag>
  );
}

/** The automatic checks' label of a file; "Checking…" while they run. */
export function VerdictTag({ verdict, state }: { verdict: CheckVerdict | null; state: 'PENDING' | 'DONE' | 'ERROR' }) {
  if (state === 'PENDING') return <Tag aria-busy style={{ marginInlineEnd: 0, color: '#434343', borderColor: '#8c8c8c', background: '#fff' }}>Checking…</Tag>;
  if (state === 'ERROR' || !verdict) return <Tag color="#8a4b00" style={{ marginInlineEnd: 0 }}>Checks could not run</Tag>;
  const { label, color } = VERDICT_LABELS[verdict];
  return (
    <Tag color={color} style={{ marginInlineEnd: 0 }} data-testid="file-verdict" data-verdict={verdict}>
      {label}
    </Tag>
  );
}
