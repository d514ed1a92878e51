import type { DuckDBConnection } from '@duckdb/node-api';

/** One row of a warehouse answer; BIGINT values arrive as JavaScript numbers. */
export type WarehouseRow = Record<string, unknown>;

/** Lists of whole numbers, one per row: row i's list is `values[offsets[i]]` to `values[offsets[i + 1] - 1]`. */
export interface IntegerLists {
  offsets: Uint32Array;
  values: Int32Array;
}

/**
 * A statement's answer read by column (`WarehouseEngine.queryColumns`): number columns (NaN where
 * NULL) and columns of integer lists, read from the engine's own buffers where it has them.
 */
export interface WarehouseColumns {
  readonly rowCount: number;
  /** A column of numbers; throws if the statement has no such column. */
  numbers(column: string): Float64Array;
  /** A column of integer lists (an empty list where NULL); throws if the statement has no such column. */
  integerLists(column: string): IntegerLists;
}

/** Columns from rows as a driver gives them (numbers, numeric text, bigints, arrays of numbers). */
export function columnsFromRows(rows: readonly WarehouseRow[]): WarehouseColumns {
  const has = (column: string) => {
    if (rows.length > 0 && !(column in rows[0]!)) throw new Error(`the statement has no column ${column}`);
  };
  return {
    rowCount: rows.length,
    numbers(column) {
      has(column);
      return Float64Array.from(rows, (row) => (row[column] === null || row[column] === undefined ? NaN : Number(row[column])));
    },
    integerLists(column) {
      has(column);
      const offsets = new Uint32Array(rows.length + 1);
      rows.forEach((row, i) => {
        offsets[i + 1] = offsets[i]! + ((row[column] as unknown[] | null)?.length ?? 0);
      });
      const values = new Int32Array(offsets[rows.length]!);
      rows.forEach((row, i) => values.set(((row[column] as unknown[] | null) ?? []).map(Number), offsets[i]));
      return { offsets, values };
    },
  };
}

/** What is being served: the schema holding the current dataset, and where it came from. */
export interface WarehouseState {
  schema: string;
  source: string;
  loadedAt: Date;
}

export interface ColumnDescription {
  name: string;
  type: string;
}

export interface TableDescription {
  name: string;
  columns: ColumnDescription[];
}

export interface LoadReport {
  source: string;
  /** Rows loaded, by table. */
  rows: Record<string, number>;
  seconds: number;
}

/**
 * Builds a new dataset: fills the CDM tables, already created empty in `schema` of a DuckDB
 * work area, from files or from the generator.
 */
export type DatasetBuilder = (work: DuckDBConnection, schema: string) => Promise<void>;

/** The run went past its time limit and was stopped. */
export class WarehouseTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The query ran longer than the time limit of ${timeoutMs} ms and was stopped.`);
    this.name = 'WarehouseTimeoutError';
  }
}

/** Another load is running; loads are one at a time. */
export class WarehouseBusyError extends Error {
  constructor() {
    super('Another import or generation is already running; try again when it has finished.');
    this.name = 'WarehouseBusyError';
  }
}

/**
 * The health-data warehouse, whichever engine holds it (DuckDB embedded, or PostgreSQL).
 * Queries always name the active schema (`state.schema`): a load builds a new schema beside it and
 * swaps, so queries keep being answered from the old data until the new data is complete.
 */
export interface WarehouseEngine {
  readonly kind: 'duckdb' | 'postgres';
  /** The dataset now served, or null before the first load. */
  readonly state: WarehouseState | null;
  /**
   * Runs one parameterised statement (`$1`, `$2`, ...) and returns its rows. Statements are
   * read-only unless `readWrite` is set, which only the platform's own writes (cohort snapshots) do.
   */
  query(sql: string, params?: readonly unknown[], options?: { timeoutMs?: number; readWrite?: boolean }): Promise<WarehouseRow[]>;
  /**
   * Runs one read-only parameterised statement and returns its answer by column: the aggregates'
   * reader, which takes the lists of record keys a sketch is made of without a JavaScript value per
   * key (`aggregateStatement` in cohort-compiler.ts).
   */
  queryColumns(sql: string, params?: readonly unknown[], options?: { timeoutMs?: number }): Promise<WarehouseColumns>;
  /** The tables and columns of the dataset now served. */
  describe(): Promise<TableDescription[]>;
  /**
   * Writes the rows of one read-only SELECT to `target` (a local file path) as gzip-compressed CSV
   * with a header row, by the engine's own bulk export (the rows never pass through JavaScript one
   * by one); answers how many rows were written.
   */
  exportCsvGzip(select: string, target: string, options?: { timeoutMs?: number }): Promise<number>;
  /** Builds a dataset in a staging area, then swaps it in; on failure the served data is untouched. */
  load(source: string, build: DatasetBuilder): Promise<LoadReport>;
  close(): Promise<void>;
}

/** Numbers stay numbers: DuckDB BIGINT (bigint) and dates are made plain. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** A fresh schema name for a staging dataset: `cdm_<time>_<random>` (letters, digits and _ only). */
export function stagingSchemaName(): string {
  return `cdm_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export const SCHEMA_NAME = /^cdm_[a-z0-9_]+$/;
