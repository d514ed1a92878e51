import { useState, type ReactNode } from 'react';
import { CheckCircleFilled, CloseCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import { Checkbox, Modal } from 'antd';
import type { CohortDetail } from '@hdp/contract';
import { describeChanges, hiddenCells, publishRefusal, versionOf } from '../cohort-review';
import { CohortDefinition } from './cohort-definition';

type Mark = 'ok' | 'no' | 'info';
const ICONS: Record<Mark, ReactNode> = {
  ok: <CheckCircleFilled aria-hidden style={{ color: '#2f7d32' }} />,
  no: <CloseCircleFilled aria-hidden style={{ color: '#b42318' }} />,
  info: <InfoCircleFilled aria-hidden style={{ color: '#0b5c7a' }} />,
};
const MARK_TEXT: Record<Mark, string> = { ok: 'Passed:', no: 'Not passed:', info: 'To check:' };

function Check({ mark, children }: { mark: Mark; children: ReactNode }) {
  return (
    <li style={{ display: 'flex', gap: 8, alignItems: 'baseline', margin: '6px 0' }}>
      {ICONS[mark]}
      <span>
        <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{MARK_TEXT[mark]} </span>
        {children}
      </span>
    </li>
  );
}

export interface PublishChecklistProps {
  cohort: CohortDetail;
  open: boolean;
  busy: boolean;
  onPublish: (version: number) => void;
  onCancel: () => void;
}

/**
 * What a data steward checks before publishing a version: its count against the suppression
 * threshold, the hidden demographic cells, the dataset, what changed since the published version,
 * and its criteria, which they confirm having read.
 */
export function PublishChecklist({ cohort, open, busy, onPublish, onCancel }: PublishChecklistProps) {
  const [reviewed, setReviewed] = useState(false);
  const version = versionOf(cohort, cohort.version);
  const threshold = cohort.result.suppression_threshold;
  const refusal = publishRefusal(cohort, threshold);
  const cells = hiddenCells(cohort.result);
  const published = versionOf(cohort, cohort.published_version);
  return (
    <Modal
      open={open}
      title={`Publish version ${cohort.version} of “${cohort.name}”?`}
      okText={`Publish version ${cohort.version}`}
      okButtonProps={{ disabled: !reviewed || refusal !== null, loading: busy }}
      onOk={() => onPublish(cohort.version)}
      onCancel={onCancel}
      afterOpenChange={(visible) => (visible ? undefined : setReviewed(false))}
      destroyOnHidden
    >
      <p style={{ margin: '0 0 8px' }}>Every researcher can then find it under Published and release it to a workbench.</p>
      <ul aria-label="Publication checklist" style={{ listStyle: 'none', padding: 0, margin: '0 0 12px' }}>
        <Check mark={refusal ? 'no' : 'ok'}>
          {refusal ?? `Persons: ${cohort.person_count_display}, at or above the suppression threshold (${threshold}).`}
        </Check>
        <Check mark="info">
          Hidden cells: {cells.hidden} of {cells.total} demographic cells are shown as “&lt; {threshold}” or suppressed.
        </Check>
        <Check mark="info">Dataset: {version?.dataset ?? '–'}.</Check>
        <Check mark="info">
          {published && version && published.version !== version.version
            ? `Since the published version ${published.version}: ${describeChanges(version, published)}`
            : 'Not published before.'}
        </Check>
      </ul>
      <h3 style={{ fontSize: 14, fontWeight: 600, margin: '0 0 4px' }}>Criteria of version {cohort.version}</h3>
      <div style={{ marginBottom: 12 }}>
        {version?.definition ? (
          <CohortDefinition summary={version.definition.summary} label={`Criteria of version ${cohort.version}`} />
        ) : (
          <p style={{ margin: 0, color: '#5b6470' }}>Not recorded for this version (it was made before criteria were kept).</p>
        )}
      </div>
      <Checkbox checked={reviewed} disabled={refusal !== null} onChange={(event) => setReviewed(event.target.checked)}>
        I have reviewed the criteria and the demographics of version {cohort.version}.
      </Checkbox>
    </Modal>
  );
}
