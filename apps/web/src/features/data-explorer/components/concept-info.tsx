import { skipToken } from '@reduxjs/toolkit/query';
import type { Concept } from '@hdp/contract';
import { useSearchConceptsQuery } from '../api/explorer-schema';

/** One concept looked up by its id (concept search matches ids exactly), within its domain when known. */
export function useConcept(conceptId: number | undefined, domain?: string): Concept | undefined {
  const { data } = useSearchConceptsQuery(conceptId === undefined ? skipToken : { search: String(conceptId), domain: domain || undefined, limit: 5 });
  return data?.concepts.find((c) => c.concept_id === conceptId);
}

/** A concept's name ("Concept 123" until it is known). */
export function ConceptName({ conceptId, domain }: { conceptId: number; domain?: string }) {
  const concept = useConcept(conceptId, domain);
  return <span className="concept-name">{concept?.concept_name ?? `Concept ${conceptId}`}</span>;
}

/** The unit most records of a measurement concept give ("%"), with the others named in its title; nothing when none. */
export function MeasurementUnit({ conceptId, withAlternatives = false }: { conceptId: number | undefined; withAlternatives?: boolean }) {
  const concept = useConcept(conceptId, 'Measurement');
  const [unit, ...others] = concept?.units ?? [];
  if (!unit) return null;
  const title = `${unit.name}${others.length ? `; some records use ${others.map((u) => u.code).join(', ')}` : ''}`;
  return (
    <span className="measurement-unit" title={title}>
      {unit.code}
      {withAlternatives && others.length ? <span style={{ color: '#5b6470' }}> (most records; also {others.map((u) => u.code).join(', ')})</span> : null}
    </span>
  );
}
