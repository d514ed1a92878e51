import { createContext, useContext } from 'react';
import type { AttritionStep } from '@hdp/contract';
import { CellValue } from '@/components/results/query-results';
import type { LiveCounts } from './use-live-counts';

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

export const LiveCountsContext = createContext<LiveCounts | null>(null);

/** The attrition row of a step (an inclusion rule by its position), from the live result. */
export function stepOf(counts: LiveCounts | null, step: AttritionStep['step'], rule?: number): AttritionStep | undefined {
  if (!counts?.attritionMatches) return undefined;
  return counts.result?.attrition?.steps.find((s) => s.step === step && (rule === undefined || s.rule === rule));
}

/**
 * A step's live count beside it: persons (and events) after the step. A count of an earlier
 * version of the definition is marked as such while the new one is counted, never shown as current.
 */
export function StepCount({ step, rule, label }: { step: AttritionStep['step']; rule?: number; label: string }) {
  const counts = useContext(LiveCountsContext);
  const row = stepOf(counts, step, rule);
  const waiting = counts?.status === 'loading';
  const stale = !!counts && (counts.stale || counts.status !== 'current');
  const className = `step-count${stale ? ' step-count-stale' : ''}`;
  const style = { fontSize: 13, color: stale ? '#5b6470' : '#1f2933', background: stale ? '#f5f5f5' : '#e6f4ff', border: `1px ${stale ? 'dashed #8c8c8c' : 'solid #91caff'}`, borderRadius: 4, padding: '0 6px', whiteSpace: 'nowrap' } as const;
  // The step's name for screen readers (the count sits beside the step's controls); aria-label is not allowed on a plain span.
  const name = <span style={VISUALLY_HIDDEN}>{label}: </span>;
  if (!row) {
    // An answer withheld whole, or one that is an earlier answer again (other steps), releases no count for this step.
    const unreleased = !!counts?.result && (!!counts.result.withheld || !counts.attritionMatches);
    return (
      <span className={className} style={style} data-step={step}>
        {name}
        {waiting ? 'counting…' : unreleased ? 'not released' : '—'}
      </span>
    );
  }
  return (
    <span className={className} style={style} data-step={step}>
      {name}
      <CellValue cell={row.persons} /> persons · <CellValue cell={row.events} /> events{stale ? (waiting ? ' · earlier count, updating…' : ' · earlier count') : ''}
    </span>
  );
}
