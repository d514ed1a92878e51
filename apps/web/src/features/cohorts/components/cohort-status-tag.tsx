import { Tag } from 'antd';
import type { CohortStatus } from '@hdp/contract/cohort-lifecycle';
import { STATUS_LABELS } from '../labels';

// Solid colours with white text: antd's light preset tags fall short of WCAG AA contrast.
const COLOURS: Record<CohortStatus, string> = {
  PUBLISHED: '#2b6a0f',
  DRAFT: '#0b4f6c',
  ARCHIVED: '#595959',
};

/** A cohort's state: Draft, Published or Archived. */
export function CohortStatusTag({ status }: { status: CohortStatus }) {
  return (
    <Tag color={COLOURS[status]} style={{ marginInlineEnd: 0 }} data-testid="cohort-status">
      {STATUS_LABELS[status]}
    </Tag>
  );
}
