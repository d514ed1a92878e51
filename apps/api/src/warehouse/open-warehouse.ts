import path from 'node:path';
import { DuckDbWarehouse } from './duckdb-warehouse';
import { PostgresWarehouse } from './postgres-warehouse';
import type { WarehouseEngine } from './warehouse-engine';

/** The DuckDB file of the embedded warehouse. */
export const warehouseFile = (dataDir: string) => path.join(dataDir, 'warehouse.duckdb');

/**
 * Opens the warehouse: PostgreSQL when `WAREHOUSE_URL` is set, otherwise the embedded DuckDB file
 * in `DATA_DIR` (or an in-memory DuckDB for tests).
 */
export async function openWarehouse(options: { warehouseUrl?: string; dataDir: string; inMemory?: boolean }): Promise<WarehouseEngine> {
  if (options.warehouseUrl) return PostgresWarehouse.open(options.warehouseUrl);
  return DuckDbWarehouse.open(options.inMemory ? ':memory:' : warehouseFile(options.dataDir));
}
