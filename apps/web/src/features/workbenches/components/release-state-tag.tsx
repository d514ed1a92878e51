import { Tag } from 'antd';
import type { ReleaseState } from '@hdp/contract/workbench-rules';
import { RELEASE_STATE_LABELS } from '../provisioning';

// Solid colours with white text: antd's light preset tags fall short of WCAG AA contrast.
const COLOURS: Record<ReleaseState, string> = {
  PENDING: '#595959',
  PROVISIONING: '#0b4f6c',
  READY: '#2b6a0f',
  FAILED: '#a8071a',
};

/** Where data released to a workbench stands: Waiting, Provisioning, Ready or Failed. */
export function ReleaseStateTag({ state, testId = 'release-state' }: { state: ReleaseState; testId?: string }) {
  return (
    <Tag color={COLOURS[state]} style={{ marginInlineEnd: 0 }} data-testid={testId}>
      {RELEASE_STATE_LABELS[state]}
    </Tag>
  );
}
