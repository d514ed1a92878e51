import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryGroup } from '@hdp/contract';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { PostgresWarehouse } from '../src/warehouse/postgres-warehouse';
import { ImportError, omopDirectoryDataset } from '../src/warehouse/omop-importer';
import { syntheticDataset } from '../src/warehouse/synthetic-generator';
import { WarehouseTimeoutError, type WarehouseEngine } from '../src/warehouse/warehouse-engine';
import { compileCohortCount } from '../src/warehouse/cohort-compiler';
import { aggregateResult, runCohortQuery } from '../src/warehouse/cohort-results';
import { compileSnapshotAggregate, countSnapshot, dropSnapshot, takeSnapshot } from '../src/warehouse/cohort-snapshots';
import { searchConcepts } from '../src/warehouse/concept-search';
import { createPostgresDatabase } from './support/test-database';
import { sampleDataset } from './support/warehouse-fixtures';

const count = async (w: WarehouseEngine, table: string) =>
  Number((await w.query(`SELECT COUNT(*) AS n FROM "${w.state!.schema}"."${table}"`))[0]!.n);

/** A copy of a sample table with one bad value, in a directory of its own. */
function brokenCopy(file: string, line: number, replace: [RegExp, string]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-import-'));
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[line] = lines[line]!.replace(replace[0], replace[1]);
  fs.writeFileSync(path.join(dir, 'Person.CSV'), lines.join('\n'));
  return dir;
}

/** A cohort's persons, kept in the warehouse, count and chart the same as the query that chose them. */
async function expectSnapshotsToMatchTheirQuery(w: WarehouseEngine) {
  const tree: QueryGroup = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8507 }] };
  const options = { threshold: 20, perturbation: { maxChange: 2 }, timeoutMs: 10_000, trackerDefence: false };
  const live = await runCohortQuery(w, tree, options);
  const versionId = crypto.randomUUID();
  const kept = await takeSnapshot(w, w.state!, versionId, tree, 10_000);
  const counted = compileCohortCount(tree, w.state!.schema);
  expect(kept).toBe(Number((await w.query(counted.sql, counted.params))[0]!.n));
  expect(kept).toBeGreaterThan(0);
  const fromSnapshot = await aggregateResult(w, w.state!.schema, compileSnapshotAggregate(w.state!.schema, versionId, { sketches: false }), options);
  expect(fromSnapshot.breakdowns).toEqual(live.breakdowns);
  await dropSnapshot(w, versionId);
  expect(await countSnapshot(w, versionId)).toBe(0);
}

/** Concept search names a measurement concept's units as its records give them, most used first. */
async function expectMeasurementUnits(w: WarehouseEngine) {
  await w.load('synthetic', syntheticDataset({ persons: 400, seed: 5 }));
  const [hba1c] = await searchConcepts(w, { search: '4548-4', limit: 5 });
  expect(hba1c).toMatchObject({ concept_id: 3004410, units: [{ concept_id: 8554, code: '%', name: 'percent' }] });
  // A second unit on fewer records comes after the first.
  await w.query(`UPDATE "${w.state!.schema}"."measurement" SET unit_concept_id = 8840 WHERE measurement_id IN (SELECT measurement_id FROM "${w.state!.schema}"."measurement" WHERE measurement_concept_id = 3004410 ORDER BY measurement_id LIMIT 3)`, [], { readWrite: true });
  const [again] = await searchConcepts(w, { search: '3004410', domain: 'Measurement', limit: 5 });
  expect(again!.units!.map((u) => u.code)).toEqual(['%', 'mg/dL']);
  const [condition] = await searchConcepts(w, { search: 'Type 2 diabetes mellitus', domain: 'Condition', limit: 1 });
  expect(condition).not.toHaveProperty('units');
}

describe('the DuckDB warehouse', () => {
  let w: DuckDbWarehouse;
  beforeAll(async () => {
    w = await DuckDbWarehouse.open(':memory:');
  });
  afterAll(() => w.close());

  it('imports the Synthea CSV sample (upper-case file names) with every column cast to its CDM type', async () => {
    const report = await w.load('synthea', omopDirectoryDataset(sampleDataset('synthea27nj-omop-5.4')));
    expect(report.rows).toMatchObject({ person: 28, death: 3, condition_occurrence: 470, measurement: 10040 });
    const person = (await w.describe()).find((t) => t.name === 'person')!;
    expect(person.columns.find((c) => c.name === 'person_id')!.type).toBe('BIGINT');
    expect(person.columns.find((c) => c.name === 'birth_datetime')!.type).toBe('TIMESTAMP');
    const [row] = await w.query(`SELECT year_of_birth, birth_datetime FROM "${w.state!.schema}".person WHERE person_id = 1`);
    expect(row!.year_of_birth).toBe(1998);
  });

  it('imports the Eunomia Parquet sample (CDM v5.3, DOUBLE ids) and maps it to v5.4', async () => {
    const report = await w.load('eunomia', omopDirectoryDataset(sampleDataset('eunomia-gibleed-omop-5.3')));
    expect(report.rows).toMatchObject({ person: 2694, condition_occurrence: 65332, drug_exposure: 67707, measurement: 44053 });
    const visit = (await w.describe()).find((t) => t.name === 'visit_occurrence')!;
    expect(visit.columns.map((c) => c.name)).toContain('admitted_from_concept_id');
    const [types] = await w.query(`SELECT typeof(person_id) AS t FROM "${w.state!.schema}".condition_occurrence LIMIT 1`);
    expect(types!.t).toBe('BIGINT');
  });

  it('rejects a value it cannot cast, naming table, column and row, and keeps the previous data', async () => {
    const before = w.state!.schema;
    const dir = brokenCopy(path.join(sampleDataset('synthea27nj-omop-5.4'), 'PERSON.csv'), 3, [/^(\d+),(\d+),(\d{4}),/, '$1,$2,19x0,']);
    await expect(w.load('broken', omopDirectoryDataset(dir))).rejects.toThrow(
      new ImportError('person.year_of_birth, row 3 of Person.CSV: "19x0" is not a whole number.'),
    );
    expect(w.state!.schema).toBe(before);
    expect(await count(w, 'person')).toBe(2694);
    const bad = brokenCopy(path.join(sampleDataset('synthea27nj-omop-5.4'), 'PERSON.csv'), 2, [/^(\d+)/, '2.5']);
    await expect(w.load('broken', omopDirectoryDataset(bad))).rejects.toThrow('person.person_id, row 2 of Person.CSV: "2.5" is not a whole number.');
    expect(() => omopDirectoryDataset(os.tmpdir() + '/no-such-dir')).toThrow(ImportError);
  });

  it('generates the same data from the same seed, and other data from another seed', async () => {
    const checksum = async () =>
      (await w.query(`SELECT
        (SELECT sum(hash(person_id, gender_concept_id, year_of_birth, race_concept_id)) FROM "${w.state!.schema}".person) AS p,
        (SELECT sum(hash(measurement_id, measurement_concept_id, value_as_number, measurement_date)) FROM "${w.state!.schema}".measurement) AS m,
        (SELECT sum(hash(drug_exposure_id, drug_concept_id, drug_exposure_start_date)) FROM "${w.state!.schema}".drug_exposure) AS d`))[0];
    await w.load('a', syntheticDataset({ persons: 2000, seed: 7 }));
    const first = await checksum();
    await w.load('b', syntheticDataset({ persons: 2000, seed: 7 }));
    expect(await checksum()).toEqual(first);
    await w.load('c', syntheticDataset({ persons: 2000, seed: 8 }));
    expect(await checksum()).not.toEqual(first);
  });

  it('generates plausible data: comorbidity, treatments, HbA1c in %, a concept hierarchy', async () => {
    await w.load('synthetic', syntheticDataset({ persons: 5000, seed: 11 }));
    const s = `"${w.state!.schema}"`;
    const [hba1c] = await w.query(`SELECT min(value_as_number) AS lo, max(value_as_number) AS hi, avg(value_as_number) AS mean,
      count(DISTINCT unit_concept_id) AS units, min(unit_concept_id) AS unit FROM ${s}.measurement WHERE measurement_concept_id = 3004410`);
    expect(hba1c).toMatchObject({ units: 1, unit: 8554 });
    expect(Number(hba1c!.lo)).toBeGreaterThanOrEqual(4);
    expect(Number(hba1c!.hi)).toBeLessThanOrEqual(14);
    expect(Number(hba1c!.mean)).toBeGreaterThan(5.5);
    const [rates] = await w.query(`WITH t2 AS (SELECT DISTINCT person_id FROM ${s}.condition_occurrence WHERE condition_concept_id = 201826),
        htn AS (SELECT DISTINCT person_id FROM ${s}.condition_occurrence WHERE condition_concept_id = 320128)
      SELECT (SELECT count(*) FROM htn WHERE person_id IN (SELECT person_id FROM t2)) * 1.0 / (SELECT count(*) FROM t2) AS in_diabetics,
             (SELECT count(*) FROM htn) * 1.0 / (SELECT count(*) FROM ${s}.person) AS overall,
             (SELECT count(DISTINCT person_id) FROM ${s}.drug_exposure WHERE drug_concept_id = 1503297 AND person_id IN (SELECT person_id FROM t2)) * 1.0 / (SELECT count(*) FROM t2) AS metformin`);
    expect(Number(rates!.in_diabetics)).toBeGreaterThan(Number(rates!.overall));
    expect(Number(rates!.metformin)).toBeGreaterThan(0.6);
    const [ancestor] = await w.query(`SELECT count(*) AS n FROM ${s}.concept_ancestor WHERE ancestor_concept_id = 201820 AND descendant_concept_id = 201826`);
    expect(ancestor!.n).toBe(1);
    const [sexes] = await w.query(`SELECT avg(CASE WHEN gender_concept_id = 8532 THEN 1 ELSE 0 END) AS female, count(*) AS n FROM ${s}.person`);
    expect(Number(sexes!.female)).toBeGreaterThan(0.45);
    expect(Number(sexes!.female)).toBeLessThan(0.56);
    expect(await count(w, 'death')).toBeGreaterThan(0);
    expect(await count(w, 'visit_occurrence')).toBeGreaterThan(5000);
  });

  it('keeps cohort snapshots that match their query', () => expectSnapshotsToMatchTheirQuery(w));

  it('stops a query at its time limit', async () => {
    const slow = 'SELECT count(*) AS n FROM range(100000000) a, range(1000) b WHERE (a.range * b.range) % 7 = 3';
    await expect(w.query(slow, [], { timeoutMs: 200 })).rejects.toBeInstanceOf(WarehouseTimeoutError);
  });

  it('names the units of measurement concepts in concept search', () => expectMeasurementUnits(w));

  it('keeps its data across a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-warehouse-'));
    const file = path.join(dir, 'warehouse.duckdb');
    const first = await DuckDbWarehouse.open(file);
    await first.load('small', syntheticDataset({ persons: 50, seed: 1 }));
    await first.close();
    const second = await DuckDbWarehouse.open(file);
    expect(second.state?.source).toBe('small');
    expect(await count(second, 'person')).toBe(50);
    await second.close();
  });
});

describe('the PostgreSQL warehouse', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let w: PostgresWarehouse;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    w = await PostgresWarehouse.open(database.url);
  });
  afterAll(async () => {
    await w.close();
    await database.drop();
  });

  it('imports the Eunomia Parquet sample through the same interface', async () => {
    expect(w.state).toBeNull();
    const report = await w.load('eunomia', omopDirectoryDataset(sampleDataset('eunomia-gibleed-omop-5.3')));
    expect(report.rows.person).toBe(2694);
    expect(await count(w, 'condition_occurrence')).toBe(65332);
    const person = (await w.describe()).find((t) => t.name === 'person')!;
    expect(person.columns.find((c) => c.name === 'person_id')!.type).toBe('bigint');
    const [row] = await w.query(`SELECT person_id, year_of_birth FROM "${w.state!.schema}".person ORDER BY person_id LIMIT 1`);
    expect(typeof row!.person_id).toBe('number');
  });

  it('keeps the previous data when an import fails, and a second process sees the new state', async () => {
    const before = w.state!.schema;
    const dir = brokenCopy(path.join(sampleDataset('synthea27nj-omop-5.4'), 'PERSON.csv'), 1, [/^(\d+),(\d+),(\d{4}),/, '$1,$2,nineteen,']);
    await expect(w.load('broken', omopDirectoryDataset(dir))).rejects.toThrow('person.year_of_birth, row 1 of Person.CSV');
    expect(w.state!.schema).toBe(before);
    expect(await count(w, 'person')).toBe(2694);
    await w.load('synthea', omopDirectoryDataset(sampleDataset('synthea27nj-omop-5.4')));
    const other = await PostgresWarehouse.open(database.url);
    expect(other.state?.source).toBe('synthea');
    expect(await count(other, 'person')).toBe(28);
    await other.close();
    const schemas = await w.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'cdm_%'");
    expect(schemas).toHaveLength(1);
  });

  it('keeps cohort snapshots that match their query', () => expectSnapshotsToMatchTheirQuery(w));

  it('names the units of measurement concepts in concept search', () => expectMeasurementUnits(w));

  it('stops a query at its time limit', async () => {
    await expect(w.query('SELECT pg_sleep(2)', [], { timeoutMs: 200 })).rejects.toBeInstanceOf(WarehouseTimeoutError);
  });
});
