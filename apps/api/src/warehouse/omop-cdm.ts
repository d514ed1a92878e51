/** Column types of the OMOP CDM, as the warehouse stores them (the same names in DuckDB and PostgreSQL). */
export type CdmType = 'BIGINT' | 'DOUBLE PRECISION' | 'DATE' | 'TIMESTAMP' | 'VARCHAR';

export interface CdmColumn {
  name: string;
  type: CdmType;
  /** Names the column had in CDM v5.3, read when the v5.4 name is absent. */
  v53Names?: string[];
}

export interface CdmTable {
  name: string;
  columns: CdmColumn[];
}

const I = 'BIGINT';
const F = 'DOUBLE PRECISION';
const D = 'DATE';
const T = 'TIMESTAMP';
const V = 'VARCHAR';

function table(name: string, spec: string): CdmTable {
  const types: Record<string, CdmType> = { I, F, D, T, V };
  return {
    name,
    columns: spec
      .trim()
      .split(/\s+/)
      .map((item) => {
        const [column, code, old] = item.split(':');
        return { name: column!, type: types[code!]!, ...(old && { v53Names: old.split('|') }) };
      }),
  };
}

/** The OMOP CDM v5.4 tables the warehouse holds: the clinical tables and the vocabulary. */
export const CDM_TABLES: readonly CdmTable[] = [
  table('person', `person_id:I gender_concept_id:I year_of_birth:I month_of_birth:I day_of_birth:I birth_datetime:T
    race_concept_id:I ethnicity_concept_id:I location_id:I provider_id:I care_site_id:I person_source_value:V
    gender_source_value:V gender_source_concept_id:I race_source_value:V race_source_concept_id:I
    ethnicity_source_value:V ethnicity_source_concept_id:I`),
  table('observation_period', `observation_period_id:I person_id:I observation_period_start_date:D
    observation_period_end_date:D period_type_concept_id:I`),
  table('visit_occurrence', `visit_occurrence_id:I person_id:I visit_concept_id:I visit_start_date:D visit_start_datetime:T
    visit_end_date:D visit_end_datetime:T visit_type_concept_id:I provider_id:I care_site_id:I visit_source_value:V
    visit_source_concept_id:I admitted_from_concept_id:I:admitting_source_concept_id
    admitted_from_source_value:V:admitting_source_value discharged_to_concept_id:I:discharge_to_concept_id
    discharged_to_source_value:V:discharge_to_source_value preceding_visit_occurrence_id:I`),
  table('condition_occurrence', `condition_occurrence_id:I person_id:I condition_concept_id:I condition_start_date:D
    condition_start_datetime:T condition_end_date:D condition_end_datetime:T condition_type_concept_id:I
    condition_status_concept_id:I stop_reason:V provider_id:I visit_occurrence_id:I visit_detail_id:I
    condition_source_value:V condition_source_concept_id:I condition_status_source_value:V`),
  table('drug_exposure', `drug_exposure_id:I person_id:I drug_concept_id:I drug_exposure_start_date:D
    drug_exposure_start_datetime:T drug_exposure_end_date:D drug_exposure_end_datetime:T verbatim_end_date:D
    drug_type_concept_id:I stop_reason:V refills:I quantity:F days_supply:I sig:V route_concept_id:I lot_number:V
    provider_id:I visit_occurrence_id:I visit_detail_id:I drug_source_value:V drug_source_concept_id:I
    route_source_value:V dose_unit_source_value:V`),
  table('procedure_occurrence', `procedure_occurrence_id:I person_id:I procedure_concept_id:I procedure_date:D
    procedure_datetime:T procedure_end_date:D procedure_end_datetime:T procedure_type_concept_id:I
    modifier_concept_id:I quantity:I provider_id:I visit_occurrence_id:I visit_detail_id:I procedure_source_value:V
    procedure_source_concept_id:I modifier_source_value:V`),
  table('measurement', `measurement_id:I person_id:I measurement_concept_id:I measurement_date:D measurement_datetime:T
    measurement_time:V measurement_type_concept_id:I operator_concept_id:I value_as_number:F value_as_concept_id:I
    unit_concept_id:I range_low:F range_high:F provider_id:I visit_occurrence_id:I visit_detail_id:I
    measurement_source_value:V measurement_source_concept_id:I unit_source_value:V unit_source_concept_id:I
    value_source_value:V measurement_event_id:I meas_event_field_concept_id:I`),
  table('observation', `observation_id:I person_id:I observation_concept_id:I observation_date:D observation_datetime:T
    observation_type_concept_id:I value_as_number:F value_as_string:V value_as_concept_id:I qualifier_concept_id:I
    unit_concept_id:I provider_id:I visit_occurrence_id:I visit_detail_id:I observation_source_value:V
    observation_source_concept_id:I unit_source_value:V qualifier_source_value:V value_source_value:V
    observation_event_id:I obs_event_field_concept_id:I`),
  table('death', `person_id:I death_date:D death_datetime:T death_type_concept_id:I cause_concept_id:I
    cause_source_value:V cause_source_concept_id:I`),
  table('concept', `concept_id:I concept_name:V domain_id:V vocabulary_id:V concept_class_id:V standard_concept:V
    concept_code:V valid_start_date:D valid_end_date:D invalid_reason:V`),
  table('concept_ancestor', `ancestor_concept_id:I descendant_concept_id:I min_levels_of_separation:I
    max_levels_of_separation:I`),
  table('concept_relationship', `concept_id_1:I concept_id_2:I relationship_id:V valid_start_date:D valid_end_date:D
    invalid_reason:V`),
  table('vocabulary', `vocabulary_id:V vocabulary_name:V vocabulary_reference:V vocabulary_version:V vocabulary_concept_id:I`),
  table('domain', `domain_id:V domain_name:V domain_concept_id:I`),
  // Eras (derived tables): loaded when a dataset has them, built by OHDSI's rules when it does not (era-builder.ts).
  table('drug_era', `drug_era_id:I person_id:I drug_concept_id:I drug_era_start_date:D drug_era_end_date:D
    drug_exposure_count:I gap_days:I`),
  table('condition_era', `condition_era_id:I person_id:I condition_concept_id:I condition_era_start_date:D
    condition_era_end_date:D condition_occurrence_count:I`),
];

export const CDM_TABLE_NAMES = CDM_TABLES.map((t) => t.name);

/** Indexes that make cohort queries fast on PostgreSQL (DuckDB scans columns and needs none). */
export const CDM_POSTGRES_INDEXES: readonly [string, string[]][] = [
  ['person', ['person_id']],
  ['observation_period', ['person_id']],
  ['visit_occurrence', ['person_id', 'visit_concept_id']],
  ['condition_occurrence', ['person_id', 'condition_concept_id']],
  ['drug_exposure', ['person_id', 'drug_concept_id']],
  ['procedure_occurrence', ['person_id', 'procedure_concept_id']],
  ['measurement', ['person_id', 'measurement_concept_id']],
  ['observation', ['person_id', 'observation_concept_id']],
  ['death', ['person_id']],
  ['concept', ['concept_id']],
  ['concept_ancestor', ['ancestor_concept_id']],
  ['drug_era', ['person_id', 'drug_concept_id']],
  ['condition_era', ['person_id', 'condition_concept_id']],
];

/** `CREATE TABLE` for one CDM table in a schema (identifiers come from the catalogue above only). */
export function createTableSql(schema: string, t: CdmTable): string {
  return `CREATE TABLE "${schema}"."${t.name}" (${t.columns.map((c) => `"${c.name}" ${c.type}`).join(', ')})`;
}
