import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DuckDBInstance, DuckDBListVector, type DuckDBConnection, type DuckDBMaterializedResult, type DuckDBVector } from '@duckdb/node-api';
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
  type IntegerLists,
  type TableDescription,
  type WarehouseColumns,
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

  /** Runs `read` on a connection of its own, interrupted after `timeoutMs`. */
  private async withConnection<T>(timeoutMs: number | undefined, read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.instance.connect();
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          connection.interrupt();
        }, timeoutMs)
      : undefined;
    try {
      return await read(connection);
    } catch (error) {
      if (timedOut) throw new WarehouseTimeoutError(timeoutMs!);
      throw error;
    } finally {
      clearTimeout(timer);
      connection.closeSync();
    }
  }

  async query(sql: string, params: readonly unknown[] = [], options: { timeoutMs?: number } = {}): Promise<WarehouseRow[]> {
    return this.withConnection(options.timeoutMs, async (connection) => {
      const reader = await connection.runAndReadAll(sql, params as never);
      return reader.getRowObjectsJS().map((row) => {
        for (const key of Object.keys(row)) row[key] = plainValue(row[key]) as never;
        return row as WarehouseRow;
      });
    });
  }

  async queryColumns(sql: string, params: readonly unknown[] = [], options: { timeoutMs?: number } = {}): Promise<WarehouseColumns> {
    return this.withConnection(options.timeoutMs, async (connection) => columnsOfResult(await connection.run(sql, params as never)));
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

/** The typed array a DuckDB vector of fixed-width numbers keeps its values in (not part of the package's typings). */
const itemsOf = (vector: DuckDBVector): Int32Array | Float64Array | Int16Array | Int8Array | null => {
  const items = (vector as unknown as { items?: unknown }).items;
  return items instanceof Int32Array || items instanceof Float64Array || items instanceof Int16Array || items instanceof Int8Array ? items : null;
};

/**
 * A materialised result by column. Numbers are read a value at a time (an aggregate has few rows);
 * a list column's values are copied from the child vector's own buffer, so a list of a million
 * record keys costs a copy, not a million JavaScript values.
 */
function columnsOfResult(result: DuckDBMaterializedResult): WarehouseColumns {
  const names = result.columnNames();
  const chunks = Array.from({ length: result.chunkCount }, (_c, i) => result.getChunk(i));
  const chunkRows = chunks.map((chunk) => chunk.rowCount);
  const rowCount = chunkRows.reduce((sum, rows) => sum + rows, 0);
  const indexOf = (column: string) => {
    const index = names.indexOf(column);
    if (index < 0) throw new Error(`the statement has no column ${column}`);
    return index;
  };
  return {
    rowCount,
    numbers(column) {
      const index = indexOf(column);
      const values = new Float64Array(rowCount);
      let at = 0;
      for (const [c, chunk] of chunks.entries()) {
        const vector = chunk.getColumnVector(index);
        // A chunk's row count is a call into the bindings: read once, not once a row.
        for (let row = 0, rows = chunkRows[c]!; row < rows; row++) {
          const value = vector.getItem(row);
          values[at++] = value === null ? NaN : Number(value);
        }
      }
      return values;
    },
    integerLists(column) {
      const index = indexOf(column);
      const offsets = new Uint32Array(rowCount + 1);
      const parts: { vector: DuckDBListVector; rows: number }[] = [];
      let at = 0;
      for (const [c, chunk] of chunks.entries()) {
        const vector = chunk.getColumnVector(index);
        if (!(vector instanceof DuckDBListVector)) throw new Error(`column ${column} is not a list`);
        // A NULL list (a row of another kind in a union) is empty. The validity mask is read directly where the package keeps it.
        const validity = (vector as unknown as { validity?: { itemValid(row: number): boolean } }).validity;
        for (let row = 0, rows = chunkRows[c]!; row < rows; row++, at++) {
          const valid = validity ? validity.itemValid(row) : vector.getItemVector(row) !== null;
          offsets[at + 1] = offsets[at]! + (valid ? vector.getEntryLength(row) : 0);
        }
        parts.push({ vector, rows: chunkRows[c]! });
      }
      const values = new Int32Array(offsets[rowCount]!);
      at = 0;
      for (const { vector, rows } of parts) {
        const child = vector.childVector;
        const items = itemsOf(child);
        for (let row = 0; row < rows; row++, at++) {
          const length = offsets[at + 1]! - offsets[at]!;
          if (length === 0) continue;
          const from = vector.getEntryOffset(row);
          if (items) values.set(items.subarray(from, from + length), offsets[at]);
          else for (let k = 0; k < length; k++) values[offsets[at]! + k] = Number(child.getItem(from + k));
        }
      }
      return { offsets, values } satisfies IntegerLists;
    },
  };
}
