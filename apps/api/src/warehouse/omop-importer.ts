import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { buildMissingEras } from './era-builder';
import { CDM_TABLES, type CdmColumn, type CdmType } from './omop-cdm';
import type { DatasetBuilder } from './warehouse-engine';

/** The files cannot be loaded; the message names the table, column and row. */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

const EXTENSIONS = ['.parquet', '.csv', '.csv.gz'];
const TYPE_WORDS: Record<CdmType, string> = {
  BIGINT: 'a whole number',
  'DOUBLE PRECISION': 'a number',
  DATE: 'a date (YYYY-MM-DD)',
  TIMESTAMP: 'a date and time (YYYY-MM-DD HH:MM:SS)',
  VARCHAR: 'text',
};

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const ident = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** The table files of a directory, by lower-case table name (`PERSON.csv` → person). */
export function findTableFiles(directory: string): Map<string, string> {
  if (!fs.existsSync(directory) || !fs.statSync(directory).isDirectory()) throw new ImportError(`${directory} is not a directory.`);
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(directory).sort()) {
    const lower = entry.toLowerCase();
    const extension = EXTENSIONS.find((e) => lower.endsWith(e));
    if (!extension) continue;
    const table = lower.slice(0, -extension.length);
    if (!files.has(table)) files.set(table, path.join(directory, entry));
  }
  return files;
}

/** The text of a source value, or NULL when empty. */
const text = (column: string) => `NULLIF(TRIM(CAST(${ident(column)} AS VARCHAR)), '')`;

/** Casts a source column to its CDM type; NULL where it cannot (the check below finds those). */
function castExpression(column: string, type: CdmType): string {
  const v = text(column);
  switch (type) {
    case 'BIGINT':
      // Extracts write ids as 1.0 (DOUBLE); only whole numbers pass.
      return `CASE WHEN TRY_CAST(${v} AS DOUBLE) = floor(TRY_CAST(${v} AS DOUBLE)) AND abs(TRY_CAST(${v} AS DOUBLE)) < 9.0e15 THEN CAST(TRY_CAST(${v} AS DOUBLE) AS BIGINT) END`;
    case 'DOUBLE PRECISION':
      return `TRY_CAST(${v} AS DOUBLE)`;
    case 'DATE':
      return `COALESCE(TRY_CAST(${v} AS DATE), CAST(TRY_CAST(${v} AS TIMESTAMP) AS DATE))`;
    case 'TIMESTAMP':
      return `TRY_CAST(${v} AS TIMESTAMP)`;
    case 'VARCHAR':
      return `CAST(${ident(column)} AS VARCHAR)`;
  }
}

/**
 * A dataset from a directory of OMOP CDM tables: CSV (with a header row) or Parquet, file names in
 * any case, v5.4 or v5.3 (renamed columns are mapped). Every column is cast to its CDM type; the
 * first value that cannot be cast stops the import with its table, column and row.
 */
export function omopDirectoryDataset(directory: string): DatasetBuilder {
  const files = findTableFiles(path.resolve(directory));
  if (!files.has('person')) throw new ImportError(`No person table in ${directory}: expected person.csv or person.parquet (any case).`);
  return async (db: DuckDBConnection, schema: string) => {
    for (const table of CDM_TABLES) {
      const file = files.get(table.name);
      if (!file) continue;
      const lower = file.toLowerCase();
      const relation = lower.endsWith('.parquet')
        ? `read_parquet(${literal(file)})`
        : `read_csv(${literal(file)}, header = true, all_varchar = true, auto_detect = true)`;
      try {
        await db.run(`CREATE OR REPLACE TEMP TABLE import_source AS SELECT *, row_number() OVER () AS __row FROM ${relation}`);
      } catch (error) {
        throw new ImportError(`${table.name}: cannot read ${path.basename(file)}: ${(error as Error).message.split('\n')[0]}`);
      }
      const described = (await db.runAndReadAll('DESCRIBE import_source')).getRowObjectsJS().map((r) => String(r.column_name));
      const byLowerName = new Map(described.map((name) => [name.toLowerCase(), name]));
      const sourceOf = (column: CdmColumn) =>
        [column.name, ...(column.v53Names ?? [])].map((n) => byLowerName.get(n)).find((n) => n !== undefined);
      const mapped = table.columns.map((column) => ({ column, source: sourceOf(column) }));

      const checks = mapped.filter((m) => m.source && m.column.type !== 'VARCHAR');
      if (checks.length > 0) {
        const select = checks
          .map((m, i) => `min(CASE WHEN ${text(m.source!)} IS NOT NULL AND ${castExpression(m.source!, m.column.type)} IS NULL THEN __row END) AS c${i}`)
          .join(', ');
        const [firstBad] = (await db.runAndReadAll(`SELECT ${select} FROM import_source`)).getRowObjectsJS();
        const failures = checks
          .map((m, i) => ({ ...m, row: firstBad?.[`c${i}`] === null || firstBad?.[`c${i}`] === undefined ? null : Number(firstBad[`c${i}`]) }))
          .filter((f) => f.row !== null)
          .sort((a, b) => a.row! - b.row!);
        const failure = failures[0];
        if (failure) {
          const [bad] = (await db.runAndReadAll(`SELECT CAST(${ident(failure.source!)} AS VARCHAR) AS v FROM import_source WHERE __row = ${failure.row}`)).getRowObjectsJS();
          throw new ImportError(
            `${table.name}.${failure.column.name}, row ${failure.row} of ${path.basename(file)}: ${JSON.stringify(String(bad?.v).slice(0, 80))} is not ${TYPE_WORDS[failure.column.type]}.`,
          );
        }
      }
      const columns = mapped.map((m) => ident(m.column.name)).join(', ');
      const values = mapped.map((m) => (m.source ? castExpression(m.source, m.column.type) : `CAST(NULL AS ${m.column.type})`)).join(', ');
      await db.run(`INSERT INTO ${ident(schema)}.${ident(table.name)} (${columns}) SELECT ${values} FROM import_source ORDER BY __row`);
      await db.run('DROP TABLE import_source');
    }
    // A dataset without eras gets them built by OHDSI's rules, so era criteria work on every dataset.
    await buildMissingEras(db, schema);
  };
}
