import { CRITERIA_ATTRIBUTES, type Criteria, type CriteriaKind } from '@hdp/contract';

/**
 * Where each criterion kind reads its events, after Circe's criteria SQL: the table, the record's
 * id (the event id), its concept, its start and end date (Circe's defaults for a missing end), its
 * type concept, and which attributes the kind accepts (the contract's `CRITERIA_ATTRIBUTES`).
 */
export interface CriteriaDomain {
  table: string;
  id: string;
  /** The concept a concept set is matched on; null when the kind has none. */
  concept: string | null;
  start: string;
  /** SQL of the end date over the record `t`. */
  end: string;
  type: string | null;
  /** The column of the record's source concept (`sourceConcept`); null when the kind has none. */
  source: string | null;
  /** The record names the visit it belongs to. */
  hasVisit: boolean;
  attributes: readonly (keyof Criteria)[];
}

const TABLES: Record<CriteriaKind, Omit<CriteriaDomain, 'attributes'>> = {
  ConditionOccurrence: {
    table: 'condition_occurrence', source: 'condition_source_concept_id', id: 'condition_occurrence_id', concept: 'condition_concept_id', start: 'condition_start_date',
    end: 'COALESCE(t."condition_end_date", t."condition_start_date" + 1)', type: 'condition_type_concept_id', hasVisit: true,
  },
  DrugExposure: {
    table: 'drug_exposure', source: 'drug_source_concept_id', id: 'drug_exposure_id', concept: 'drug_concept_id', start: 'drug_exposure_start_date',
    end: 'COALESCE(t."drug_exposure_end_date", t."drug_exposure_start_date" + CAST(t."days_supply" AS INTEGER), t."drug_exposure_start_date" + 1)',
    type: 'drug_type_concept_id', hasVisit: true,
  },
  DrugEra: {
    table: 'drug_era', source: null, id: 'drug_era_id', concept: 'drug_concept_id', start: 'drug_era_start_date', end: 't."drug_era_end_date"', type: null,
    hasVisit: false,
  },
  ConditionEra: {
    table: 'condition_era', source: null, id: 'condition_era_id', concept: 'condition_concept_id', start: 'condition_era_start_date', end: 't."condition_era_end_date"', type: null,
    hasVisit: false,
  },
  ProcedureOccurrence: {
    table: 'procedure_occurrence', source: 'procedure_source_concept_id', id: 'procedure_occurrence_id', concept: 'procedure_concept_id', start: 'procedure_date',
    end: '(t."procedure_date" + 1)', type: 'procedure_type_concept_id', hasVisit: true,
  },
  Measurement: {
    table: 'measurement', source: 'measurement_source_concept_id', id: 'measurement_id', concept: 'measurement_concept_id', start: 'measurement_date', end: '(t."measurement_date" + 1)',
    type: 'measurement_type_concept_id', hasVisit: true,
  },
  Observation: {
    table: 'observation', source: 'observation_source_concept_id', id: 'observation_id', concept: 'observation_concept_id', start: 'observation_date', end: '(t."observation_date" + 1)',
    type: 'observation_type_concept_id', hasVisit: true,
  },
  VisitOccurrence: {
    table: 'visit_occurrence', source: 'visit_source_concept_id', id: 'visit_occurrence_id', concept: 'visit_concept_id', start: 'visit_start_date', end: 't."visit_end_date"',
    type: 'visit_type_concept_id', hasVisit: true,
  },
  Death: {
    table: 'death', source: 'cause_source_concept_id', id: 'person_id', concept: 'cause_concept_id', start: 'death_date', end: '(t."death_date" + 1)', type: 'death_type_concept_id',
    hasVisit: false,
  },
  ObservationPeriod: {
    table: 'observation_period', source: null, id: 'observation_period_id', concept: null, start: 'observation_period_start_date', end: 't."observation_period_end_date"',
    type: 'period_type_concept_id', hasVisit: false,
  },
};

export const CRITERIA_DOMAINS = Object.fromEntries(
  Object.entries(TABLES).map(([kind, domain]) => [kind, { ...domain, attributes: CRITERIA_ATTRIBUTES[kind as CriteriaKind] }]),
) as Record<CriteriaKind, CriteriaDomain>;
