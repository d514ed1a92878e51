import type { Criteria } from './schemas/cohort-definition';

// Values only from modules without zod: the web app imports this file through
// `@hdp/contract/criteria-attributes`, and a value import of the contract's index would bring every
// schema and zod into the data explorer's first load.

/** The domains a criterion can look at (Circe's criteria classes). */
export const CRITERIA_KINDS = [
  'ConditionOccurrence', 'DrugExposure', 'DrugEra', 'ConditionEra', 'ProcedureOccurrence', 'Measurement', 'Observation',
  'VisitOccurrence', 'Death', 'ObservationPeriod',
] as const;
export type CriteriaKind = (typeof CRITERIA_KINDS)[number];

/** Attributes every event domain with a concept, dates and a visit has (Circe's common criteria fields). */
const COMMON = ['kind', 'codesetId', 'sourceConcept', 'first', 'occurrenceStartDate', 'occurrenceEndDate', 'age', 'gender', 'typeConcepts', 'typeExclude', 'visitType', 'correlatedCriteria'] as const;
const ERA = ['kind', 'codesetId', 'first', 'occurrenceStartDate', 'occurrenceEndDate', 'age', 'gender', 'eraLength', 'occurrenceCount', 'correlatedCriteria'] as const;

/**
 * Which attributes a criterion of each kind may carry (Circe's criteria classes): the API refuses a
 * criterion with any other ("a DrugEra criterion has no valueAsNumber") and the builder offers
 * exactly these.
 */
export const CRITERIA_ATTRIBUTES: Record<CriteriaKind, readonly (keyof Criteria)[]> = {
  ConditionOccurrence: COMMON,
  DrugExposure: [...COMMON, 'daysSupply', 'quantity', 'refills'],
  DrugEra: ERA,
  ConditionEra: ERA,
  ProcedureOccurrence: COMMON,
  Measurement: [...COMMON, 'valueAsNumber', 'valueAsConcept', 'unit', 'rangeLow', 'rangeHigh', 'abnormal'],
  Observation: [...COMMON, 'valueAsNumber', 'valueAsConcept', 'unit'],
  VisitOccurrence: COMMON,
  Death: ['kind', 'codesetId', 'sourceConcept', 'occurrenceStartDate', 'age', 'gender', 'typeConcepts', 'typeExclude', 'correlatedCriteria'],
  ObservationPeriod: ['kind', 'first', 'occurrenceStartDate', 'occurrenceEndDate', 'age', 'gender', 'typeConcepts', 'periodLength', 'correlatedCriteria'],
};

/** Whether a criterion of this kind may carry the attribute. */
export function criteriaHasAttribute(kind: CriteriaKind, key: keyof Criteria): boolean {
  return CRITERIA_ATTRIBUTES[kind].includes(key);
}
