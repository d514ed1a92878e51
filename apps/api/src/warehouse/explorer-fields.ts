import type { ExplorerField, ExplorerTable, QueryOperator } from '@hdp/contract';
import type { CdmType } from './omop-cdm';
import { CONCEPT as C } from './synthetic-vocabulary';

/** How a field reads in SQL. */
export type FieldSource =
  | { kind: 'column'; column: string; sqlType: CdmType }
  /** Age in whole years at the record's date (year of the date minus year of birth). */
  | { kind: 'ageAtEvent'; dateColumn: string }
  /** Age in whole years now. */
  | { kind: 'age' }
  /** How many of the person's records match the group: "at least N". */
  | { kind: 'recordCount' };

export interface FieldDefinition extends ExplorerField {
  table: string;
  source: FieldSource;
}

export interface TableDefinition {
  name: string;
  label: string;
  kind: 'person' | 'event';
  fields: FieldDefinition[];
}

const op = (name: QueryOperator, label: string) => ({ name, label });
const CONCEPT_OPERATORS = [op('in', 'is any of'), op('notIn', 'is none of'), op('=', 'is'), op('!=', 'is not')];
const LIST_OPERATORS = [op('=', 'is'), op('!=', 'is not'), op('in', 'is any of'), op('notIn', 'is none of')];
const ORDERED = [
  op('=', '='), op('!=', '≠'), op('<', '<'), op('<=', '≤'), op('>', '>'), op('>=', '≥'),
  op('between', 'between'), op('notBetween', 'not between'),
];
const NUMBER_OPERATORS = [...ORDERED, op('null', 'is empty'), op('notNull', 'is not empty')];
const DATE_OPERATORS = [...ORDERED.map((o) => ({ ...o, label: { '<': 'before', '<=': 'on or before', '>': 'after', '>=': 'on or after' }[o.name as string] ?? o.label })), op('null', 'is empty'), op('notNull', 'is not empty')];
const COUNT_OPERATORS = [op('>=', 'at least'), op('>', 'more than'), op('=', 'exactly'), op('<=', 'at most'), op('<', 'fewer than')];

function conceptField(table: string, column: string, label: string, domain: string): FieldDefinition {
  return {
    table, name: `${table}.${column}`, label, type: 'concept', operators: CONCEPT_OPERATORS,
    valueEditor: { type: 'concept', domain }, includesDescendants: true,
    source: { kind: 'column', column, sqlType: 'BIGINT' },
  };
}
function listField(table: string, column: string, label: string, values: [number, string][]): FieldDefinition {
  return {
    table, name: `${table}.${column}`, label, type: 'concept', operators: LIST_OPERATORS,
    valueEditor: { type: 'select', values: values.map(([value, l]) => ({ value, label: l })) },
    source: { kind: 'column', column, sqlType: 'BIGINT' },
  };
}
function numberField(table: string, column: string, label: string): FieldDefinition {
  return { table, name: `${table}.${column}`, label, type: 'number', operators: NUMBER_OPERATORS, valueEditor: { type: 'number' }, source: { kind: 'column', column, sqlType: 'DOUBLE PRECISION' } };
}
function dateField(table: string, column: string, label: string): FieldDefinition {
  return { table, name: `${table}.${column}`, label, type: 'date', operators: DATE_OPERATORS, valueEditor: { type: 'date' }, source: { kind: 'column', column, sqlType: 'DATE' } };
}
function ageAtEvent(table: string, dateColumn: string): FieldDefinition {
  return {
    table, name: `${table}.age_at_event`, label: 'Age at the time (years)', type: 'number', operators: ORDERED,
    valueEditor: { type: 'number' }, source: { kind: 'ageAtEvent', dateColumn },
    description: 'Age in whole years in the year of the record.',
  };
}
function recordCount(table: string): FieldDefinition {
  return {
    table, name: `${table}.record_count`, label: 'Number of matching records', type: 'count', operators: COUNT_OPERATORS,
    valueEditor: { type: 'number' }, source: { kind: 'recordCount' },
    description: "How many of the person's records match the other rules of the group, e.g. at least 2.",
  };
}

function eventTable(name: string, label: string, dateColumn: string, fields: FieldDefinition[]): TableDefinition {
  return { name, label, kind: 'event', fields: [...fields, ageAtEvent(name, dateColumn), recordCount(name)] };
}

/**
 * The allow-list of the data explorer: the only tables, fields and operators a query may use.
 * The compiler takes every identifier it writes from here.
 */
export const EXPLORER_TABLES: readonly TableDefinition[] = [
  {
    name: 'person', label: 'Person', kind: 'person',
    fields: [
      listField('person', 'gender_concept_id', 'Sex', [[C.female, 'Female'], [C.male, 'Male']]),
      { table: 'person', name: 'person.age', label: 'Age (years)', type: 'number', operators: ORDERED, valueEditor: { type: 'number' }, source: { kind: 'age' }, description: 'Age in whole years this year.' },
      { ...numberField('person', 'year_of_birth', 'Year of birth'), operators: ORDERED },
      listField('person', 'race_concept_id', 'Race', [
        [C.white, 'White'], [C.black, 'Black or African American'], [C.asian, 'Asian'],
        [C.nativeAmerican, 'American Indian or Alaska Native'], [C.pacificIslander, 'Native Hawaiian or Other Pacific Islander'], [0, 'Unknown'],
      ]),
      listField('person', 'ethnicity_concept_id', 'Ethnicity', [[C.hispanic, 'Hispanic or Latino'], [C.notHispanic, 'Not Hispanic or Latino'], [0, 'Unknown']]),
    ],
  },
  eventTable('condition_occurrence', 'Condition', 'condition_start_date', [
    conceptField('condition_occurrence', 'condition_concept_id', 'Condition', 'Condition'),
    dateField('condition_occurrence', 'condition_start_date', 'Start date'),
    dateField('condition_occurrence', 'condition_end_date', 'End date'),
  ]),
  eventTable('drug_exposure', 'Drug', 'drug_exposure_start_date', [
    conceptField('drug_exposure', 'drug_concept_id', 'Drug', 'Drug'),
    dateField('drug_exposure', 'drug_exposure_start_date', 'Start date'),
    dateField('drug_exposure', 'drug_exposure_end_date', 'End date'),
    numberField('drug_exposure', 'days_supply', 'Days supply'),
    numberField('drug_exposure', 'quantity', 'Quantity'),
  ]),
  eventTable('measurement', 'Measurement', 'measurement_date', [
    conceptField('measurement', 'measurement_concept_id', 'Measurement', 'Measurement'),
    numberField('measurement', 'value_as_number', 'Value'),
    conceptField('measurement', 'unit_concept_id', 'Unit', 'Unit'),
    conceptField('measurement', 'value_as_concept_id', 'Value (coded)', 'Meas Value'),
    dateField('measurement', 'measurement_date', 'Date'),
  ]),
  eventTable('observation', 'Observation', 'observation_date', [
    conceptField('observation', 'observation_concept_id', 'Observation', 'Observation'),
    numberField('observation', 'value_as_number', 'Value'),
    conceptField('observation', 'value_as_concept_id', 'Value (coded)', 'Meas Value'),
    dateField('observation', 'observation_date', 'Date'),
  ]),
  eventTable('procedure_occurrence', 'Procedure', 'procedure_date', [
    conceptField('procedure_occurrence', 'procedure_concept_id', 'Procedure', 'Procedure'),
    dateField('procedure_occurrence', 'procedure_date', 'Date'),
  ]),
  eventTable('visit_occurrence', 'Visit', 'visit_start_date', [
    conceptField('visit_occurrence', 'visit_concept_id', 'Visit type', 'Visit'),
    dateField('visit_occurrence', 'visit_start_date', 'Start date'),
    dateField('visit_occurrence', 'visit_end_date', 'End date'),
  ]),
  eventTable('observation_period', 'Observation period', 'observation_period_start_date', [
    dateField('observation_period', 'observation_period_start_date', 'Start date'),
    dateField('observation_period', 'observation_period_end_date', 'End date'),
  ]),
  eventTable('death', 'Death', 'death_date', [
    dateField('death', 'death_date', 'Date of death'),
    conceptField('death', 'cause_concept_id', 'Cause', 'Condition'),
  ]),
];

export const EXPLORER_TABLE_BY_NAME = new Map(EXPLORER_TABLES.map((t) => [t.name, t]));
export const EXPLORER_FIELD_BY_NAME = new Map(EXPLORER_TABLES.flatMap((t) => t.fields.map((f) => [f.name, f] as const)));

/** The schema as the API shows it (the SQL sources stay inside). */
export function presentExplorerTables(): ExplorerTable[] {
  return EXPLORER_TABLES.map((t) => ({
    name: t.name,
    label: t.label,
    kind: t.kind,
    fields: t.fields.map(({ table: _table, source: _source, ...field }) => field),
  }));
}

/** Every identifier the compiler may write: table names, column names, the vocabulary it joins. */
export const ALLOWED_IDENTIFIERS: ReadonlySet<string> = new Set([
  ...EXPLORER_TABLES.map((t) => t.name),
  ...EXPLORER_TABLES.flatMap((t) =>
    t.fields.flatMap((f) => (f.source.kind === 'column' ? [f.source.column] : f.source.kind === 'ageAtEvent' ? [f.source.dateColumn] : [])),
  ),
  'person_id', 'year_of_birth', 'gender_concept_id', 'race_concept_id', 'ethnicity_concept_id',
  'concept_ancestor', 'ancestor_concept_id', 'descendant_concept_id',
]);
