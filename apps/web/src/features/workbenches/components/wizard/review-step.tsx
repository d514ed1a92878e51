import type { ReactNode } from 'react';
import { Button } from 'antd';
import { useAppSelector } from '@/app/hooks';
import { formatSize } from '@/lib/files/document-size';
import { MEMBER_ROLE_LABELS } from '../../labels';
import { selectWorkbenchWizard } from '../../slice';
import { DATA_STEP, DESCRIPTION_STEP, USERS_STEP } from '../../wizard-rules';

const H3 = { fontSize: 15, fontWeight: 600, margin: 0 } as const;
const MUTED = { color: '#5b6470' } as const;

function ReviewSection({ id, title, step, stepTitle, onGoTo, children }: { id: string; title: string; step: number; stepTitle: string; onGoTo: (step: number) => void; children: ReactNode }) {
  return (
    <section aria-labelledby={id} style={{ borderBottom: '1px solid #f0f0f0', padding: '12px 0' }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, marginBottom: 6 }}>
        <h3 id={id} style={H3}>
          {title}
        </h3>
        <Button type="link" size="small" aria-label={`Change ${title.toLowerCase()} (${stepTitle})`} onClick={() => onGoTo(step)}>
          Change
        </Button>
      </div>
      {children}
    </section>
  );
}

function Items({ label, items, none }: { label: string; items: readonly string[]; none: string }) {
  if (items.length === 0) return <p style={{ ...MUTED, margin: 0 }}>{none}</p>;
  return (
    <ul aria-label={label} style={{ margin: 0, paddingInlineStart: 20 }}>
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

/** The review step: everything the wizard holds, on one page, each part with a way back to its step. */
export function ReviewStep({ titles, onGoTo }: { titles: readonly [string, string, string, string]; onGoTo: (step: number) => void }) {
  const draft = useAppSelector(selectWorkbenchWizard);
  return (
    <>
      <ReviewSection id="review-description" title="Description" step={DESCRIPTION_STEP} stepTitle={titles[DESCRIPTION_STEP]} onGoTo={onGoTo}>
        <p style={{ margin: '0 0 4px', fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="review-name">
          {draft.name.trim()}
        </p>
        <p style={{ margin: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="review-purpose">
          {draft.purpose.trim()}
        </p>
      </ReviewSection>
      <ReviewSection id="review-cohorts" title="Cohorts" step={DATA_STEP} stepTitle={titles[DATA_STEP]} onGoTo={onGoTo}>
        <Items
          label="Cohorts to release"
          none="No cohorts."
          items={draft.cohorts.cohorts.map((cohort) => {
            const version = cohort.version ? `, version ${cohort.version}` : '';
            const change = cohort.releasedVersion !== undefined && cohort.version !== cohort.releasedVersion ? ` (replaces version ${cohort.releasedVersion})` : '';
            const awaiting = cohort.awaitingVersion ? `; version ${cohort.awaitingVersion} awaits a data steward's review and is not released` : '';
            return `${cohort.name}: ${cohort.personCountDisplay} persons${version}${change}${awaiting}`;
          })}
        />
      </ReviewSection>
      <ReviewSection id="review-queries" title="Saved queries" step={DATA_STEP} stepTitle={titles[DATA_STEP]} onGoTo={onGoTo}>
        <Items label="Queries to copy" none="No queries." items={draft.queries.map((query) => query.name)} />
      </ReviewSection>
      <ReviewSection id="review-documents" title="Documents" step={DATA_STEP} stepTitle={titles[DATA_STEP]} onGoTo={onGoTo}>
        <Items label="Documents to copy" none="No documents." items={draft.documents.map((document) => `${document.name} (${formatSize(document.sizeBytes)})`)} />
      </ReviewSection>
      <ReviewSection id="review-members" title="Members" step={USERS_STEP} stepTitle={titles[USERS_STEP]} onGoTo={onGoTo}>
        <Items label="Members and roles" none="No members." items={draft.users.map((user) => `${user.name ? `${user.name} (${user.email})` : user.email}: ${MEMBER_ROLE_LABELS[user.role]}`)} />
      </ReviewSection>
    </>
  );
}
