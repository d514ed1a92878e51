import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { AuditChainReport } from '@hdp/contract';
import { DATE_TIME_FORMAT } from '@/config/constants';
import dayjs from 'dayjs';
import { useVerifyAuditLogQuery } from '../api/verify-audit-log';

const BADGE = { display: 'inline-flex', alignItems: 'center', gap: 8, padding: '4px 12px', borderRadius: 16, fontWeight: 500 } as const;
const OK = { ...BADGE, background: '#f0f9eb', color: '#1e5e07', border: '1px solid #b7e19a' };
const BROKEN = { ...BADGE, background: '#fff1f0', color: '#a8071a', border: '1px solid #ffa39e' };
const NEUTRAL = { ...BADGE, background: '#f5f5f5', color: '#434343', border: '1px solid #d9d9d9' };

/** What the verification says, in words. */
export function integrityText(report: AuditChainReport): { ok: boolean; text: string } {
  if (report.first_broken) return { ok: false, text: `Integrity broken at entry ${report.first_broken.seq}: ${report.first_broken.reason}` };
  if (report.verified_up_to === null) return { ok: true, text: 'No entries to verify yet' };
  return { ok: true, text: `Integrity verified up to entry ${report.verified_up_to.toLocaleString('en-GB')}` };
}

/** The result of the audit log's hash-chain verification: verified up to entry N, or the first broken entry. */
export function ChainIntegrity() {
  const { data: report, isLoading, isError } = useVerifyAuditLogQuery();
  if (isLoading) {
    return (
      <span role="status" style={NEUTRAL}>
        <LoadingOutlined aria-hidden /> Checking integrity…
      </span>
    );
  }
  if (isError || !report) {
    return (
      <span role="status" style={NEUTRAL}>
        <QuestionCircleOutlined aria-hidden /> Integrity could not be checked
      </span>
    );
  }
  const { ok, text } = integrityText(report);
  const Icon = ok ? CheckCircleFilled : CloseCircleFilled;
  return (
    <span role="status" data-testid="chain-integrity" style={ok ? OK : BROKEN} title={`Checked ${dayjs(report.checked_at).format(DATE_TIME_FORMAT)}`}>
      <Icon aria-hidden /> {text}
    </span>
  );
}
