import { RELEASED_TABLES, type ReleasedTable } from '@hdp/contract';
import { CDM_TABLES, type CdmTable } from './omop-cdm';
import { PERIOD_TABLE, SNAPSHOT_TABLE } from './cohort-snapshots';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The CDM tables released to a workbench, in release order. */
export const RELEASED_CDM_TABLES: readonly CdmTable[] = RELEASED_TABLES.map((name) => CDM_TABLES.find((t) => t.name === name)!);

/** Concept columns whose names are joined in (source concept ids are mostly 0 and are left as ids). */
const namedConcept = (column: string) => column.endsWith('_concept_id') && !column.endsWith('_source_concept_id');
const conceptNameColumn = (column: string) => column.replace(/_concept_id$/, '_concept_name');

/** One column of a released file, for the data dictionary. */
export interface ReleasedColumn {
  table: ReleasedTable;
  column: string;
  type: string;
  description: string;
}

function describeColumn(table: string, column: string): string {
  if (column === 'person_id') return 'Pseudonymous person id; the same person has the same id in every table of this release.';
  if (column.endsWith('_concept_name')) return `Name of the concept in ${column.replace(/_concept_name$/, '_concept_id')}, joined from the OMOP vocabulary.`;
  if (column.endsWith('_source_concept_id')) return 'OMOP concept id of the value as recorded in the source (0 when unmapped).';
  if (column.endsWith('_concept_id')) return 'OMOP standard concept id (0 when unmapped).';
  if (column.endsWith('_source_value')) return 'The value as recorded in the source data.';
  if (column === `${table}_id`) return `Id of the ${table.replace(/_/g, ' ')} record.`;
  if (column.endsWith('_datetime')) return 'Date and time.';
  if (column.endsWith('_date')) return 'Date (YYYY-MM-DD).';
  return `OMOP CDM v5.4 field ${table}.${column}.`;
}

/** The columns of each released file, in file order: each named concept id is followed by its name. */
export function releasedColumns(table: CdmTable): ReleasedColumn[] {
  return table.columns.flatMap((c) => {
    const column: ReleasedColumn = { table: table.name as ReleasedTable, column: c.name, type: c.type, description: describeColumn(table.name, c.name) };
    if (!namedConcept(c.name)) return [column];
    const name = conceptNameColumn(c.name);
    return [column, { table: table.name as ReleasedTable, column: name, type: 'VARCHAR', description: describeColumn(table.name, name) }];
  });
}

/**
 * The SELECT of one table's rows for the persons of a cohort version, with concept names joined
 * in. Identifiers come from the CDM catalogue and the version id is checked to be a UUID, so the
 * statement can go to a bulk export that takes no parameters.
 */
export function releaseSelect(schema: string, table: CdmTable, cohortVersionId: string): string {
  if (!UUID.test(cohortVersionId)) throw new Error(`Invalid cohort version id ${cohortVersionId}`);
  const joins: string[] = [];
  const columns = table.columns.flatMap((c, i) => {
    const own = `t."${c.name}"`;
    if (!namedConcept(c.name)) return [own];
    joins.push(`LEFT JOIN "${schema}"."concept" c${i} ON c${i}."concept_id" = t."${c.name}"`);
    return [own, `c${i}."concept_name" AS "${conceptNameColumn(c.name)}"`];
  });
  return `SELECT ${columns.join(', ')} FROM "${schema}"."${table.name}" t ${joins.join(' ')} WHERE t."person_id" IN (SELECT s.person_id FROM ${SNAPSHOT_TABLE} s WHERE s.cohort_version_id = '${cohortVersionId}')`;
}

/** The file of a version's cohort periods (released when its definition has them), named after OMOP's `cohort` table. */
export const PERIOD_FILE = 'cohort_period';

/** The columns of the periods file, for the data dictionary. */
export const PERIOD_COLUMNS: readonly { table: string; column: string; type: string; description: string }[] = [
  { table: PERIOD_FILE, column: 'person_id', type: 'BIGINT', description: 'Pseudonymous person id; the same person has the same id in every table of this release.' },
  { table: PERIOD_FILE, column: 'cohort_start_date', type: 'DATE', description: "Start of one of the person's cohort periods (the index event's date), YYYY-MM-DD. Only in releases of cohorts whose query has a cohort definition." },
  { table: PERIOD_FILE, column: 'cohort_end_date', type: 'DATE', description: "End of the period, by the definition's exit, censoring and censor window, YYYY-MM-DD. A person may have several periods; they never overlap." },
];

/** The SELECT of a cohort version's periods, one row per period, in person and date order (the version id checked to be a UUID, as above). */
export function periodSelect(cohortVersionId: string): string {
  if (!UUID.test(cohortVersionId)) throw new Error(`Invalid cohort version id ${cohortVersionId}`);
  return `SELECT person_id, start_date AS cohort_start_date, end_date AS cohort_end_date FROM ${PERIOD_TABLE} WHERE cohort_version_id = '${cohortVersionId}' ORDER BY person_id, start_date`;
}

/** The data dictionary (table, column, type, description) as CSV. */
export function dataDictionaryCsv(): string {
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const rows = [...RELEASED_CDM_TABLES.flatMap(releasedColumns), ...PERIOD_COLUMNS].map((c) => [c.table, c.column, c.type, c.description].map(quote).join(','));
  return `table,column,type,description\n${rows.join('\n')}\n`;
}
