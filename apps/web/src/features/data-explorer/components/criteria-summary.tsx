import { Fragment } from 'react';
import type { ExplorerTable, QueryGroup } from '@hdp/contract';
import { summarizeQuery } from '../criteria-summary';
import { ConceptName, MeasurementUnit } from './concept-info';

/** The query in plain words, with concept names and measurement units looked up. */
export function CriteriaSummary({ query, tables }: { query: QueryGroup; tables: readonly ExplorerTable[] }) {
  const parts = summarizeQuery(query, tables);
  return (
    <span className="criteria-summary">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part.kind === 'text' ? part.text : part.kind === 'concept' ? <ConceptName conceptId={part.conceptId} domain={part.domain} /> : <> <MeasurementUnit conceptId={part.conceptId} /></>}
        </Fragment>
      ))}
    </span>
  );
}
