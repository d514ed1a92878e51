import { useCallback, useState } from 'react';
import dynamic from 'next/dynamic';
import { useQueryFromUrl } from '../hooks/use-query-from-url';
import { LoadingStatus } from '@/components/loading-status';
import { AtlasActions } from '../atlas/atlas-actions';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

const loading = (label: string) => () => <LoadingStatus label={label} padding={24} />;
// While the query's code loads, its place keeps the height of an empty query's panel, so the saved
// queries below do not jump down when it arrives.
const loadingQuery = () => (
  <div style={{ ...PANEL, padding: 0, minHeight: 164, marginBottom: 16 }}>
    <LoadingStatus label="Loading the query" padding={48} />
  </div>
);
// The query builder, the results and the saved-queries table load after the first paint (and
// ECharts only with a result), which keeps the route's first-load JavaScript within budget.
const QueryWorkspace = dynamic(() => import('./query-workspace').then((m) => m.QueryWorkspace), { ssr: false, loading: loadingQuery });
const SavedQueries = dynamic(() => import('./saved-queries').then((m) => m.SavedQueries), { ssr: false, loading: loading('Loading the saved queries') });

/** The Data Explorer page: build, run and save queries; open saved ones. */
export function DataExplorerPage() {
  // Opening a saved query or starting over gives a fresh workspace: results of another query never show.
  const [opened, setOpened] = useState(0);
  const reopen = useCallback(() => setOpened((n) => n + 1), []);
  // A link can name a saved query to open (`?queryId=`), e.g. a cohort's source query.
  useQueryFromUrl(reopen);
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between', margin: '0 0 16px' }}>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>Data Explorer</h1>
        <AtlasActions onOpened={reopen} />
      </div>
      <QueryWorkspace key={opened} onStartOver={reopen} />
      <section aria-labelledby="saved-queries-heading" style={PANEL}>
        <h2 id="saved-queries-heading" style={{ fontSize: 16, fontWeight: 600, margin: '0 0 12px' }}>
          Saved queries
        </h2>
        <SavedQueries onOpen={reopen} />
      </section>
    </>
  );
}
