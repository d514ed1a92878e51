import dynamic from 'next/dynamic';
import { LoadingStatus } from '@/components/loading-status';

// The cards, the table and the filters (antd Table, Select, Card): a chunk of their own, rendered on
// the server with the list's first page (`initialQueries`) and taken over once loaded.
const CohortsList = dynamic(() => import('./cohorts-list'), {
  loading: () => <LoadingStatus label="Loading the cohorts" padding={48} />,
});

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

/** The Cohorts page: published cohorts and your own (all of them for a data steward), as cards or a table. */
export function CohortsPage() {
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Cohorts</h1>
      <section style={PANEL} aria-label="Cohorts list">
        <CohortsList />
      </section>
    </>
  );
}
