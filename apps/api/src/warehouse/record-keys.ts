import { randomBytes } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import type { CdmTable } from './omop-cdm';
import { KEY_RANGE } from './perturbation';

/**
 * The secret record keys of a dataset's persons (see perturbation.ts), in a column of the dataset's
 * own `person` table: `"<schema>"."person"."hdp_record_key"`. Aggregates read it beside the person's
 * sex, age and race, with no join. It is not a CDM column: it is not in the explorer's allow-list (no
 * query can name or filter on it), the schema the warehouse describes leaves it out, releases to
 * workbenches list their columns from the CDM catalogue, and it is dropped with its dataset.
 *
 * A key is the keyed MD5 of the person id under a random secret made for that load and never
 * stored: fixed for the dataset's life, and not recomputable from the data or from a seed.
 */
export const RECORD_KEY_COLUMN = 'hdp_record_key';

/** Where earlier versions kept the keys: a table `(person_id, record_key)` beside the CDM tables, moved into `person` on open. */
export const LEGACY_RECORD_KEY_TABLE = 'hdp_record_key';

/** A fresh secret: hexadecimal only, so it can sit in SQL text. */
const secret = () => randomBytes(16).toString('hex');

const duckDbKey = () => `CAST(md5_number('${secret()}' || CAST("person_id" AS VARCHAR)) % ${KEY_RANGE} AS BIGINT)`;
const postgresKey = () => `(('x' || substr(md5('${secret()}' || "person_id"::text), 1, 6))::bit(24))::integer::bigint`;

/** A CDM table as the warehouse stores it: `person` carries the record key column after its CDM columns. */
export function storedTable(table: CdmTable): CdmTable {
  return table.name === 'person' ? { ...table, columns: [...table.columns, { name: RECORD_KEY_COLUMN, type: 'BIGINT' }] } : table;
}

/** Gives every person of `schema` a fresh key, in DuckDB (at load time, before the dataset is served). */
export async function addRecordKeysDuckDb(connection: DuckDBConnection, schema: string): Promise<void> {
  await connection.run(`ALTER TABLE "${schema}"."person" ADD COLUMN "${RECORD_KEY_COLUMN}" BIGINT`);
  await connection.run(`UPDATE "${schema}"."person" SET "${RECORD_KEY_COLUMN}" = ${duckDbKey()}`);
}

/**
 * A dataset loaded by an earlier version, opened in DuckDB: its keys move from the old key table into
 * `person` unchanged (so every answer stays the same), or, for a dataset loaded before keys existed,
 * are made. One transaction: a crash leaves the dataset as it was, and the next open tries again.
 */
export async function migrateRecordKeysDuckDb(connection: DuckDBConnection, schema: string): Promise<boolean> {
  const has = async (table: string, column?: string) =>
    (
      await connection.runAndReadAll(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2${column ? ' AND column_name = $3' : ''}`,
        column ? [schema, table, column] : [schema, table],
      )
    ).getRows().length > 0;
  if (await has('person', RECORD_KEY_COLUMN)) return false;
  const legacy = await has(LEGACY_RECORD_KEY_TABLE);
  await connection.run('BEGIN TRANSACTION');
  try {
    await connection.run(`ALTER TABLE "${schema}"."person" ADD COLUMN "${RECORD_KEY_COLUMN}" BIGINT`);
    if (legacy) {
      await connection.run(
        `UPDATE "${schema}"."person" SET "${RECORD_KEY_COLUMN}" = k."record_key" FROM "${schema}"."${LEGACY_RECORD_KEY_TABLE}" k WHERE k."person_id" = "${schema}"."person"."person_id"`,
      );
      await connection.run(`DROP TABLE "${schema}"."${LEGACY_RECORD_KEY_TABLE}"`);
    }
    await connection.run(`UPDATE "${schema}"."person" SET "${RECORD_KEY_COLUMN}" = ${duckDbKey()} WHERE "${RECORD_KEY_COLUMN}" IS NULL`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return true;
}

/** The same for a dataset already in PostgreSQL (loaded by an earlier version). */
export async function migrateRecordKeysPostgres(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  let migrated = false;
  try {
    const found = async (table: string, column?: string) =>
      (
        await client.query(
          `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2${column ? ' AND column_name = $3' : ''}`,
          column ? [schema, table, column] : [schema, table],
        )
      ).rows.length > 0;
    if (await found('person', RECORD_KEY_COLUMN)) return;
    await client.query('BEGIN');
    // Several API processes may open the same warehouse at once: one migrates, the others wait and find the column.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${schema}.${RECORD_KEY_COLUMN}`]);
    if (!(await found('person', RECORD_KEY_COLUMN))) {
      await client.query(`ALTER TABLE "${schema}"."person" ADD COLUMN "${RECORD_KEY_COLUMN}" bigint`);
      if (await found(LEGACY_RECORD_KEY_TABLE)) {
        await client.query(
          `UPDATE "${schema}"."person" p SET "${RECORD_KEY_COLUMN}" = k."record_key" FROM "${schema}"."${LEGACY_RECORD_KEY_TABLE}" k WHERE k."person_id" = p."person_id"`,
        );
        await client.query(`DROP TABLE "${schema}"."${LEGACY_RECORD_KEY_TABLE}"`);
      }
      await client.query(`UPDATE "${schema}"."person" SET "${RECORD_KEY_COLUMN}" = ${postgresKey()} WHERE "${RECORD_KEY_COLUMN}" IS NULL`);
      migrated = true;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  // The update left a dead copy of every row: reclaim it and refresh the planner's statistics.
  if (migrated) await pool.query(`VACUUM ANALYZE "${schema}"."person"`).catch(() => undefined);
}
