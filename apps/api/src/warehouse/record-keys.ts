import { randomBytes } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import type { CdmTable } from './omop-cdm';
import { KEY_RANGE } from './perturbation';

/**
 * The secret record keys of a dataset's persons (see perturbation.ts), in a table of its own beside
 * the CDM tables: `"<schema>"."hdp_record_key" (person_id, record_key)`. It is not in the explorer's
 * allow-list, so no query can name it, and it is dropped with its dataset.
 *
 * A key is the keyed MD5 of the person id under a random secret made for that load and never
 * stored: fixed for the dataset's life, and not recomputable from the data or from a seed.
 */
export const RECORD_KEY_TABLE: CdmTable = {
  name: 'hdp_record_key',
  columns: [
    { name: 'person_id', type: 'BIGINT' },
    { name: 'record_key', type: 'BIGINT' },
  ],
};

/** A fresh secret: hexadecimal only, so it can sit in SQL text. */
const secret = () => randomBytes(16).toString('hex');

/** Makes the keys of the persons of `schema` in DuckDB (at load time, or for a dataset loaded before keys existed). */
export async function createRecordKeysDuckDb(connection: DuckDBConnection, schema: string): Promise<void> {
  await connection.run(
    `CREATE TABLE "${schema}"."${RECORD_KEY_TABLE.name}" AS SELECT "person_id", CAST(md5_number('${secret()}' || CAST("person_id" AS VARCHAR)) % ${KEY_RANGE} AS BIGINT) AS "record_key" FROM "${schema}"."person"`,
  );
}

/** The same for a dataset already in PostgreSQL that has no keys yet. */
export async function createRecordKeysPostgres(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Several API processes may open the same warehouse at once: one makes the keys, the others wait and find them.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${schema}.${RECORD_KEY_TABLE.name}`]);
    const { rows } = await client.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [schema, RECORD_KEY_TABLE.name]);
    if (rows.length === 0) {
      await client.query(
        `CREATE TABLE "${schema}"."${RECORD_KEY_TABLE.name}" AS SELECT "person_id", (('x' || substr(md5('${secret()}' || "person_id"::text), 1, 6))::bit(24))::integer::bigint AS "record_key" FROM "${schema}"."person"`,
      );
      await client.query(`CREATE INDEX ON "${schema}"."${RECORD_KEY_TABLE.name}" ("person_id")`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
