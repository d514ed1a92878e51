import Link from 'next/link';
import { Card, Flex } from 'antd';
import type { Cohort } from '@hdp/contract';
import { shownVersion } from '@/lib/cohorts/published-version';
import { formatDate } from '@/lib/dates/format-date';
import { CohortStatusTag } from './cohort-status-tag';
import { CohortTagList } from './cohort-tag-list';

const MUTED = { color: '#5b6470' } as const;

function CohortCard({ cohort }: { cohort: Cohort }) {
  const shown = shownVersion(cohort);
  return (
    <Card size="small" style={{ height: '100%' }} styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, height: '100%' } }}>
      <Flex justify="space-between" align="start" gap={8}>
        <h2 style={{ fontSize: 16, fontWeight: 600, margin: 0, overflowWrap: 'anywhere' }}>
          <Link href={`/cohorts/${cohort.id}`}>{cohort.name}</Link>
        </h2>
        <CohortStatusTag status={cohort.status} />
      </Flex>
      <p style={{ margin: 0 }}>
        <span style={{ fontSize: 20, fontWeight: 600 }}>{shown.countDisplay}</span> persons
        <span style={MUTED}> · version {shown.version}{shown.published ? ' (published)' : ''}</span>
      </p>
      {!shown.published && cohort.person_count === null ? <p style={{ ...MUTED, margin: 0 }}>Below the suppression threshold: it cannot be published.</p> : null}
      {shown.awaiting ? (
        <p style={{ ...MUTED, margin: 0 }}>
          Version {shown.awaiting.version} ({shown.awaiting.countDisplay} persons) awaits a data steward&apos;s review (version {shown.version} is published).
        </p>
      ) : null}
      {cohort.description ? (
        <p style={{ margin: 0, display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>{cohort.description}</p>
      ) : null}
      <CohortTagList tags={cohort.tags} label={`Tags of ${cohort.name}`} />
      <p style={{ ...MUTED, margin: 'auto 0 0', fontSize: 13 }}>
        By {cohort.author.email ?? 'a former user'} · updated {formatDate(cohort.updated_at)}
      </p>
    </Card>
  );
}

/** The cohorts as cards: name (a link to the cohort), status, persons, description, tags, author. */
export function CohortCards({ cohorts }: { cohorts: readonly Cohort[] }) {
  return (
    <ul
      aria-label="Cohorts"
      style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 16 }}
    >
      {cohorts.map((cohort) => (
        <li key={cohort.id}>
          <CohortCard cohort={cohort} />
        </li>
      ))}
    </ul>
  );
}
