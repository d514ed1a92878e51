import dynamic from 'next/dynamic';
import Link from 'next/link';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { skipToken } from '@reduxjs/toolkit/query';
import { Empty } from 'antd';
import { useGetCohortQuery } from '../api/get-cohort';
import { LoadFailure } from '@/components/load-failure';
import { LoadingStatus } from '@/components/loading-status';

const loading = () => <LoadingStatus label="Loading the cohort" padding={48} />;
// The details (antd Table, Descriptions, the dialogs and the result tables; the charts later still):
// a chunk of their own, rendered on the server with the cohort (`initialQueries`) and taken over once loaded.
const CohortDetail = dynamic(() => import('./cohort-detail'), { loading });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
const H1 = { fontSize: 24, fontWeight: 600, margin: '0 0 16px' } as const;

/** A missing cohort, or a draft the viewer may not see: the API says 404 for both (and 400 for a malformed id). */
function isNotFound(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 404 || status === 400;
}

/** One cohort, or why it cannot be shown. */
export function CohortPage({ cohortId }: { cohortId: string }) {
  const { data, error, isError, isFetching, refetch } = useGetCohortQuery(cohortId || skipToken);
  let body;
  if (data) {
    body = <CohortDetail cohort={data} />;
  } else if (isNotFound(error)) {
    body = (
      <>
        <h1 style={H1}>Cohort not found</h1>
        <section style={PANEL}>
          <Empty description={<span style={{ color: '#595959' }}>This cohort does not exist, or it is a draft that only its author and data stewards can see.</span>} />
        </section>
      </>
    );
  } else if (isError) {
    body = (
      <>
        <h1 style={H1}>Cohort</h1>
        <section style={PANEL}>
          <LoadFailure title="The cohort could not be loaded." error={error} onRetry={() => void refetch()} retrying={isFetching} />
        </section>
      </>
    );
  } else {
    body = (
      <>
        <h1 style={H1}>Cohort</h1>
        {loading()}
      </>
    );
  }
  return (
    <>
      <nav aria-label="Breadcrumb" style={{ marginBottom: 12 }}>
        <Link href="/cohorts">
          <ArrowLeftOutlined aria-hidden /> All cohorts
        </Link>
      </nav>
      {body}
    </>
  );
}
