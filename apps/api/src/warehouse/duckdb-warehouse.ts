import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { CDM_TABLES, createTableSql } from './omop-cdm';
import { addRecordKeysDuckDb, migrateRecordKeysDuckDb, RECORD_KEY_COLUMN } from './record-keys';
import {
  plainValue,
  SCHEMA_NAME,
  stagingSchemaName,
  WarehouseBusyError,
  WarehouseTimeoutError,
  type DatasetBuilder,
  type LoadReport,
  type TableDescription,
  type WarehouseEngine,
  type WarehouseRow,
  type WarehouseState,
} from './warehouse-engine';

/** Counts rows of every CDM table in a schema. */
export async function countRows(connection: DuckDBConnection, schema: string): Promise<Record<string, number>> {
  const sql = CDM_TABLES.map((t) => `SELECT '${t.name}' AS t, COUNT(*) AS n FROM "${schema}"."${t.name}"`).join(' UNION ALL ');
  const reader = await connection.runAndReadAll(sql);
  return Object.fromEntries(reader.getRowObjectsJS().map((r) => [String(r.t), Number(r.n)]));
}

/** Creates a schema holding the empty CDM tables. */
export async function createCdmSchema(connection: DuckDBConnection, schema: string): Promise<void> {
  await connection.run(`CREATE SCHEMA "${schema}"`);
  for (const t of CDM_TABLES) await connection.run(createTableSql(schema, t));
}

/**
 * The embedded warehouse: one DuckDB file (`DATA_DIR/warehouse.duckdb`), owned by one process.
 * Every query gets its own connection, so queries run side by side and a load does not block them.
 */
export class DuckDbWarehouse implements WarehouseEngine {
  readonly kind = 'duckdb' as const;
  state: WarehouseState | null = null;
  private loading = false;

  private constructor(readonly instance: DuckDBInstance) {}

  /** Opens (or creates) the warehouse at `path`; `:memory:` for a throw-away one. */
  static async open(path: string): Promise<DuckDbWarehouse> {
    const instance = await DuckDBInstance.create(path);
    const warehouse = new DuckDbWarehouse(instance);
    const connection = await instance.connect();
    try {
      await connection.run(
        'CREATE TABLE IF NOT EXISTS main.hdp_warehouse_state (id INTEGER PRIMARY KEY, active_schema VARCHAR NOT NULL, source VARCHAR NOT NULL, loaded_at TIMESTAMP NOT NULL)',
      );
      const rows = (await connection.runAndReadAll('SELECT active_schema, source, loaded_at FROM main.hdp_warehouse_state WHERE id = 1')).getRowObjectsJS();
      const row = rows[0];
      if (row) warehouse.state = { schema: String(row.active_schema), source: String(row.source), loadedAt: row.loaded_at as Date };
      await warehouse.dropStaleSchemas(connection);
      // A dataset loaded by an earlier version gets its record keys into `person`, written out at once.
      const migrated = warehouse.state !== null && (await migrateRecordKeysDuckDb(connection, warehouse.state.schema));
      if (migrated && path !== ':memory:') await connection.run('CHECKPOINT');
    } finally {
      connection.closeSync();
    }
    return warehouse;
  }

  async query(sql: string, params: readonly unknown[] = [], options: { timeoutMs?: number } = {}): Promise<WarehouseRow[]> {
    const connection = await this.instance.connect();
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          connection.interrupt();
        }, options.timeoutMs)
      : undefined;
    try {
      const reader = await connection.runAndReadAll(sql, params as never);
      return reader.getRowObjectsJS().map((row) => {
        for (const key of Object.keys(row)) row[key] = plainValue(row[key]) as never;
        return row as WarehouseRow;
      });
    } catch (error) {
      if (timedOut) throw new WarehouseTimeoutError(options.timeoutMs!);
      throw error;
    } finally {
      clearTimeout(timer);
      connection.closeSync();
    }
  }

  async exportCsvGzip(select: string, target: string, options: { timeoutMs?: number } = {}): Promise<number> {
    // DuckDB's own gzip writer runs at the default level on one thread and took three times as long
    // as the export itself; plain CSV compressed by zlib at level 1 (in libuv's pool, beside the next
    // export) is about that much faster for files a quarter larger.
    const plain = `${target}.plain`;
    try {
      // COPY takes no parameters: the path is quoted here, the SELECT is built from the catalogue only.
      const [row] = await this.query(`COPY (${select}) TO '${plain.replaceAll("'", "''")}' (FORMAT CSV, HEADER)`, [], options);
      await pipeline(createReadStream(plain), createGzip({ level: 1 }), createWriteStream(target, { flags: 'wx', mode: 0o640 }));
      return Number(row?.Count ?? 0);
    } finally {
      await rm(plain, { force: true });
    }
  }

  async describe(): Promise<TableDescription[]> {
    if (!this.state) return [];
    const rows = await this.query(
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
    const connection = await this.instance.connect();
    try {
      await createCdmSchema(connection, schema);
      await build(connection, schema);
      await addRecordKeysDuckDb(connection, schema);
      const rows = await countRows(connection, schema);
      const previous = this.state?.schema;
      const loadedAt = new Date();
      await connection.run(
        `INSERT OR REPLACE INTO main.hdp_warehouse_state VALUES (1, $1, $2, CAST($3 AS TIMESTAMP))`,
        [schema, source, loadedAt.toISOString().replace('T', ' ').replace('Z', '')],
      );
      this.state = { schema, source, loadedAt };
      if (previous) await connection.run(`DROP SCHEMA IF EXISTS "${previous}" CASCADE`).catch(() => undefined);
      return { source, rows, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      await connection.run(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      throw error;
    } finally {
      connection.closeSync();
      this.loading = false;
    }
  }

  /** Schemas left by a load that was cut short (a crash mid-load). */
  private async dropStaleSchemas(connection: DuckDBConnection): Promise<void> {
    const rows = (await connection.runAndReadAll("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'cdm_%'")).getRowObjectsJS();
    for (const row of rows) {
      const name = String(row.schema_name);
      if (SCHEMA_NAME.test(name) && name !== this.state?.schema) await connection.run(`DROP SCHEMA "${name}" CASCADE`);
    }
  }

  async close(): Promise<void> {
    this.instance.closeSync();
  }
}

/** information_schema rows → tables with their columns (the secret record key column left out). */
export function groupColumns(rows: WarehouseRow[]): TableDescription[] {
  const tables = new Map<string, TableDescription>();
  for (const row of rows) {
    if (row.column_name === RECORD_KEY_COLUMN) continue;
    const name = String(row.table_name);
    if (!tables.has(name)) tables.set(name, { name, columns: [] });
    tables.get(name)!.columns.push({ name: String(row.column_name), type: String(row.data_type) });
  }
  return [...tables.values()];
}
