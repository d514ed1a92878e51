import dynamic from 'next/dynamic';
import type { QueryResult, ResultCell } from '@hdp/contract';
import { categoryLabel } from './category-label';

// ECharts is large: it loads once there is a result to draw.
const ResultCharts = dynamic(() => import('./result-charts').then((m) => m.ResultCharts), {
  ssr: false,
  loading: () => <p>Loading the charts…</p>,
});

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
const TABLE = { borderCollapse: 'collapse', width: '100%' } as const;
const CELL = { textAlign: 'left', padding: '4px 8px', borderBottom: '1px solid #e5e8ec', fontWeight: 400 } as const;

const SUPPRESSION_NOTE = 'a small count, or hidden so that one cannot be worked out';

/** A count as released: hidden ones marked, with why in words for screen readers. */
export function CellValue({ cell }: { cell: Pick<ResultCell, 'display' | 'suppressed'> }) {
  if (!cell.suppressed) return <>{cell.display}</>;
  return (
    <span className="suppressed" title={SUPPRESSION_NOTE}>
      {cell.display}
      <sup aria-hidden="true">*</sup>
      <span style={VISUALLY_HIDDEN}> ({SUPPRESSION_NOTE})</span>
    </span>
  );
}

function Breakdown({ title, cells }: { title: string; cells: readonly ResultCell[] }) {
  return (
    <table className="breakdown" style={TABLE}>
      <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 4 }}>{title}</caption>
      <thead>
        <tr>
          <th scope="col" style={CELL}>{title}</th>
          <th scope="col" style={{ ...CELL, textAlign: 'right' }}>Persons</th>
        </tr>
      </thead>
      <tbody>
        {cells.map((cell) => (
          <tr key={cell.key}>
            <th scope="row" style={CELL}>{categoryLabel(cell.label)}</th>
            <td style={{ ...CELL, textAlign: 'right' }}>
              <CellValue cell={cell} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A run's result: the person count, the breakdowns as numbers and as charts; hidden cells marked.
 * Cohorts show the same result, kept from the run that made them, without the run's duration.
 */
export function QueryResults({ result, showTiming = true }: { result: QueryResult; showTiming?: boolean }) {
  const { breakdowns } = result;
  const anySuppressed =
    result.person_count === null ||
    [breakdowns.sex, breakdowns.age_band, breakdowns.race, breakdowns.ethnicity].some((cells) => cells.some((c) => c.suppressed));
  return (
    <div className="query-results">
      <p style={{ margin: '0 0 12px' }}>
        <span style={{ fontSize: 32, fontWeight: 600 }} data-testid="person-count">
          {result.person_count_display}
        </span>{' '}
        persons{showTiming ? <span style={{ color: '#5b6470' }}> ({Math.round(result.execution_time_ms)} ms)</span> : null}
      </p>
      {result.withheld ? (
        // The tracker defence: this answer's persons are within a few of an earlier answer's, so its counts are withheld.
        <p className="withheld-note" role="note" style={{ color: '#5b6470' }}>
          {result.withheld}
        </p>
      ) : anySuppressed ? (
        <p className="suppression-note" style={{ color: '#5b6470' }}>
          * A person count from 1 to {result.suppression_threshold - 1} is shown as &quot;&lt; {result.suppression_threshold}&quot;. Cells
          marked &quot;suppressed&quot; hold a count from 1 to {result.suppression_threshold - 1}, or are hidden so that such a count cannot be
          worked out from the others; which is which is not shown.
        </p>
      ) : null}
      {!result.withheld && result.withheld_cells ? (
        // The tracker defence on cells: some cells' persons are within a few of an earlier answer's (or cell's).
        <p className="withheld-cells-note" role="note" style={{ color: '#5b6470' }}>
          {result.withheld_cells}
        </p>
      ) : null}
      {result.perturbed ? (
        <p className="perturbation-note" style={{ color: '#5b6470' }}>
          Counts are perturbed by a small amount, the same every time for the same persons.
        </p>
      ) : null}
      {result.withheld ? null : (
        <>
          <ResultCharts result={result} />
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', alignItems: 'start', gap: 16, marginTop: 16 }}>
            <Breakdown title="Sex" cells={breakdowns.sex} />
            <Breakdown title="Age band" cells={breakdowns.age_band} />
            <Breakdown title="Race" cells={breakdowns.race} />
            <Breakdown title="Ethnicity" cells={breakdowns.ethnicity} />
          </div>
        </>
      )}
    </div>
  );
}
