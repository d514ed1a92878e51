import dynamic from 'next/dynamic';
import type { Attrition, QueryGroup } from '@hdp/contract';
import { attritionMatches, withDefaults, type Definition } from './definition-model';
import { CellValue } from '@/components/results/query-results';

// ECharts is large: it loads once there is an attrition to draw, like the explorer's other charts.
const AttritionFunnel = dynamic(() => import('./attrition-funnel').then((m) => m.AttritionFunnel), { ssr: false, loading: () => <p>Loading the chart…</p> });

const TABLE = { borderCollapse: 'collapse', width: '100%' } as const;
const CELL = { textAlign: 'left', padding: '4px 8px', borderBottom: '1px solid #e5e8ec', fontWeight: 400, verticalAlign: 'top' } as const;
const NUMBER = { ...CELL, textAlign: 'right', whiteSpace: 'nowrap' } as const;

/**
 * The attrition of a cohort definition: persons and events after each step, the entry steps
 * included, as a table and a funnel; then ATLAS's inclusion report (each rule alone, and its gain).
 */
export function AttritionView({ attrition, caption = 'Attrition', query }: { attrition: Attrition; caption?: string; query?: QueryGroup | null }) {
  // An answer that is an earlier answer again (the same persons) carries that answer's steps, not these.
  if (query?.cohortDefinition && !attritionMatches(attrition, withDefaults(query.cohortDefinition as Partial<Definition>))) {
    return (
      <p className="attrition-not-released" role="note" style={{ color: '#5b6470' }}>
        These are exactly the persons of an earlier answer, so its counts are given again; the attrition of this definition is not released separately.
      </p>
    );
  }
  return (
    <div className="attrition" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))', gap: 16, alignItems: 'start' }}>
      {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */}
      <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${caption}, table`}>
        <table className="attrition-table" style={TABLE}>
          <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 4 }}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col" style={CELL}>Step</th>
              <th scope="col" style={NUMBER}>Persons</th>
              <th scope="col" style={NUMBER}>Events</th>
            </tr>
          </thead>
          <tbody>
            {attrition.steps.map((s, i) => (
              <tr key={`${s.step}-${s.rule ?? i}`}>
                <th scope="row" style={CELL}>
                  {s.step === 'inclusion_rule' ? `Rule ${(s.rule ?? 0) + 1}: ${s.label}` : s.label}
                </th>
                <td style={NUMBER}>
                  <CellValue cell={s.persons} />
                </td>
                <td style={NUMBER}>
                  <CellValue cell={s.events} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {attrition.inclusion_rules.length > 0 ? (
          <table className="inclusion-report" style={{ ...TABLE, marginTop: 12 }}>
            <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 4 }}>Inclusion rules, each on its own</caption>
            <thead>
              <tr>
                <th scope="col" style={CELL}>Rule</th>
                <th scope="col" style={NUMBER}>Persons passing it</th>
                <th scope="col" style={NUMBER}>Gain without it</th>
              </tr>
            </thead>
            <tbody>
              {attrition.inclusion_rules.map((r) => (
                <tr key={r.rule}>
                  <th scope="row" style={CELL}>{`Rule ${r.rule + 1}: ${r.name}`}</th>
                  <td style={NUMBER}>
                    <CellValue cell={r.persons_passing} />
                  </td>
                  <td style={NUMBER}>
                    <CellValue cell={r.gain} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
      <AttritionFunnel attrition={attrition} />
    </div>
  );
}
