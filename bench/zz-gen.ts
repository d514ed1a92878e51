import { DuckDbWarehouse } from '../apps/api/src/warehouse/duckdb-warehouse';
import { syntheticDataset } from '../apps/api/src/warehouse/synthetic-generator';
const w = await DuckDbWarehouse.open('/tmp/capi29-x/w.duckdb');
await w.load('synthetic: 1000000 persons, seed 1', syntheticDataset({ persons: 1_000_000, seed: 1 }));
await w.close();
