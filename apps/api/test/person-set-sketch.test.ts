import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryGroup } from '@hdp/contract';
import { AGE_BAND_SQL, compileCohortAggregate, compileCohortPredicate } from '../src/warehouse/cohort-compiler';
import { aggregateGroups, cellSketchName, splitAggregateRows } from '../src/warehouse/cohort-results';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { keptCounts, nearCombination, type KeptSketch } from '../src/warehouse/ledger-combinations';
import { KEY_RANGE } from '../src/warehouse/perturbation';
import { CHECK_MODULUS, checkOf, sketchDifference, sketchOfKeys, withCellsList } from '../src/warehouse/person-set-sketch';
import { PostgresWarehouse } from '../src/warehouse/postgres-warehouse';
import { RECORD_KEY_COLUMN } from '../src/warehouse/record-keys';
import { syntheticDataset } from '../src/warehouse/synthetic-generator';
import type { WarehouseEngine } from '../src/warehouse/warehouse-engine';
import { createPostgresDatabase, testDbKind } from './support/test-database';

/**
 * The set-difference sketch the tracker defence compares answers by: read exactly for the small
 * differences it must see, whatever the sets' sizes; and computed by both warehouse engines, in the
 * answer's own statement, exactly as from the persons' keys.
 */
const keys = (size: number) => fc.uniqueArray(fc.integer({ min: 0, max: KEY_RANGE - 1 }), { minLength: size, maxLength: size });

describe('the sketch', () => {
  it('reads the size of a small difference between two large sets exactly (thousands of random pairs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }).chain((shared) => fc.tuple(keys(shared + 60), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }))), ([pool, onlyA, onlyB]) => {
        const shared = pool.slice(60);
        const a = [...shared, ...pool.slice(0, onlyA)];
        const b = [...shared, ...pool.slice(30, 30 + onlyB)];
        const difference = sketchDifference(sketchOfKeys(a), sketchOfKeys(b));
        // Two persons of the difference sharing all three cells cannot be peeled: below 1 in 10,000 for 60.
        if (difference === undefined) return;
        expect(difference).toBe(onlyA + onlyB);
      }),
      { numRuns: 300 },
    );
  });

  it("gives every key the check of its quadratic, read from the residues' table (every 24-bit key)", () => {
    const wrong: number[] = [];
    for (let key = 0; key < KEY_RANGE; key++) if (checkOf(key) !== (key * key + key) % CHECK_MODULUS) wrong.push(key);
    expect(wrong).toEqual([]);
  });

  it('peels almost every difference below 20, and says "at least" at the limit', () => {
    let unread = 0;
    fc.assert(
      fc.property(keys(500), fc.integer({ min: 1, max: 19 }), (pool, d) => {
        const difference = sketchDifference(sketchOfKeys(pool), sketchOfKeys(pool.slice(d)));
        if (difference === undefined) unread++;
        else expect(difference).toBe(d);
        expect(sketchDifference(sketchOfKeys(pool), sketchOfKeys(pool.slice(d)), 5)).toBe(Math.min(d, 5));
      }),
      { numRuns: 2000 },
    );
    expect(unread).toBeLessThanOrEqual(2);
  });

  it('tells large differences apart from small ones: never reads fewer than 20 for sets 20 or more apart', () => {
    fc.assert(
      fc.property(keys(400), fc.integer({ min: 20, max: 300 }), (pool, d) => {
        const difference = sketchDifference(sketchOfKeys(pool), sketchOfKeys(pool.slice(d)), 20);
        expect(difference === undefined || difference >= 20).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('combinations of two kept answers (ledger-combinations.ts)', () => {
  const kept = (id: number, set: number[]): KeptSketch => ({ ...keptCounts(id, set.length, sketchOfKeys(set)), sketch: sketchOfKeys(set) });
  const sorted = (answers: KeptSketch[]) => [...answers].sort((a, b) => a.personCount - b.personCount || a.id - b.id);

  it('finds a new answer within 1 to 19 persons of A − B or of A + B, and never one exactly equal to it or 20 or more away', () => {
    fc.assert(
      fc.property(keys(900), fc.integer({ min: 0, max: 40 }), fc.boolean(), fc.integer({ min: 0, max: 5 }), (pool, small, sum, others) => {
        // A = S ∪ Y ∪ X, B = X (the padded tracker), and as many unrelated kept answers.
        const [s, y, x] = [pool.slice(0, small), pool.slice(40, 140), pool.slice(140, 600)];
        const unrelated = Array.from({ length: others }, (_o, i) => kept(10 + i, pool.slice(600 + i * 50, 600 + i * 50 + 30 + i * 7)));
        const answers = sum
          ? // N = S ∪ Y ∪ X against kept Y and X.
            { fresh: [...s, ...y, ...x], kept: [kept(1, y), kept(2, x)] }
          : // N = Y against kept S ∪ Y ∪ X and X.
            { fresh: y, kept: [kept(1, [...s, ...y, ...x]), kept(2, x)] };
        const found = nearCombination({ personCount: answers.fresh.length, sketch: sketchOfKeys(answers.fresh) }, sorted([...answers.kept, ...unrelated]), 20);
        if (small >= 1 && small <= 19) {
          // Two of the persons of S sharing all three cells cannot be peeled: below 1 in 10,000.
          if (found === undefined) return;
          expect([found.first.id, found.second.id].sort()).toEqual([1, 2]);
          expect(found.sign).toBe(sum ? 1 : -1);
        } else expect(found).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});

/** The sketch the warehouse's aggregate gives for `tree`, and the one made here from the selected persons' keys. */
async function bothSketches(w: WarehouseEngine, tree: QueryGroup) {
  const schema = w.state!.schema;
  const aggregate = compileCohortAggregate(tree, schema, { sketches: true });
  const { rows, sketch, cellSketches } = splitAggregateRows(aggregateGroups(await w.queryColumns(aggregate.sql, aggregate.params), { sketches: true }));
  const predicate = compileCohortPredicate(tree, schema);
  const selected = (
    await w.query(
      `SELECT p."${RECORD_KEY_COLUMN}" AS k, p."gender_concept_id" AS sex, ${AGE_BAND_SQL} AS age_band, p."race_concept_id" AS race, p."ethnicity_concept_id" AS ethnicity FROM "${schema}"."person" p WHERE ${predicate.sql}`,
      predicate.params,
    )
  ).map((r) => ({ k: Number(r.k), cell: [r.sex, r.age_band, r.race, r.ethnicity].map((v) => (v === null ? 'unknown' : String(Number(v)))) as [string, string, string, string] }));
  // Every breakdown cell's sketch, made here from its own persons' keys; and the persons and key sum of each demographic group.
  const cellKeys = new Map<string, number[]>();
  const groups = new Map<string, { n: number; keySum: number }>();
  for (const { k, cell } of selected) {
    const [sex, ageBand, race, ethnicity] = cell;
    for (const name of [cellSketchName('sex', sex), cellSketchName('age_band', ageBand), cellSketchName('race', race), cellSketchName('ethnicity', ethnicity), cellSketchName('sex_by_age_band', sex, ageBand)]) {
      cellKeys.set(name, [...(cellKeys.get(name) ?? []), k]);
    }
    const group = groups.get(cell.join('|')) ?? { n: 0, keySum: 0 };
    groups.set(cell.join('|'), { n: group.n + 1, keySum: (group.keySum + k) % KEY_RANGE });
  }
  expect(cellSketches.size).toBeGreaterThan(0);
  expect(cellSketches).toEqual(new Map([...cellKeys].map(([name, keys]) => [name, sketchOfKeys(keys)])));
  expect(new Map(rows.map((r) => [[r.sex, r.ageBand, r.race, r.ethnicity].join('|'), { n: r.n, keySum: r.keySum }]))).toEqual(groups);
  // With the tracker defence off: the same groups, nothing sketched.
  const plain = compileCohortAggregate(tree, schema, { sketches: false });
  const unsketched = splitAggregateRows(aggregateGroups(await w.queryColumns(plain.sql, plain.params), { sketches: false }));
  expect(unsketched.rows).toEqual(expect.arrayContaining(rows));
  expect(unsketched.rows).toHaveLength(rows.length);
  expect(unsketched.cellSketches.size).toBe(0);
  return { rows, sketch, expected: sketchOfKeys(selected.map((r) => r.k)), persons: selected.length };
}

const TREES: QueryGroup[] = [
  { rules: [] },
  { rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] },
  { rules: [{ field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201826] }] },
];

async function expectSketchesFromSql(w: WarehouseEngine) {
  await w.load('synthetic', syntheticDataset({ persons: 3000, seed: 11 }));
  for (const tree of TREES) {
    const { rows, sketch, expected, persons } = await bothSketches(w, tree);
    expect(persons).toBeGreaterThan(0);
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(persons);
    expect(sketch).toEqual(expected);
  }
  // Two answers a few persons apart, read from the warehouse's own sketches.
  const from85 = await bothSketches(w, { rules: [{ field: 'person.age', operator: '>=', value: 85 }] });
  const from86 = await bothSketches(w, { rules: [{ field: 'person.age', operator: '>=', value: 86 }] });
  expect(from85.persons - from86.persons).toBeGreaterThan(0);
  expect(sketchDifference(from85.sketch, from86.sketch)).toBe(from85.persons - from86.persons);
}

// The engines are the warehouse's, not the platform database's: tested once, in the PGlite project.
describe.runIf(testDbKind() === 'pglite')('the sketch in the warehouse', () => {
  let duck: DuckDbWarehouse;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let postgres: PostgresWarehouse;
  beforeAll(async () => {
    duck = await DuckDbWarehouse.open(':memory:');
    database = await createPostgresDatabase();
    postgres = await PostgresWarehouse.open(database.url);
  }, 60_000);
  afterAll(async () => {
    await duck?.close();
    await postgres?.close();
    await database?.drop();
  });

  it('DuckDB computes it in the answer\'s statement exactly as from the persons\' keys', () => expectSketchesFromSql(duck), 60_000);
  it('PostgreSQL does too', () => expectSketchesFromSql(postgres), 120_000);
});

describe('the cells lent for sketching an answer', () => {
  it('are lent to one synchronous use at a time, empty each time, and never to an asynchronous one', () => {
    const outer = withCellsList(2, (cells) => {
      cells[1]!.keySums[5] = 42;
      // A use inside a use gets cells of its own: the outer ones stay as they were.
      withCellsList(2, (inner) => {
        expect(inner[1]!.keySums[5]).toBe(0);
        inner[1]!.keySums[5] = 7;
      });
      return cells[1]!.keySums[5];
    });
    expect(outer).toBe(42);
    withCellsList(2, (cells) => expect(cells.every((c) => c.counts.every((v) => v === 0) && c.keySums.every((v) => v === 0) && c.checkSums.every((v) => v === 0))).toBe(true));
    // Cells read after an await could be another answer's by then.
    expect(() => withCellsList(1, async () => undefined)).toThrow(/asynchronous/);
    withCellsList(1, (cells) => expect(cells[0]!.counts.length).toBeGreaterThan(0));
  });
});
