import { useState, type ReactNode } from 'react';
import Link from 'next/link';
import { Alert } from 'antd';
import type { Cohort, Me } from '@hdp/contract';
import { can } from '@hdp/contract/permissions';
import { awaitingText, shownVersion } from '@/lib/cohorts/published-version';
import { formatDate } from '@/lib/dates/format-date';
import { LoadingStatus } from '@/components/loading-status';
import type { PageQueries } from '@/lib/api/server-queries';
import { queriesApi, useListQueriesQuery } from '@/features/data-explorer/api/queries';
import { listCohortsApi, useListCohortsQuery } from '@/features/cohorts/api/list-cohorts';
import { listWorkbenchesApi, useListWorkbenchesQuery } from '@/features/workbenches/api/list-workbenches';
import { datasetApi, useGetDatasetQuery } from '../api/get-dataset';
import { PANEL, PANEL_TITLE } from './panel-style';

/** How many recent items each list shows. */
export const RECENT_COUNT = 5;

/** The calls of the recent lists (the home page waits on the same ones: RTK Query shares them). */
export const recentQueriesArgs = (me: Me) => ({ skip: 0, limit: RECENT_COUNT, created_by: me.id, order_by: '-updated_at' }) as const;
export const RECENT_COHORTS_ARGS = { skip: 0, limit: RECENT_COUNT, order_by: '-updated_at' } as const;
export const RECENT_WORKBENCHES_ARGS = { skip: 0, limit: RECENT_COUNT } as const;
/** A data steward's queue: published cohorts whose newest version awaits review, oldest change first. */
export const AWAITING_REVIEW_ARGS = { skip: 0, limit: RECENT_COUNT, status: 'AWAITING_REVIEW', order_by: 'updated_at' } as const;
const reviews = (me: Me) => can(me, 'cohorts:publish');

/** The home page's calls, for the web server to render the page with their answers (the same the hooks below make). */
export const homeInitialQueries: PageQueries = ({ me }) => [
  ...(can(me, 'dataExplorer:readDataset') ? [datasetApi.endpoints.getDataset.initiate()] : []),
  ...(can(me, 'queries:list') ? [queriesApi.endpoints.listQueries.initiate(recentQueriesArgs(me))] : []),
  ...(can(me, 'cohorts:list') ? [listCohortsApi.endpoints.listCohorts.initiate(RECENT_COHORTS_ARGS)] : []),
  ...(reviews(me) ? [listCohortsApi.endpoints.listCohorts.initiate(AWAITING_REVIEW_ARGS)] : []),
  ...(can(me, 'workbenches:list') ? [listWorkbenchesApi.endpoints.listWorkbenches.initiate(RECENT_WORKBENCHES_ARGS)] : []),
];

/**
 * Whether every panel of the home page the user may see has its first answer (data or failure).
 * The page shows them together then: panels filling in one by one would push the ones below them
 * down while the user reads (layout shift).
 */
export function useHomeDataSettled(me: Me): boolean {
  const dataset = useGetDatasetQuery(undefined, { skip: !can(me, 'dataExplorer:readDataset') });
  const queries = useListQueriesQuery(recentQueriesArgs(me), { skip: !can(me, 'queries:list') });
  const cohorts = useListCohortsQuery(RECENT_COHORTS_ARGS, { skip: !can(me, 'cohorts:list') });
  const workbenches = useListWorkbenchesQuery(RECENT_WORKBENCHES_ARGS, { skip: !can(me, 'workbenches:list') });
  const awaiting = useListCohortsQuery(AWAITING_REVIEW_ARGS, { skip: !reviews(me) });
  // Once shown, the panels stay: a panel's own later loading (a retry of a failed call, which its
  // mounting starts) must not take the page back to the spinner.
  const [settled, setSettled] = useState(false);
  if (!settled && [dataset, queries, cohorts, workbenches, awaiting].every((call) => !call.isLoading)) setSettled(true);
  return settled;
}

interface RecentItem {
  id: string;
  href: string;
  name: string;
  detail: string;
}

interface RecentListProps {
  title: string;
  items: RecentItem[] | undefined;
  isLoading: boolean;
  isError: boolean;
  empty: ReactNode;
  all: { href: string; label: string };
}

/** One list of recent items: loading, failed, empty, or the items with a link to the whole list. */
export function RecentList({ title, items, isLoading, isError, empty, all }: RecentListProps) {
  const id = `recent-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section style={PANEL} aria-labelledby={id}>
      <h2 id={id} style={PANEL_TITLE}>
        {title}
      </h2>
      {items ? (
        items.length === 0 ? (
          <p style={{ margin: 0, color: '#595959' }}>{empty}</p>
        ) : (
          <ul className="hdp-recent-list">
            {items.map((item) => (
              <li key={item.id}>
                <Link href={item.href} prefetch={false}>
                  {item.name}
                </Link>
                <span>{item.detail}</span>
              </li>
            ))}
          </ul>
        )
      ) : isLoading ? (
        <LoadingStatus label={`Loading ${title.toLowerCase()}`} padding={16} />
      ) : isError ? (
        <Alert type="warning" showIcon title={`${title} could not be loaded.`} />
      ) : null}
      <p style={{ margin: '12px 0 0' }}>
        <Link href={all.href} prefetch={false}>
          {all.label}
        </Link>
      </p>
    </section>
  );
}

function RecentQueries({ me }: { me: Me }) {
  const { data, isLoading, isError } = useListQueriesQuery(recentQueriesArgs(me));
  return (
    <RecentList
      title="Your recent queries"
      items={data?.queries.map((q) => ({ id: q.id, href: `/data-explorer?queryId=${q.id}`, name: q.name, detail: `Edited ${formatDate(q.updated_at)}` }))}
      isLoading={isLoading}
      isError={isError}
      empty="You have no saved queries yet."
      all={{ href: '/data-explorer', label: 'Open the data explorer' }}
    />
  );
}

/** "293 persons · Published (version 1) · version 3 awaits review": the count beside "Published" is the published version's. */
function cohortDetail(cohort: Cohort): string {
  const shown = shownVersion(cohort);
  const status = `${cohort.status.charAt(0)}${cohort.status.slice(1).toLowerCase()}`;
  return [
    `${shown.countDisplay} persons`,
    shown.published ? `${status} (version ${shown.version})` : status,
    ...(shown.awaiting ? [`version ${shown.awaiting.version} (${shown.awaiting.countDisplay} persons) awaits review`] : []),
  ].join(' · ');
}

function RecentCohorts() {
  const { data, isLoading, isError } = useListCohortsQuery(RECENT_COHORTS_ARGS);
  return (
    <RecentList
      title="Recent cohorts"
      items={data?.cohorts.map((c) => ({
        id: c.id,
        href: `/cohorts/${c.id}`,
        name: c.name,
        detail: cohortDetail(c),
      }))}
      isLoading={isLoading}
      isError={isError}
      empty="No cohorts yet."
      all={{ href: '/cohorts', label: 'All cohorts' }}
    />
  );
}

function RecentWorkbenches() {
  const { data, isLoading, isError } = useListWorkbenchesQuery(RECENT_WORKBENCHES_ARGS);
  return (
    <RecentList
      title="Your workbenches"
      items={data?.workbenches.map((w) => ({
        id: w.id,
        href: `/workbenches/${w.id}`,
        name: w.name,
        detail: `${w.member_count} ${w.member_count === 1 ? 'member' : 'members'}`,
      }))}
      isLoading={isLoading}
      isError={isError}
      empty="You are not a member of any workbench yet."
      all={{ href: '/workbenches', label: 'All workbenches' }}
    />
  );
}

/** A data steward's review queue: how many cohort versions await their review, and the first few. */
function AwaitingReview() {
  const { data, isLoading, isError } = useListCohortsQuery(AWAITING_REVIEW_ARGS);
  const total = data ? `${data.total.toLocaleString('en-GB')}${data.total_capped ? '+' : ''}` : '';
  return (
    <RecentList
      title={data ? `Awaiting your review (${total})` : 'Awaiting your review'}
      items={data?.cohorts.map((c) => {
        const shown = shownVersion(c);
        return {
          id: c.id,
          href: `/cohorts/${c.id}`,
          name: c.name,
          detail: shown.awaiting ? `${awaitingText(shown.awaiting)}; version ${shown.version} (${shown.countDisplay} persons) is published` : cohortDetail(c),
        };
      })}
      isLoading={isLoading}
      isError={isError}
      empty="No cohort version awaits review."
      all={{ href: '/cohorts?status=awaiting_review', label: 'All cohorts awaiting review' }}
    />
  );
}

/** The user's recent queries, cohorts and workbenches: each list only when their roles may read it. */
export function RecentWork({ me }: { me: Me }) {
  return (
    <>
      {reviews(me) ? <AwaitingReview /> : null}
      {can(me, 'queries:list') ? <RecentQueries me={me} /> : null}
      {can(me, 'cohorts:list') ? <RecentCohorts /> : null}
      {can(me, 'workbenches:list') ? <RecentWorkbenches /> : null}
    </>
  );
}
