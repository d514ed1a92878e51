import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { KEY_RANGE, perturbationRow, perturbCount } from '../src/warehouse/perturbation';
import { PostgresWarehouse } from '../src/warehouse/postgres-warehouse';
import { syntheticDataset } from '../src/warehouse/synthetic-generator';
import type { WarehouseEngine } from '../src/warehouse/warehouse-engine';
import { createPostgresDatabase } from './support/test-database';

const ON = { maxChange: 2 };

describe('the perturbation table', () => {
  it('keeps zero at zero and one at one, never takes a count below 1, and changes it by at most maxChange', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: KEY_RANGE - 1 }), fc.integer({ min: 0, max: 5 }), (n, key, maxChange) => {
        const shown = perturbCount(n, key, { maxChange });
        if (n <= 1) expect(shown).toBe(n);
        else expect(shown).toBeGreaterThanOrEqual(1);
        expect(Math.abs(shown - n)).toBeLessThanOrEqual(maxChange);
        if (maxChange === 0) expect(shown).toBe(n);
      }),
      { numRuns: 5000 },
    );
  });

  it('is unbiased: every row has mean 0, and the mean change over many cell keys is close to 0', () => {
    for (let n = 0; n < 10; n++) {
      const row = perturbationRow(n, 2);
      expect(row.reduce((s, r) => s + r.probability, 0)).toBeCloseTo(1, 12);
      expect(row.reduce((s, r) => s + r.change * r.probability, 0)).toBeCloseTo(0, 12);
    }
    const changes = fc.sample(fc.noBias(fc.tuple(fc.integer({ min: 20, max: 5000 }), fc.integer({ min: 0, max: KEY_RANGE - 1 }))), { numRuns: 20_000, seed: 17 }).map(([n, key]) => perturbCount(n, key, ON) - n);
    const mean = changes.reduce((s, c) => s + c, 0) / changes.length;
    // The change's standard deviation is about 1.33, so the mean of 20,000 is within ±0.05 with near certainty.
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(new Set(changes)).toEqual(new Set([-2, -1, 0, 1, 2]));
  });

  it('gives the same count for the same count and key sum, whatever else', () => {
    expect(perturbCount(137, 123_456, ON)).toBe(perturbCount(137, 123_456 + KEY_RANGE, ON));
  });
});

/** The record keys of the dataset served, by person. */
async function keysOf(w: WarehouseEngine): Promise<Map<number, number>> {
  const rows = await w.query(`SELECT person_id, hdp_record_key AS record_key FROM "${w.state!.schema}".person`);
  return new Map(rows.map((r) => [Number(r.person_id), Number(r.record_key)]));
}

async function expectKeysForEveryPerson(w: WarehouseEngine) {
  const [persons] = await w.query(`SELECT COUNT(*) AS n FROM "${w.state!.schema}".person`);
  const keys = await keysOf(w);
  expect(keys.size).toBe(Number(persons!.n));
  const values = [...keys.values()];
  expect(values.every((k) => Number.isInteger(k) && k >= 0 && k < KEY_RANGE)).toBe(true);
  // Random keys: nearly all different, spread over the range.
  expect(new Set(values).size).toBeGreaterThan(values.length * 0.95);
  // The mean of n uniform keys is within 5 standard deviations (sqrt(1/12n) of the range) of the
  // middle but once in a million runs; a fixed 0.05 was 3 of them for 300 persons and failed by chance.
  const mean = values.reduce((s, k) => s + k, 0) / values.length;
  expect(Math.abs(mean / KEY_RANGE - 0.5)).toBeLessThan(5 * Math.sqrt(1 / (12 * values.length)));
}

/** The tables of the served schema whose name is given. */
async function tablesNamed(w: WarehouseEngine, name: string): Promise<number> {
  const rows = await w.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [w.state!.schema, name]);
  return rows.length;
}

/**
 * Turns the served dataset back into what an earlier version left: keys in a table of their own
 * (`keys`, by person), or none at all.
 */
async function asEarlierVersion(w: WarehouseEngine, keys: Map<number, number> | null) {
  const s = w.state!.schema;
  const write = { readWrite: true };
  if (keys) {
    await w.query(`CREATE TABLE "${s}".hdp_record_key (person_id BIGINT, record_key BIGINT)`, [], write);
    const ids = [...keys.keys()];
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      await w.query(`INSERT INTO "${s}".hdp_record_key VALUES ${chunk.map((id) => `(${id}, ${keys.get(id)})`).join(', ')}`, [], write);
    }
  }
  await w.query(`ALTER TABLE "${s}".person DROP COLUMN hdp_record_key`, [], write);
}

/** What the explorer answers for a few person sets: the same keys give the same answers. */
async function answers(w: WarehouseEngine) {
  const { runCohortQuery } = await import('../src/warehouse/cohort-results');
  const trees = [{ rules: [] }, { rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] }, { rules: [{ field: 'person.age', operator: '>=', value: 50 }] }];
  const results = [];
  for (const tree of trees) {
    const { execution_time_ms: _t, ...result } = await runCohortQuery(w, tree, { threshold: 5, perturbation: ON, timeoutMs: 20_000, trackerDefence: false });
    results.push(result);
  }
  return results;
}

describe('record keys in the DuckDB warehouse', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-keys-'));
  const file = path.join(dir, 'warehouse.duckdb');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are made at load time, secret to each load (the same seed gives other keys), and kept across a restart', async () => {
    let w = await DuckDbWarehouse.open(file);
    await w.load('synthetic', syntheticDataset({ persons: 400, seed: 1 }));
    await expectKeysForEveryPerson(w);
    const first = await keysOf(w);
    await w.load('synthetic again', syntheticDataset({ persons: 400, seed: 1 }));
    const second = await keysOf(w);
    expect([...first.keys()].filter((id) => first.get(id) === second.get(id)).length).toBeLessThan(10);
    await w.close();
    w = await DuckDbWarehouse.open(file);
    expect(await keysOf(w)).toEqual(second);
    // A column of person that the warehouse's description of the data leaves out.
    const person = (await w.describe()).find((t) => t.name === 'person')!;
    expect(person.columns.map((c) => c.name)).not.toContain('hdp_record_key');
    expect(person.columns.map((c) => c.name)).toContain('person_id');
    await w.close();
  });

  it('move unchanged into person when a warehouse an earlier version loaded is opened, so every answer stays the same', async () => {
    let w = await DuckDbWarehouse.open(file);
    const keys = await keysOf(w);
    const before = await answers(w);
    await asEarlierVersion(w, keys);
    await w.close();
    w = await DuckDbWarehouse.open(file);
    expect(await keysOf(w)).toEqual(keys);
    expect(await tablesNamed(w, 'hdp_record_key')).toBe(0);
    expect(await answers(w)).toEqual(before);
    await w.close();
    // And they stay there: the next open changes nothing.
    w = await DuckDbWarehouse.open(file);
    expect(await keysOf(w)).toEqual(keys);
    await w.close();
  });

  it('are made when a warehouse loaded before keys existed is opened', async () => {
    let w = await DuckDbWarehouse.open(file);
    await asEarlierVersion(w, null);
    await w.close();
    w = await DuckDbWarehouse.open(file);
    await expectKeysForEveryPerson(w);
    await w.close();
  });
});

describe('record keys in the PostgreSQL warehouse', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(() => database.drop());

  it('are copied with the dataset, moved unchanged into person from an earlier version, and made on open for a dataset that has none', async () => {
    let w = await PostgresWarehouse.open(database.url);
    await w.load('synthetic', syntheticDataset({ persons: 300, seed: 2 }));
    await expectKeysForEveryPerson(w);
    const person = (await w.describe()).find((t) => t.name === 'person')!;
    expect(person.columns.map((c) => c.name)).not.toContain('hdp_record_key');
    const keys = await keysOf(w);
    const before = await answers(w);
    await asEarlierVersion(w, keys);
    await w.close();
    // Two processes open it at once: one moves the keys, the other waits and finds them moved.
    const [a, b] = await Promise.all([PostgresWarehouse.open(database.url), PostgresWarehouse.open(database.url)]);
    expect(await keysOf(a)).toEqual(keys);
    expect(await tablesNamed(a, 'hdp_record_key')).toBe(0);
    expect(await answers(b)).toEqual(before);
    await asEarlierVersion(a, null);
    await Promise.all([a.close(), b.close()]);
    w = await PostgresWarehouse.open(database.url);
    await expectKeysForEveryPerson(w);
    await w.close();
  });
});
