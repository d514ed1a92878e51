import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { countRows, createCdmSchema, groupColumns } from './duckdb-warehouse';
import { CDM_POSTGRES_INDEXES, CDM_TABLES, createTableSql, type CdmTable } from './omop-cdm';
import { addRecordKeysDuckDb, migrateRecordKeysPostgres, storedTable } from './record-keys';
import {
  columnsFromRows,
  SCHEMA_NAME,
  stagingSchemaName,
  WarehouseBusyError,
  WarehouseTimeoutError,
  type DatasetBuilder,
  type LoadReport,
  type TableDescription,
  type WarehouseColumns,
  type WarehouseEngine,
  type WarehouseRow,
  type WarehouseState,
} from './warehouse-engine';

const INT8_OID = 20;
const DATE_OID = 1082;
/** PostgreSQL's "statement timeout" error code. */
const QUERY_CANCELED = '57014';
/** Rows sent to PostgreSQL per INSERT when loading. */
const BATCH_ROWS = 20_000;
/** How often the served dataset is re-read from `hdp_warehouse_state`. */
const STATE_REFRESH_MS = 5_000;

/** BIGINT as a JavaScript number (ids and counts fit), dates as `YYYY-MM-DD` text. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID) return (value: string) => Number(value);
    if (oid === DATE_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/**
 * The warehouse on a PostgreSQL server (`WAREHOUSE_URL`). Datasets are built in an in-memory
 * DuckDB (the same importer and generator as the embedded engine), copied into a staging schema,
 * indexed, and swapped in by one committed update of `hdp_warehouse_state`.
 */
export class PostgresWarehouse implements WarehouseEngine {
  readonly kind = 'postgres' as const;
  state: WarehouseState | null = null;
  private loading = false;
  private refresher: NodeJS.Timeout | undefined;

  private constructor(readonly pool: pg.Pool) {}

  static async open(url: string): Promise<PostgresWarehouse> {
    const pool = new pg.Pool({ connectionString: url, max: 8, types });
    // Without a listener an idle connection's error would crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const warehouse = new PostgresWarehouse(pool);
    await pool.query(
      'CREATE TABLE IF NOT EXISTS public.hdp_warehouse_state (id integer PRIMARY KEY, active_schema text NOT NULL, source text NOT NULL, loaded_at timestamptz NOT NULL)',
    );
    await warehouse.refreshState();
    if (warehouse.state) await migrateRecordKeysPostgres(pool, warehouse.state.schema);
    // Another API process may load a dataset into the same server: follow its swaps.
    warehouse.refresher = setInterval(() => {
      if (!warehouse.loading) void warehouse.refreshState().catch(() => undefined);
    }, STATE_REFRESH_MS);
    warehouse.refresher.unref();
    return warehouse;
  }

  /** Reads which dataset is served (another process may have loaded one). */
  async refreshState(): Promise<void> {
    const { rows } = await this.pool.query('SELECT active_schema, source, loaded_at FROM public.hdp_warehouse_state WHERE id = 1');
    const row = rows[0];
    this.state = row ? { schema: row.active_schema, source: row.source, loadedAt: new Date(row.loaded_at) } : null;
  }

  async query(sql: string, params: readonly unknown[] = [], options: { timeoutMs?: number; readWrite?: boolean } = {}): Promise<WarehouseRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query(options.readWrite ? 'BEGIN' : 'BEGIN READ ONLY');
      if (options.timeoutMs) await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      const result = await client.query(sql, params as unknown[]);
      await client.query('COMMIT');
      return result.rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: string }).code === QUERY_CANCELED && options.timeoutMs) throw new WarehouseTimeoutError(options.timeoutMs);
      throw error;
    } finally {
      client.release();
    }
  }

  async queryColumns(sql: string, params: readonly unknown[] = [], options: { timeoutMs?: number } = {}): Promise<WarehouseColumns> {
    return columnsFromRows(await this.query(sql, params, options));
  }

  async exportCsvGzip(select: string, target: string, options: { timeoutMs?: number } = {}): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      if (options.timeoutMs) await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      const stream = client.query(copyTo(`COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER true)`));
      await pipeline(stream, createGzip({ level: 1 }), createWriteStream(target, { flags: 'wx', mode: 0o640 }));
      await client.query('COMMIT');
      return stream.rowCount;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: string }).code === QUERY_CANCELED && options.timeoutMs) throw new WarehouseTimeoutError(options.timeoutMs);
      throw error;
    } finally {
      client.release();
    }
  }

  async describe(): Promise<TableDescription[]> {
    if (!this.state) return [];
    const { rows } = await this.pool.query(
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position',
      [this.state.schema],
    );
    return groupColumns(rows);
  }

  async load(source: string, build: DatasetBuilder): Promise<LoadReport> {
    if (this.loading) throw new WarehouseBusyError();
    this.loading = true;
    const started = performance.now();
    const schema = stagingSchemaName();
    const work = await DuckDBInstance.create(':memory:');
    const duck = await work.connect();
    try {
      await createCdmSchema(duck, schema);
      await build(duck, schema);
      await addRecordKeysDuckDb(duck, schema);
      const rows = await countRows(duck, schema);
      await this.pool.query(`CREATE SCHEMA "${schema}"`);
      try {
        for (const t of CDM_TABLES.map(storedTable)) {
          await this.pool.query(createTableSql(schema, t));
          await copyTable(duck, this.pool, schema, t);
        }
        for (const [tableName, columns] of CDM_POSTGRES_INDEXES) {
          for (const column of columns) await this.pool.query(`CREATE INDEX ON "${schema}"."${tableName}" ("${column}")`);
        }
        await this.pool.query(`ANALYZE`);
        const previous = await this.swap(schema, source);
        if (previous && SCHEMA_NAME.test(previous)) {
          await this.pool.query(`DROP SCHEMA IF EXISTS "${previous}" CASCADE`).catch(() => undefined);
        }
      } catch (error) {
        await this.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
        throw error;
      }
      return { source, rows, seconds: (performance.now() - started) / 1000 };
    } finally {
      duck.closeSync();
      work.closeSync();
      this.loading = false;
    }
  }

  /** Points the warehouse at the new schema in one transaction; returns the schema it replaced. */
  private async swap(schema: string, source: string): Promise<string | undefined> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query('SELECT active_schema FROM public.hdp_warehouse_state WHERE id = 1 FOR UPDATE');
      await client.query(
        `INSERT INTO public.hdp_warehouse_state VALUES (1, $1, $2, now())
         ON CONFLICT (id) DO UPDATE SET active_schema = excluded.active_schema, source = excluded.source, loaded_at = excluded.loaded_at`,
        [schema, source],
      );
      await client.query('COMMIT');
      this.state = { schema, source, loadedAt: new Date() };
      return rows[0]?.active_schema;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.refresher);
    await this.pool.end();
  }
}

/** Streams one table from DuckDB into PostgreSQL as text arrays, cast back to the CDM types by PostgreSQL. */
async function copyTable(duck: DuckDBConnection, pool: pg.Pool, schema: string, t: CdmTable): Promise<void> {
  const columns = t.columns.map((c) => `"${c.name}"`).join(', ');
  const select = t.columns.map((c) => `CAST("${c.name}" AS VARCHAR)`).join(', ');
  const unnest = t.columns.map((_c, i) => `$${i + 1}::text[]`).join(', ');
  const casts = t.columns.map((c, i) => `CAST(u.c${i} AS ${c.type})`).join(', ');
  const alias = t.columns.map((_c, i) => `c${i}`).join(', ');
  const insert = `INSERT INTO "${schema}"."${t.name}" (${columns}) SELECT ${casts} FROM unnest(${unnest}) AS u(${alias})`;
  const result = await duck.stream(`SELECT ${select} FROM "${schema}"."${t.name}"`);
  let batch: unknown[][] = t.columns.map(() => []);
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    await pool.query(insert, batch);
    batch = t.columns.map(() => []);
    size = 0;
  };
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const row of chunk.getRows()) {
      for (let i = 0; i < row.length; i++) batch[i]!.push(row[i] ?? null);
      size++;
    }
    if (size >= BATCH_ROWS) await flush();
  }
  await flush();
}
