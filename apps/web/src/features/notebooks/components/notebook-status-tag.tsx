import { Tag } from 'antd';
import type { NotebookStatus } from '@hdp/contract/notebook-lifecycle';
import { isTransitional, NOTEBOOK_STATUS_LABELS } from '../labels';

// Solid colours with white text (antd's light presets fall short of WCAG AA contrast); STOPPED
// has the spec's own style, outlined, so a stopped notebook reads as resting rather than failed.
const SOLID: Record<Exclude<NotebookStatus, 'STOPPED'>, string> = {
  PROVISIONING: '#0b4f6c',
  STARTING: '#0b4f6c',
  RUNNING: '#2b6a0f',
  STOPPING: '#595959',
  DELETING: '#595959',
  FAILED: '#a8071a',
};
const STOPPED_STYLE = { background: '#ffffff', color: '#434343', borderColor: '#8c8c8c', borderStyle: 'dashed' } as const;

/** A notebook's status as a tag; transitional ones are marked busy for assistive technology. */
export function NotebookStatusTag({ status }: { status: NotebookStatus }) {
  const style = status === 'STOPPED' ? STOPPED_STYLE : undefined;
  return (
    <Tag
      color={status === 'STOPPED' ? undefined : SOLID[status]}
      className={status === 'STOPPED' ? 'notebook-status-stopped' : undefined}
      style={{ marginInlineEnd: 0, ...style }}
      data-testid="notebook-status"
      data-status={status}
      aria-busy={isTransitional(status) || undefined}
    >
      {NOTEBOOK_STATUS_LABELS[status]}
    </Tag>
  );
}
