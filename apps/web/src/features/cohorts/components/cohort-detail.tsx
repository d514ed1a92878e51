import Link from 'next/link';
import { Alert, Flex } from 'antd';
import { RecordFacts, type RecordFact } from '@/components/record-facts';
import type { CohortDetail as Cohort } from '@hdp/contract';
import { formatDate } from '@/lib/dates/format-date';
import { QueryResults } from '@/components/results/query-results';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { canOpenSourceQuery, cohortAbilities } from '../cohort-abilities';
import { describeChanges, publishRefusal, versionAwaitingReview, versionOf } from '../cohort-review';
import { CohortActions } from './cohort-actions';
import { CohortDefinition } from './cohort-definition';
import { CohortStatusTag } from './cohort-status-tag';
import { CohortTagList } from './cohort-tag-list';
import { CohortVersions } from './cohort-versions';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24, marginBottom: 16 } as const;
const H2 = { fontSize: 16, fontWeight: 600, margin: '0 0 12px' } as const;

/** Where the cohort came from: a link to the query in the Data Explorer when the viewer may open it, else its name. */
function SourceQuery({ cohort, linked }: { cohort: Cohort; linked: boolean }) {
  const source = cohort.source_query;
  if (!source) return <span style={{ color: '#5b6470' }}>Deleted</span>;
  const name = `${source.name} (version ${source.version})`;
  return linked ? (
    <Link href={{ pathname: '/data-explorer', query: { queryId: source.id } }} aria-label={`Open ${source.name} in the Data Explorer`}>
      {name}
    </Link>
  ) : (
    <span>{name}</span>
  );
}

/** One cohort: its name, state, description and tags, facts, actions, demographics and version history. */
export default function CohortDetail({ cohort }: { cohort: Cohort }) {
  const { data: me } = useGetMeQuery();
  const abilities = cohortAbilities(cohort, me);
  const facts: RecordFact[] = [
    { key: 'persons', label: 'Persons', children: cohort.person_count_display },
    {
      key: 'version',
      label: 'Version',
      children:
        cohort.published_version !== null && cohort.published_version !== cohort.version
          ? `${cohort.version} (published: ${cohort.published_version})`
          : cohort.version,
    },
    { key: 'source', label: 'Source query', children: <SourceQuery cohort={cohort} linked={canOpenSourceQuery(cohort.source_query, me)} /> },
    { key: 'author', label: 'Author', children: cohort.author.email ?? '–' },
    { key: 'created', label: 'Created', children: formatDate(cohort.created_at) },
    { key: 'updated', label: 'Updated', children: formatDate(cohort.updated_at) },
    ...(cohort.published_at
      ? [{ key: 'published', label: 'Published', children: `${formatDate(cohort.published_at)}${cohort.published_by?.email ? ` by ${cohort.published_by.email}` : ''}` }]
      : []),
  ];

  const awaiting = versionAwaitingReview(cohort);
  const shown = versionOf(cohort, cohort.version);
  const previous = versionOf(cohort, awaiting !== null ? cohort.published_version : cohort.version - 1);
  const refusal = publishRefusal(cohort, cohort.result.suppression_threshold);
  return (
    <>
      {awaiting !== null && shown ? (
        <Alert
          type="info"
          showIcon
          role="status"
          style={{ marginBottom: 16 }}
          title={`Version ${awaiting} awaits a data steward's review. Researchers see version ${cohort.published_version} until it is published.`}
          description={describeChanges(shown, previous)}
        />
      ) : null}
      {refusal && cohort.status !== 'ARCHIVED' ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="Below the suppression threshold"
          description={`${refusal} It can be kept and re-run on newer data.`}
        />
      ) : null}
      <section aria-labelledby="cohort-heading" style={PANEL}>
        <Flex justify="space-between" align="start" wrap gap={12} style={{ marginBottom: 12 }}>
          <Flex align="center" gap={12} wrap>
            <h1 id="cohort-heading" style={{ fontSize: 24, fontWeight: 600, margin: 0, overflowWrap: 'anywhere' }}>
              {cohort.name}
            </h1>
            <CohortStatusTag status={cohort.status} />
          </Flex>
          <CohortActions cohort={cohort} abilities={abilities} />
        </Flex>
        {cohort.description ? (
          <p style={{ margin: '0 0 12px', whiteSpace: 'pre-line' }}>{cohort.description}</p>
        ) : (
          <p style={{ margin: '0 0 12px', color: '#5b6470' }}>No description.</p>
        )}
        <div style={{ marginBottom: 16 }}>
          <CohortTagList tags={cohort.tags} />
        </div>
        <RecordFacts label="About this cohort" items={facts} />
      </section>

      {shown?.definition ? (
        <section aria-labelledby="cohort-definition-heading" style={PANEL}>
          <h2 id="cohort-definition-heading" style={H2}>
            Definition of version {cohort.version}
          </h2>
          <p style={{ margin: '0 0 8px', color: '#5b6470' }}>The criteria its persons were selected by, as the run that made it used them.</p>
          <CohortDefinition summary={shown.definition.summary} label="Criteria" />
        </section>
      ) : (
        <section aria-labelledby="cohort-definition-heading" style={PANEL}>
          <h2 id="cohort-definition-heading" style={H2}>
            Definition of version {cohort.version}
          </h2>
          <p style={{ margin: 0, color: '#5b6470' }}>
            The criteria of this version were not kept: it was made before the platform recorded them. Its author or a data steward can re-run it to
            make a version whose criteria are kept.
          </p>
        </section>
      )}

      <section aria-labelledby="cohort-demographics-heading" style={PANEL}>
        <h2 id="cohort-demographics-heading" style={H2}>
          Demographics of version {cohort.version}
        </h2>
        <QueryResults result={cohort.result} showTiming={false} />
      </section>

      <section aria-labelledby="cohort-history-heading" style={PANEL}>
        <h2 id="cohort-history-heading" style={H2}>
          Version history
        </h2>
        <CohortVersions versions={cohort.versions} publishedVersion={cohort.published_version} />
      </section>
    </>
  );
}
