import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryGroup, QueryRule } from '@hdp/contract';
import { compileCohortCount, compileCohortPredicate, QueryTreeError } from '../src/warehouse/cohort-compiler';
import { runCohortQuery } from '../src/warehouse/cohort-results';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { ALLOWED_IDENTIFIERS, EXPLORER_TABLES, type FieldDefinition } from '../src/warehouse/explorer-fields';
import { PostgresWarehouse } from '../src/warehouse/postgres-warehouse';
import { syntheticDataset } from '../src/warehouse/synthetic-generator';
import { CONCEPT as C } from '../src/warehouse/synthetic-vocabulary';
import type { WarehouseEngine } from '../src/warehouse/warehouse-engine';
import { createPostgresDatabase } from './support/test-database';

const SCHEMA = 'cdm_test_schema';

/** The words the compiler itself writes; anything else in its SQL would have come from the input. */
const SQL_WORDS = new Set([
  'SELECT', 'COUNT', 'AS', 'n', 'FROM', 'p', 'e', 'ca', 'WHERE', 'AND', 'OR', 'NOT', 'EXISTS', 'IN', 'IS', 'NULL', 'TRUE',
  'BETWEEN', 'CAST', 'BIGINT', 'DOUBLE', 'PRECISION', 'DATE', 'VARCHAR', 'EXTRACT', 'YEAR', 'current_date', 'strpos', 'lower',
  'starts_with', 'UNION', 'ALL',
]);

/** Checks one compiled predicate: bound values only, identifiers from the allow-list, no foreign words. */
function checkCompiled(sql: string, params: unknown[]): void {
  expect(sql).not.toContain("'");
  expect(sql).not.toContain(';');
  expect(sql).not.toContain('--');
  const placeholders = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  expect([...placeholders].sort((a, b) => a - b)).toEqual(params.map((_v, i) => i + 1));
  for (const [, name] of sql.matchAll(/"([^"]*)"/g)) {
    if (name !== SCHEMA) expect(ALLOWED_IDENTIFIERS.has(name!), `identifier ${name}`).toBe(true);
  }
  const rest = sql.replace(/"[^"]*"/g, ' ').replace(/\$\d+/g, ' ');
  for (const word of rest.match(/[A-Za-z_][A-Za-z_0-9]*/g) ?? []) expect(SQL_WORDS.has(word), `word ${word}`).toBe(true);
  for (const token of rest.match(/[^\sA-Za-z_0-9]+/g) ?? []) expect(/^[().,=<>*+-]+$/.test(token), `token ${token}`).toBe(true);
}

const HOSTILE = fc.constantFrom(
  "'; DROP TABLE person; --", '" OR 1=1 --', 'person.person_id"; DELETE FROM concept; --', '$1', '\u0000', 'measurement',
  'person.gender_concept_id', 'condition_occurrence.condition_concept_id', 'measurement.value_as_number', 'between', 'in', '=',
  'person.age', 'drug_exposure.record_count', 'toString', '__proto__', 'constructor',
);
const hostileValue = fc.oneof(HOSTILE, fc.anything({ maxDepth: 2 }), fc.integer(), fc.double(), fc.array(fc.oneof(HOSTILE, fc.integer()), { maxLength: 3 }));

const FIELD_NAMES = EXPLORER_TABLES.flatMap((t) => t.fields.map((f) => f.name));
const likely = <T>(valid: fc.Arbitrary<T>, weight = 6) => fc.oneof({ arbitrary: valid, weight }, { arbitrary: hostileValue, weight: 1 });
const plausibleValue = fc.oneof(
  fc.integer({ min: -5, max: 300 }),
  fc.constantFrom('2020-01-01', '2020-13-01', '7', '1,2', '2019-01-01,2021-01-01', ''),
  fc.array(fc.oneof(fc.integer(), HOSTILE), { maxLength: 3 }),
  HOSTILE,
);

/** Trees made of anything: wrong shapes, unknown fields, injected text — mostly well-formed so the checks go deep. */
const hostileTree = fc.letrec<{ tree: unknown; item: unknown }>((tie) => ({
  tree: fc.record(
    {
      combinator: likely(fc.constantFrom('and', 'or', 'AND', 'Or')),
      not: likely(fc.boolean()),
      table: likely(fc.constantFrom(...EXPLORER_TABLES.map((t) => t.name)), 3),
      rules: fc.array(tie('item'), { maxLength: 4 }),
    },
    { requiredKeys: ['rules'] },
  ),
  item: fc.oneof(
    { depthSize: 'small' },
    fc.record(
      {
        field: likely(fc.constantFrom(...FIELD_NAMES)),
        operator: likely(fc.constantFrom('=', '!=', '<', '>=', 'in', 'notIn', 'between', 'notBetween', 'null', 'notNull', 'contains')),
        value: fc.oneof({ arbitrary: plausibleValue, weight: 4 }, { arbitrary: hostileValue, weight: 1 }),
        includeDescendants: likely(fc.boolean()),
      },
      { requiredKeys: ['field', 'operator'] },
    ),
    tie('tree'),
    hostileValue,
  ),
})).tree;

// Values that exist in the synthetic data, so that valid trees select something.
const CONCEPTS_BY_DOMAIN: Record<string, number[]> = {
  Condition: [C.diabetes, C.type2Diabetes, C.type1Diabetes, C.essentialHypertension, C.hypertensiveDisorder, C.ckd, C.ckdStage3, C.asthma, C.myocardialInfarction],
  Drug: [C.metformin, C.insulinGlargine, C.lisinopril, C.antidiabetics, C.antihypertensives, C.albuterol],
  Measurement: [C.hba1c, C.glucose, C.systolic, C.bmi],
  Unit: [C.percent, C.mgPerDl, C.mmHg],
  Observation: [C.neverSmoker, C.currentSmoker],
  Procedure: [C.hemodialysis, C.retinalExam],
  Visit: [C.inpatient, C.outpatient, C.emergency],
  'Meas Value': [0],
};
const dateValue = fc.integer({ min: 2008, max: 2025 }).chain((y) => fc.integer({ min: 1, max: 12 }).map((m) => `${y}-${String(m).padStart(2, '0')}-15`));

function valueFor(field: FieldDefinition, operator: string): fc.Arbitrary<unknown> {
  const one: fc.Arbitrary<unknown> =
    field.valueEditor.type === 'select'
      ? fc.constantFrom(...field.valueEditor.values!.map((v) => v.value))
      : field.type === 'concept'
        ? fc.constantFrom(...(CONCEPTS_BY_DOMAIN[field.valueEditor.domain!] ?? [0]))
        : field.type === 'date'
          ? dateValue
          : field.type === 'count'
            ? fc.integer({ min: 0, max: 4 })
            : field.name.endsWith('age') || field.name.endsWith('age_at_event')
              ? fc.integer({ min: 0, max: 100 })
              : fc.oneof(fc.integer({ min: 0, max: 250 }), fc.double({ min: 0, max: 250, noNaN: true }).map((d) => Math.round(d * 10) / 10));
  if (operator === 'in' || operator === 'notIn') return fc.array(one, { minLength: 1, maxLength: 3 });
  if (operator === 'between' || operator === 'notBetween') return fc.tuple(one, one);
  if (operator === 'null' || operator === 'notNull') return fc.constant(null);
  return one;
}

const ruleFor = (fields: FieldDefinition[]): fc.Arbitrary<QueryRule> =>
  fc.constantFrom(...fields).chain((field) =>
    fc.constantFrom(...field.operators.map((o) => o.name)).chain((operator) =>
      fc.record({
        field: fc.constant(field.name),
        operator: fc.constant(operator),
        value: valueFor(field, operator),
        includeDescendants: field.includesDescendants ? fc.boolean() : fc.constant(undefined),
      }),
    ),
  );

const person = EXPLORER_TABLES.find((t) => t.name === 'person')!;
const events = EXPLORER_TABLES.filter((t) => t.kind === 'event');
const plainFields = (t: (typeof EXPLORER_TABLES)[number]) => t.fields.filter((f) => f.source.kind !== 'recordCount');

/** Valid trees: person rules, lone event rules, scoped event groups (with record counts), nesting and not. */
const validTree: fc.Arbitrary<QueryGroup> = fc.letrec<{ group: QueryGroup; item: QueryRule | QueryGroup }>((tie) => ({
  group: fc.record({
    combinator: fc.constantFrom('and', 'or'),
    not: fc.boolean(),
    rules: fc.array(tie('item'), { maxLength: 3 }),
  }),
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ruleFor(plainFields(person)),
    ruleFor(events.flatMap(plainFields)),
    fc.constantFrom(...events).chain((table) =>
      fc.record({
        table: fc.constant(table.name),
        combinator: fc.constant('and' as const),
        not: fc.boolean(),
        rules: fc.tuple(
          fc.array(ruleFor(plainFields(table)), { maxLength: 3 }),
          fc.option(ruleFor(table.fields.filter((f) => f.source.kind === 'recordCount')), { nil: undefined }),
        ).map(([rules, countRule]) => (countRule ? [...rules, countRule] : rules)),
      }),
    ),
    tie('group'),
  ),
})).group;

describe('the compiler on hostile trees', () => {
  it('either refuses with a message naming the rule, or writes SQL with bound values and allow-listed identifiers only', () => {
    fc.assert(
      fc.property(hostileTree, (tree) => {
        try {
          const { sql, params } = compileCohortPredicate(tree as QueryGroup, SCHEMA);
          checkCompiled(sql, params);
        } catch (error) {
          if (!(error instanceof QueryTreeError)) throw error;
          expect(error.message).toMatch(/^query(\.rules\[\d+\])*( \(.*\))?: /);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('compiles every valid tree to SQL with bound values only', () => {
    fc.assert(
      fc.property(validTree, (tree) => {
        const { sql, params } = compileCohortPredicate(tree, SCHEMA);
        checkCompiled(sql, params);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the rule that is wrong', () => {
    const refuse = (tree: unknown) => {
      try {
        compileCohortPredicate(tree as QueryGroup, SCHEMA);
      } catch (error) {
        return (error as Error).message;
      }
      return 'compiled';
    };
    expect(refuse({ rules: [{ field: 'person.age', operator: '>', value: 3 }, { field: 'person.ssn', operator: '=', value: 1 }] })).toBe(
      'query.rules[1] (person.ssn): unknown field',
    );
    expect(refuse({ rules: [{ table: 'measurement', rules: [{ field: 'measurement.value_as_number', operator: '>', value: 'seven' }] }] })).toBe(
      'query.rules[0].rules[0] (measurement.value_as_number): value must be a number',
    );
    expect(refuse({ rules: [{ table: 'measurement', rules: [{ field: 'drug_exposure.drug_concept_id', operator: 'in', value: [1] }] }] })).toBe(
      'query.rules[0].rules[0] (drug_exposure.drug_concept_id): belongs to drug_exposure, not to this measurement group',
    );
    expect(refuse({ rules: [{ field: 'person.age', operator: 'LIKE', value: 3 }] })).toMatch(/^query.rules\[0\] \(person.age\): operator "LIKE" is not allowed/);
    expect(refuse({ rules: [{ field: 'condition_occurrence.condition_start_date', operator: '>', value: '2020-02-30' }] })).toBe(
      'query.rules[0] (condition_occurrence.condition_start_date): value must be a date, YYYY-MM-DD',
    );
    expect(refuse({ table: 'users', rules: [] })).toBe('query: unknown table "users"');
  });
});

describe('what a query means (same data on DuckDB and PostgreSQL)', () => {
  let duck: DuckDbWarehouse;
  let postgres: PostgresWarehouse;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    duck = await DuckDbWarehouse.open(':memory:');
    database = await createPostgresDatabase();
    postgres = await PostgresWarehouse.open(database.url);
    const dataset = syntheticDataset({ persons: 600, seed: 5 });
    await Promise.all([duck.load('synthetic', dataset), postgres.load('synthetic', dataset)]);
  }, 120_000);
  afterAll(async () => {
    await duck.close();
    await postgres.close();
    await database.drop();
  });

  const countOn = async (w: WarehouseEngine, tree: QueryGroup) => {
    const { sql, params } = compileCohortCount(tree, w.state!.schema);
    return Number((await w.query(sql, params))[0]!.n);
  };
  const sql = async (w: WarehouseEngine, text: string) => Number((await w.query(text.replaceAll('S.', `"${w.state!.schema}".`)))[0]!.n);

  it('gives the same counts on both engines for random valid trees', async () => {
    await fc.assert(
      fc.asyncProperty(validTree, async (tree) => {
        expect(await countOn(postgres, tree)).toBe(await countOn(duck, tree));
      }),
      { numRuns: 400 },
    );
  }, 120_000);

  it('gives the same suppressed results, breakdowns included, on both engines', async () => {
    const trees: QueryGroup[] = [
      { rules: [] },
      { rules: [{ field: 'person.gender_concept_id', operator: '=', value: C.female }, { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [C.diabetes] }] },
      { rules: [{ table: 'measurement', rules: [{ field: 'measurement.measurement_concept_id', operator: '=', value: C.hba1c }, { field: 'measurement.value_as_number', operator: '>', value: 7 }] }] },
    ];
    for (const tree of trees) {
      // Each engine made its own secret record keys when it loaded, so perturbation is off to compare them.
      const options = { threshold: 20, perturbation: { maxChange: 0 }, timeoutMs: 10_000, trackerDefence: false };
      const { execution_time_ms: _a, ...onDuck } = await runCohortQuery(duck, tree, options);
      const { execution_time_ms: _b, ...onPostgres } = await runCohortQuery(postgres, tree, options);
      expect(onPostgres).toEqual(onDuck);
    }
  });

  it('a scoped group matches all its rules on the same record; separate rules may match different records', async () => {
    const hba1c = { field: 'measurement.measurement_concept_id', operator: '=', value: C.hba1c };
    const high = { field: 'measurement.value_as_number', operator: '>', value: 120 };
    const same = await countOn(duck, { rules: [{ table: 'measurement', rules: [hba1c, high] }] });
    const separate = await countOn(duck, { rules: [hba1c, high] });
    expect(same).toBe(0);
    expect(separate).toBeGreaterThan(0);
    expect(await countOn(duck, { rules: [{ table: 'measurement', rules: [hba1c, { ...high, value: 7 }] }] })).toBe(
      await sql(duck, 'SELECT count(DISTINCT person_id) AS n FROM S.measurement WHERE measurement_concept_id = 3004410 AND value_as_number > 7'),
    );
  });

  it('includes descendant concepts unless told not to', async () => {
    const diabetes = { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [C.diabetes] };
    const withDescendants = await countOn(duck, { rules: [diabetes] });
    expect(withDescendants).toBe(await sql(duck, 'SELECT count(DISTINCT person_id) AS n FROM S.condition_occurrence WHERE condition_concept_id IN (201820, 201826, 201254)'));
    expect(withDescendants).toBeGreaterThan(0);
    expect(await countOn(duck, { rules: [{ ...diabetes, includeDescendants: false }] })).toBe(0);
  });

  it('counts occurrences ("at least N"), age at event, date ranges and not', async () => {
    const atLeast3 = await countOn(duck, {
      rules: [{ table: 'condition_occurrence', rules: [{ field: 'condition_occurrence.condition_concept_id', operator: '=', value: C.type2Diabetes }, { field: 'condition_occurrence.record_count', operator: '>=', value: 3 }] }],
    });
    expect(atLeast3).toBe(await sql(duck, 'SELECT count(*) AS n FROM (SELECT person_id FROM S.condition_occurrence WHERE condition_concept_id = 201826 GROUP BY 1 HAVING count(*) >= 3)'));
    const ageAtEvent = await countOn(duck, { rules: [{ table: 'condition_occurrence', rules: [{ field: 'condition_occurrence.condition_concept_id', operator: '=', value: C.essentialHypertension }, { field: 'condition_occurrence.age_at_event', operator: '<', value: 50 }] }] });
    expect(ageAtEvent).toBe(await sql(duck, 'SELECT count(DISTINCT c.person_id) AS n FROM S.condition_occurrence c JOIN S.person p USING (person_id) WHERE condition_concept_id = 320128 AND year(condition_start_date) - p.year_of_birth < 50'));
    const inRange = await countOn(duck, { rules: [{ field: 'drug_exposure.drug_exposure_start_date', operator: 'between', value: '2020-01-01,2020-12-31' }] });
    expect(inRange).toBe(await sql(duck, "SELECT count(DISTINCT person_id) AS n FROM S.drug_exposure WHERE drug_exposure_start_date BETWEEN DATE '2020-01-01' AND DATE '2020-12-31'"));
    const all = await countOn(duck, { rules: [] });
    const died = await countOn(duck, { rules: [{ table: 'death', rules: [] }] });
    expect(await countOn(duck, { rules: [{ table: 'death', not: true, rules: [] }] })).toBe(all - died);
    expect(await countOn(duck, { not: true, rules: [{ table: 'death', rules: [] }] })).toBe(all - died);
  });
});
