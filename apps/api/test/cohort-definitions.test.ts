import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CohortDefinitionInput, CorrelatedCriteria, Criteria, QueryGroup } from '@hdp/contract';
import { compileCohortCount, compileDefinitionAnswer, compileDefinitionPeriods, QueryTreeError } from '../src/warehouse/cohort-compiler';
import { measureAttrition, readDefinitionAnswer, runCohortQuery } from '../src/warehouse/cohort-results';
import { datasetFacts, knownDatasetFacts, NO_FACTS, type DatasetFacts } from '../src/warehouse/dataset-facts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { omopDirectoryDataset } from '../src/warehouse/omop-importer';
import { sketchOfKeys } from '../src/warehouse/person-set-sketch';
import { PostgresWarehouse } from '../src/warehouse/postgres-warehouse';
import { RECORD_KEY_COLUMN } from '../src/warehouse/record-keys';
import { syntheticDataset } from '../src/warehouse/synthetic-generator';
import { CONCEPT as C } from '../src/warehouse/synthetic-vocabulary';
import type { WarehouseEngine } from '../src/warehouse/warehouse-engine';
import { definitionQuery, OHDSI_DEFINITIONS } from './support/ohdsi-definitions';
import { createPostgresDatabase } from './support/test-database';
import { sampleDataset } from './support/warehouse-fixtures';

const OPEN = { threshold: 0, perturbation: { maxChange: 0 }, trackerDefence: false, timeoutMs: 60_000 };

/** Both warehouse engines, loaded with the same dataset. */
function bothEngines(source: string, build: () => Parameters<WarehouseEngine['load']>[1]) {
  const engines: { duck?: DuckDbWarehouse; postgres?: PostgresWarehouse } = {};
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    engines.duck = await DuckDbWarehouse.open(':memory:');
    database = await createPostgresDatabase();
    engines.postgres = await PostgresWarehouse.open(database.url);
    await Promise.all([engines.duck.load(source, build()), engines.postgres.load(source, build())]);
  }, 240_000);
  afterAll(async () => {
    await engines.duck?.close();
    await engines.postgres?.close();
    await database?.drop();
  });
  return engines;
}

/** The cohort's periods as `person start end` lines, in order. */
async function periodsOf(warehouse: WarehouseEngine, definition: CohortDefinitionInput): Promise<string[]> {
  const periods = compileDefinitionPeriods(definitionQuery(definition), warehouse.state!.schema)!;
  const rows = await warehouse.query(
    `SELECT person_id, CAST(start_date AS VARCHAR) AS s, CAST(end_date AS VARCHAR) AS e FROM (${periods.sql}) x ORDER BY person_id, start_date`,
    periods.params,
  );
  return rows.map((r) => `${Number(r.person_id)} ${String(r.s)} ${String(r.e)}`);
}

/**
 * Everything one definition answer says before disclosure control, compiled assuming `facts`: each
 * attrition step's persons, events and key sums, the inclusion-rule masks, each step's sketch, the
 * answer's demographic groups and the sketches of its persons and of each breakdown cell.
 */
async function answerWith(warehouse: WarehouseEngine, definition: CohortDefinitionInput, facts: DatasetFacts) {
  const answer = compileDefinitionAnswer(definitionQuery(definition), warehouse.state!.schema, facts)!;
  const { attrition, stepSketches, groups, sketches } = readDefinitionAnswer(answer, await warehouse.queryColumns(answer.sql, answer.params));
  const cells = (c: { counts: ArrayLike<number>; keySums: ArrayLike<number>; checkSums: ArrayLike<number> }) => [Array.from(c.counts), Array.from(c.keySums), Array.from(c.checkSums)];
  return {
    steps: attrition.steps,
    masks: [...attrition.masks].sort(([a], [b]) => a - b),
    stepSketches: [...stepSketches].sort(([a], [b]) => a - b).map(([step, sketch]) => [step, cells(sketch)]),
    groups: groups.map(({ keys: _keys, ...group }) => group).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    sketch: cells(sketches.sketch),
    cellSketches: [...sketches.cellSketches].sort(([a], [b]) => a.localeCompare(b)).map(([name, sketch]) => [name, cells(sketch)]),
  };
}

/** OHDSI's published inclusion-rule tables for one cohort, mode 1 (best event per person). */
function publishedRules(cohortId: number) {
  const csv = (name: string) => {
    const [header, ...lines] = fs.readFileSync(path.join(sampleDataset('eunomia-gibleed-omop-5.3'), '..', 'ohdsi-cohort-definitions', name), 'utf8').trim().split('\n');
    const keys = header!.split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i]!, v])));
  };
  const mine = (r: Record<string, string>) => Number(r.cohort_definition_id) === cohortId && r.mode_id === '1';
  return {
    masks: new Map(csv('cg_cohort_inc_result.csv').filter(mine).map((r) => [Number(r.inclusion_rule_mask), Number(r.person_count)])),
    stats: csv('cg_cohort_inc_stats.csv').filter(mine).map((r) => ({ rule: Number(r.rule_sequence), passing: Number(r.person_count), gain: Number(r.gain_count) })),
    censorLost: csv('cg_cohort_censor_stats.csv').find((r) => Number(r.cohort_definition_id) === cohortId)?.lost_count,
  };
}

/** The dataset's facts once found: the first definition run starts looking for them, and no run waits. */
async function factsFound(warehouse: WarehouseEngine): Promise<DatasetFacts> {
  const schema = warehouse.state!.schema;
  datasetFacts(warehouse, schema, 60_000);
  for (let waited = 0; waited < 20_000; waited += 50) {
    const facts = knownDatasetFacts(warehouse, schema);
    if (facts) return facts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the dataset facts were not found in 20 s');
}

describe("OHDSI's four definitions on Eunomia GiBleed give OHDSI's published counts, on both engines", () => {
  const engines = bothEngines('eunomia', () => omopDirectoryDataset(sampleDataset('eunomia-gibleed-omop-5.3')));
  const cases = [
    { name: 'celecoxib', id: 1, persons: 1800 },
    { name: 'celecoxibAge40', id: 2, persons: 569 },
    { name: 'celecoxibAge40Male', id: 3, persons: 266 },
    { name: 'celecoxibCensored', id: 4, persons: 1750 },
  ] as const;
  for (const engine of ['duck', 'postgres'] as const) {
    for (const c of cases) {
      it(`${c.name} on ${engine}: ${c.persons} persons, the inclusion report and the censor window`, async () => {
        const warehouse = engines[engine]!;
        const tree = definitionQuery(OHDSI_DEFINITIONS[c.name]);
        const result = await runCohortQuery(warehouse, tree, OPEN);
        expect(result.person_count).toBe(c.persons);
        const attrition = result.attrition!;
        const persons = Object.fromEntries(attrition.steps.map((s) => [s.rule === undefined ? s.step : `rule${s.rule}`, s.persons.count]));
        expect(persons.primary_limit).toBe(1800);
        expect(persons.qualified_limit).toBe(1800);
        expect(attrition.steps.at(-1)!.persons.count).toBe(c.persons);

        const published = publishedRules(c.id);
        const measured = (await measureAttrition(warehouse, warehouse.state!.schema, tree, 60_000))!;
        expect(new Map([...measured.masks].map(([mask, m]) => [mask, m.persons]))).toEqual(published.masks);
        expect(attrition.inclusion_rules.map((r) => ({ rule: r.rule, passing: r.persons_passing.count, gain: r.gain.count }))).toEqual(published.stats);
        if (published.censorLost !== undefined) {
          // Circe counts the periods the censor window removes; here every person has one period.
          expect(persons.cohort_exit! - persons.censor_window!).toBe(Number(published.censorLost));
        }
      }, 60_000);
    }
    it(`gives the same counts once it knows Eunomia has no overlapping observation periods (${engine})`, async () => {
      const warehouse = engines[engine]!;
      expect(await factsFound(warehouse)).toMatchObject({ observationPeriodsDisjoint: true, inlineOneEventPerPerson: engine === 'duck' });
      for (const c of cases) {
        const result = await runCohortQuery(warehouse, definitionQuery(OHDSI_DEFINITIONS[c.name]), OPEN);
        expect([c.name, result.person_count]).toEqual([c.name, c.persons]);
      }
    }, 60_000);
  }
});

// A small CDM written by hand: five persons, observed 2000–2020 (person 3 from 2001-01-01).
const DRUG = 100;
const DRUG_CHILD = 101;
const CONDITION = 200;
const CENSOR = 300;
const DRUG_B = 110;
const EHR = 32817;
const CLAIM = 32810;
const FIXTURE: Record<string, (string | number | null)[][]> = {
  person: [1, 2, 3, 4, 5, 6, 7].map((id) => [id, 8507, 1950]),
  observation_period: [
    ...[1, 2, 3, 4, 5, 7].map((id) => [id, id, id === 3 ? '2001-01-01' : '2000-01-01', '2020-12-31']),
    // Person 6's two periods overlap (the CDM does not allow it; data can have it).
    [61, 6, '2000-01-01', '2010-12-31'],
    [62, 6, '2005-01-01', '2015-12-31'],
  ],
  // drug_exposure_id, person, concept, start, end, days supply, refills, record type (EHR 32817, claim 32810)
  drug_exposure: [
    [11, 1, DRUG, '2010-01-01', null, 30, 0, EHR],
    [12, 1, DRUG, '2010-02-15', null, 30, 2, CLAIM],
    [13, 1, DRUG, '2012-01-01', null, 10, 1, EHR],
    [21, 2, DRUG_CHILD, '2005-06-01', null, 10, null, CLAIM],
    [31, 3, DRUG, '2001-01-10', null, 5, 3, null],
    [51, 5, DRUG, '2018-05-01', '2018-05-31', null, 0, EHR],
    // Drug B: person 6 (in both overlapping periods), person 7 (two records on the first day, the lower id first).
    [601, 6, DRUG_B, '2008-03-01', null, 10, 0, EHR],
    [602, 6, DRUG_B, '2009-01-01', null, 10, 0, EHR],
    [702, 7, DRUG_B, '2012-05-01', null, 5, 0, EHR],
    [701, 7, DRUG_B, '2012-05-01', null, 20, 0, EHR],
  ],
  // condition_occurrence_id, person, concept, start
  condition_occurrence: [
    [101, 1, CONDITION, '2009-12-15'],
    [102, 1, CENSOR, '2010-03-01'],
    [201, 2, CONDITION, '2004-01-01'],
    [202, 2, CONDITION, '2005-06-20'],
    [301, 3, CONDITION, '2001-01-05'],
    [302, 3, CONDITION, '2001-01-07'],
    [401, 4, CONDITION, '2015-01-01'],
    [501, 5, CENSOR, '2018-05-10'],
  ],
};
const COLUMNS: Record<string, string> = {
  person: 'person_id, gender_concept_id, year_of_birth',
  observation_period: 'observation_period_id, person_id, observation_period_start_date, observation_period_end_date',
  drug_exposure: 'drug_exposure_id, person_id, drug_concept_id, drug_exposure_start_date, drug_exposure_end_date, days_supply, refills, drug_type_concept_id',
  condition_occurrence: 'condition_occurrence_id, person_id, condition_concept_id, condition_start_date',
};
const literal = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v}'`);
async function handMadeCdm(db: DuckDBConnection, schema: string): Promise<void> {
  for (const [table, rows] of Object.entries(FIXTURE)) {
    await db.run(`INSERT INTO "${schema}"."${table}" (${COLUMNS[table]}) VALUES ${rows.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}`);
  }
  await db.run(`INSERT INTO "${schema}"."concept" (concept_id, concept_name, domain_id, vocabulary_id, concept_class_id, standard_concept, concept_code)
    VALUES (${DRUG}, 'Drug A', 'Drug', 'RxNorm', 'Ingredient', 'S', 'a'), (${DRUG_CHILD}, 'Drug A 10 mg', 'Drug', 'RxNorm', 'Clinical Drug', 'S', 'a10'),
           (${CONDITION}, 'Condition X', 'Condition', 'SNOMED', 'Clinical Finding', 'S', 'x'), (${CENSOR}, 'Condition Y', 'Condition', 'SNOMED', 'Clinical Finding', 'S', 'y'),
           (${DRUG_B}, 'Drug B', 'Drug', 'RxNorm', 'Ingredient', 'S', 'b')`);
  await db.run(`INSERT INTO "${schema}"."concept_ancestor" VALUES (${DRUG}, ${DRUG}, 0, 0), (${DRUG}, ${DRUG_CHILD}, 1, 1), (${DRUG_CHILD}, ${DRUG_CHILD}, 0, 0)`);
}

const CONCEPT_SETS = [
  { id: 1, name: 'Drug A', expression: { items: [{ conceptId: DRUG, includeDescendants: true }] } },
  { id: 2, name: 'Condition X', expression: { items: [{ conceptId: CONDITION }] } },
  { id: 3, name: 'Condition Y', expression: { items: [{ conceptId: CENSOR }] } },
  { id: 4, name: 'Drug A alone', expression: { items: [{ conceptId: DRUG }] } },
  { id: 5, name: 'Drug B', expression: { items: [{ conceptId: DRUG_B }] } },
];
const drugEntry = (over: Partial<CohortDefinitionInput> = {}, limit: 'First' | 'Last' | 'All' = 'First', priorDays = 0): CohortDefinitionInput => ({
  conceptSets: CONCEPT_SETS,
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 1 }], observationWindow: { priorDays, postDays: 0 }, primaryCriteriaLimit: { type: limit } },
  ...over,
});
const conditionIn = (start: number | null, end: number | null, occurrence: CorrelatedCriteria['occurrence'], criteria: Partial<Criteria> = {}): CorrelatedCriteria => ({
  criteria: { kind: 'ConditionOccurrence', codesetId: 2, ...criteria },
  startWindow: { start: { days: start === null ? null : Math.abs(start), coeff: start !== null && start > 0 ? 1 : -1 }, end: { days: end === null ? null : Math.abs(end), coeff: end !== null && end < 0 ? -1 : 1 } },
  occurrence,
});
const rule = (name: string, ...criteriaList: CorrelatedCriteria[]) => ({ name, expression: { type: 'ALL' as const, criteriaList } });
const offsetExit = { type: 'DateOffset' as const, dateField: 'EndDate' as const, offset: 0 };
/** The person's first exposure to `codesetId` in their history (Circe's "first occurrence"), limited to the earliest, with `priorDays` observed before it. */
const firstExposure = (codesetId: number, priorDays: number, over: Partial<CohortDefinitionInput> = {}): CohortDefinitionInput => ({
  ...drugEntry(over),
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId, first: true }], observationWindow: { priorDays, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
});
/** Every drug exposure meeting `drug`'s attributes, each its own period (from its start to its end). */
const everyExposure = (drug: Partial<Criteria>): CohortDefinitionInput => ({
  ...drugEntry({ qualifiedLimit: { type: 'All' }, expressionLimit: { type: 'All' }, endStrategy: offsetExit }, 'All'),
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 1, ...drug }], observationWindow: { priorDays: 0, postDays: 0 }, primaryCriteriaLimit: { type: 'All' } },
});

describe('what each part of a definition means, on a hand-made CDM (expected rows written by hand), on both engines', () => {
  const engines = bothEngines('hand-made', () => handMadeCdm);
  const cases: [string, CohortDefinitionInput, string[]][] = [
    ['entry: first exposure with 365 days of prior observation, descendants included; exit at the end of observation', drugEntry({}, 'First', 365), ['1 2010-01-01 2020-12-31', '2 2005-06-01 2020-12-31', '5 2018-05-01 2020-12-31']],
    ['a concept set without descendants leaves out the child concept', { ...drugEntry({}, 'First', 365), primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 4 }], observationWindow: { priorDays: 365, postDays: 0 } } }, ['1 2010-01-01 2020-12-31', '5 2018-05-01 2020-12-31']],
    ['entry limit last; exit at the event end (days supply, else the recorded end)', drugEntry({ endStrategy: offsetExit }, 'Last'), ['1 2012-01-01 2012-01-11', '2 2005-06-01 2005-06-11', '3 2001-01-10 2001-01-15', '5 2018-05-01 2018-05-31']],
    ['all events, no merging', drugEntry({ qualifiedLimit: { type: 'All' }, expressionLimit: { type: 'All' }, endStrategy: offsetExit }, 'All'),
      ['1 2010-01-01 2010-01-31', '1 2010-02-15 2010-03-17', '1 2012-01-01 2012-01-11', '2 2005-06-01 2005-06-11', '3 2001-01-10 2001-01-15', '5 2018-05-01 2018-05-31']],
    ['all events, periods up to 30 days apart merged', drugEntry({ qualifiedLimit: { type: 'All' }, expressionLimit: { type: 'All' }, endStrategy: offsetExit, collapseSettings: { collapseType: 'ERA', eraPad: 30 } }, 'All'),
      ['1 2010-01-01 2010-03-17', '1 2012-01-01 2012-01-11', '2 2005-06-01 2005-06-11', '3 2001-01-10 2001-01-15', '5 2018-05-01 2018-05-31']],
    ['exposures with at least 1 refill (none recorded is not at least 1)', everyExposure({ refills: { op: 'gte', value: 1 } }), ['1 2010-02-15 2010-03-17', '1 2012-01-01 2012-01-11', '3 2001-01-10 2001-01-15']],
    ['exposures recorded as claims', everyExposure({ typeConcepts: [CLAIM] }), ['1 2010-02-15 2010-03-17', '2 2005-06-01 2005-06-11']],
    [
      'exposures not recorded as claims (a record without a type is left out too, as Circe\'s NOT IN leaves it)',
      everyExposure({ typeConcepts: [CLAIM], typeExclude: true }),
      ['1 2010-01-01 2010-01-31', '1 2012-01-01 2012-01-11', '5 2018-05-01 2018-05-31'],
    ],
    ['at least 1 condition between 30 days before and 0 days after', drugEntry({ inclusionRules: [rule('prior condition', conditionIn(-30, 0, { type: 'AT_LEAST', count: 1 }))] }), ['1 2010-01-01 2020-12-31', '3 2001-01-10 2020-12-31']],
    ['exactly 2 in that window', drugEntry({ inclusionRules: [rule('two', conditionIn(-30, 0, { type: 'EXACTLY', count: 2 }))] }), ['3 2001-01-10 2020-12-31']],
    ['at most 1 in that window (none counts)', drugEntry({ inclusionRules: [rule('at most one', conditionIn(-30, 0, { type: 'AT_MOST', count: 1 }))] }), ['1 2010-01-01 2020-12-31', '2 2005-06-01 2020-12-31', '5 2018-05-01 2020-12-31']],
    ['exactly 0 in that window', drugEntry({ inclusionRules: [rule('none', conditionIn(-30, 0, { type: 'EXACTLY', count: 0 }))] }), ['2 2005-06-01 2020-12-31', '5 2018-05-01 2020-12-31']],
    ['at least 2 distinct start dates', drugEntry({ inclusionRules: [rule('distinct', conditionIn(-30, 0, { type: 'AT_LEAST', count: 2, isDistinct: true, countColumn: 'START_DATE' }))] }), ['3 2001-01-10 2020-12-31']],
    ['an open start: any time in the observation period before the index', drugEntry({ inclusionRules: [rule('ever before', conditionIn(null, 0, { type: 'AT_LEAST', count: 1 }))] }), ['1 2010-01-01 2020-12-31', '2 2005-06-01 2020-12-31', '3 2001-01-10 2020-12-31']],
    ['a window after the index', drugEntry({ inclusionRules: [rule('after', conditionIn(1, 30, { type: 'AT_LEAST', count: 1 }))] }), ['2 2005-06-01 2020-12-31']],
    [
      'nested: a prior condition that was itself followed by the drug within 30 days (the inner window is relative to the condition)',
      drugEntry({
        inclusionRules: [
          rule('condition then drug', conditionIn(null, -1, { type: 'AT_LEAST', count: 1 }, {
            correlatedCriteria: { type: 'ALL', criteriaList: [{ criteria: { kind: 'DrugExposure', codesetId: 1 }, startWindow: { start: { days: 0, coeff: 1 }, end: { days: 30, coeff: 1 } }, occurrence: { type: 'AT_LEAST', count: 1 } }] },
          })),
        ],
      }),
      ['1 2010-01-01 2020-12-31', '3 2001-01-10 2020-12-31'],
    ],
    [
      'exit at the end of continuous exposure (30 gap days), censored by Condition Y',
      drugEntry({ endStrategy: { type: 'CustomEra', drugCodesetId: 1, gapDays: 30, offset: 0 }, censoringCriteria: [{ kind: 'ConditionOccurrence', codesetId: 3 }] }),
      ['1 2010-01-01 2010-03-01', '2 2005-06-01 2005-06-11', '3 2001-01-10 2001-01-15', '5 2018-05-01 2018-05-10'],
    ],
    ['continuous exposure with 7 days added', drugEntry({ endStrategy: { type: 'CustomEra', drugCodesetId: 1, gapDays: 30, offset: 7 } }), ['1 2010-01-01 2010-03-24', '2 2005-06-01 2005-06-18', '3 2001-01-10 2001-01-22', '5 2018-05-01 2018-06-07']],
    [
      'a censor window clips periods and drops those outside it',
      drugEntry({ qualifiedLimit: { type: 'All' }, expressionLimit: { type: 'All' }, endStrategy: offsetExit, censorWindow: { startDate: '2010-01-15', endDate: '2012-01-05' } }, 'All'),
      ['1 2010-01-15 2010-01-31', '1 2010-02-15 2010-03-17', '1 2012-01-01 2012-01-05'],
    ],
    ['first exposure in the history, 365 days observed before it, no condition in the 30 days before', firstExposure(1, 365, { inclusionRules: [rule('none', conditionIn(-30, 0, { type: 'EXACTLY', count: 0 }))] }), ['2 2005-06-01 2020-12-31', '5 2018-05-01 2020-12-31']],
    ['first exposure, exit at its end (the first record\'s own end)', firstExposure(1, 0, { endStrategy: offsetExit }), ['1 2010-01-01 2010-01-31', '2 2005-06-01 2005-06-11', '3 2001-01-10 2001-01-15', '5 2018-05-01 2018-05-31']],
    ['first exposure, two records on its day: the lower id is the first record (its 20 days supply end the period)', firstExposure(5, 0, { endStrategy: offsetExit }), ['6 2008-03-01 2008-03-11', '7 2012-05-01 2012-05-21']],
    ['first exposure inside two overlapping observation periods: kept once, observed as long as the two together', firstExposure(5, 365), ['6 2008-03-01 2015-12-31', '7 2012-05-01 2020-12-31']],
    ['the same where only the earlier period has the prior observation: that period alone', firstExposure(5, 1200), ['6 2008-03-01 2010-12-31', '7 2012-05-01 2020-12-31']],
    [
      'restrict initial events, then an AT_LEAST 1 of 2 group with a demographic criterion',
      drugEntry({
        additionalCriteria: { type: 'ALL', criteriaList: [conditionIn(null, 0, { type: 'AT_LEAST', count: 1 })] },
        inclusionRules: [{ name: 'either', expression: { type: 'AT_LEAST', count: 1, criteriaList: [conditionIn(-30, 0, { type: 'EXACTLY', count: 2 })], demographicCriteriaList: [{ occurrenceStartDate: { op: 'gt', value: '2009-01-01' } }] } }],
      }),
      ['1 2010-01-01 2020-12-31', '3 2001-01-10 2020-12-31'],
    ],
  ];
  for (const engine of ['duck', 'postgres'] as const) {
    for (const [name, definition, expected] of cases) {
      it(`${name} (${engine})`, async () => {
        expect(await periodsOf(engines[engine]!, definition)).toEqual(expected);
      });
    }
  }

  it('answers the attrition step by step, entry steps included', async () => {
    const definition = drugEntry({ inclusionRules: [rule('prior condition', conditionIn(-30, 0, { type: 'AT_LEAST', count: 1 })), rule('two', conditionIn(-30, 0, { type: 'EXACTLY', count: 2 }))] }, 'First', 365);
    for (const warehouse of [engines.duck!, engines.postgres!]) {
      const result = await runCohortQuery(warehouse, definitionQuery(definition), OPEN);
      expect(result.attrition!.steps.map((s) => [s.step, s.persons.count, s.events.count])).toEqual([
        ['entry_events', 4, 6],
        ['observation_window', 3, 5],
        ['primary_limit', 3, 3],
        ['qualified_limit', 3, 3],
        ['inclusion_rule', 1, 1],
        ['inclusion_rule', 0, 0],
        ['expression_limit', 0, 0],
        ['cohort_exit', 0, 0],
      ]);
      // Person 1 passes "prior condition" only; nobody passes "two" with 365 days of prior observation.
      expect(result.attrition!.inclusion_rules.map((r) => [r.name, r.persons_passing.count, r.gain.count])).toEqual([
        ['prior condition', 1, 0],
        ['two', 0, 1],
      ]);
    }
  });

  it('counts an entry event in two overlapping observation periods twice in the observation step, once after the limit, before and after the facts are known', async () => {
    for (const warehouse of [engines.duck!, engines.postgres!]) {
      for (const when of ['as first run', 'facts known']) {
        if (when === 'facts known') expect((await factsFound(warehouse)).observationPeriodsDisjoint).toBe(false);
        const result = await runCohortQuery(warehouse, definitionQuery(firstExposure(5, 365)), OPEN);
        expect([when, result.attrition!.steps.slice(0, 3).map((s) => [s.step, s.persons.count, s.events.count])]).toEqual([
          when,
          [
            ['entry_events', 2, 2],
            ['observation_window', 2, 3],
            ['primary_limit', 2, 2],
          ],
        ]);
      }
    }
  });

  it('refuses what it cannot mean, naming the part', () => {
    const refuse = (definition: unknown) => {
      try {
        compileCohortCount({ rules: [], cohortDefinition: definition } as QueryGroup, 'cdm_x');
        return 'compiled';
      } catch (error) {
        expect(error).toBeInstanceOf(QueryTreeError);
        return (error as Error).message;
      }
    };
    expect(refuse({ ...drugEntry(), primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 9 }] } })).toBe('query.cohortDefinition.primaryCriteria.criteriaList[0].codesetId: no concept set has id 9');
    expect(refuse({ ...drugEntry(), primaryCriteria: { criteriaList: [{ kind: 'DrugEra', valueAsNumber: { op: 'gt', value: 1 } }] } })).toBe(
      'query.cohortDefinition.primaryCriteria.criteriaList[0].valueAsNumber: a DrugEra criterion has no valueAsNumber',
    );
    expect(refuse({ ...drugEntry(), primaryCriteria: { criteriaList: [] } })).toMatch(/^query\.cohortDefinition\.primaryCriteria\.criteriaList: /);
    expect(refuse({ ...drugEntry(), primaryCriteria: { criteriaList: [{ kind: 'Specimen' }] } })).toMatch(/^query\.cohortDefinition\.primaryCriteria\.criteriaList\[0\]\.kind: /);
    expect(refuse({ ...drugEntry(), censorWindow: { startDate: "2020-01-01'; DROP TABLE person; --" } })).toMatch(/censorWindow\.startDate/);
    expect(() => compileCohortCount({ rules: [{ rules: [], cohortDefinition: drugEntry() }] } as QueryGroup, 'cdm_x')).toThrow('a cohort definition belongs at the root');
  });
});

describe('random definitions mean the same on DuckDB and PostgreSQL; a query without one keeps its answer', () => {
  const engines = bothEngines('synthetic', () => syntheticDataset({ persons: 800, seed: 11 }));
  const conceptSets = [
    { id: 0, name: 'Diabetes', expression: { items: [{ conceptId: C.type2Diabetes, includeDescendants: true }] } },
    { id: 1, name: 'Metformin', expression: { items: [{ conceptId: C.metformin, includeDescendants: true }] } },
    { id: 2, name: 'Hypertension', expression: { items: [{ conceptId: C.hypertensiveDisorder, includeDescendants: true }] } },
  ];
  const kind = fc.constantFrom<Criteria['kind']>('ConditionOccurrence', 'DrugExposure', 'ConditionEra', 'DrugEra');
  const criteria = fc.record({ kind, codeset: fc.integer({ min: 0, max: 2 }), first: fc.boolean() }).map(
    ({ kind: k, codeset, first }): Criteria => ({ kind: k, codesetId: k.startsWith('Drug') ? 1 : codeset === 1 ? 0 : codeset, ...(first && { first }) }),
  );
  const endpoint = fc.option(fc.integer({ min: 0, max: 720 }), { nil: null }).chain((days) => fc.constantFrom(-1 as const, 1 as const).map((coeff) => ({ days, coeff })));
  const correlated = fc.record({
    criteria,
    start: endpoint,
    end: endpoint,
    type: fc.constantFrom('EXACTLY' as const, 'AT_LEAST' as const, 'AT_MOST' as const),
    count: fc.integer({ min: 0, max: 2 }),
    ignore: fc.boolean(),
  }).map((c): CorrelatedCriteria => ({ criteria: c.criteria, startWindow: { start: c.start, end: c.end }, occurrence: { type: c.type, count: c.count }, ...(c.ignore && { ignoreObservationPeriod: true }) }));
  const definition = fc.record({
    entry: criteria,
    limit: fc.constantFrom('First' as const, 'Last' as const, 'All' as const),
    prior: fc.integer({ min: 0, max: 400 }),
    rules: fc.array(fc.record({ type: fc.constantFrom('ALL' as const, 'ANY' as const, 'AT_MOST' as const), list: fc.array(correlated, { minLength: 1, maxLength: 2 }), age: fc.option(fc.integer({ min: 20, max: 70 })) }), { maxLength: 2 }),
    exit: fc.option(fc.integer({ min: 0, max: 365 })),
    eraPad: fc.integer({ min: 0, max: 60 }),
  }).map(({ entry, limit, prior, rules, exit, eraPad }): CohortDefinitionInput => ({
    conceptSets,
    primaryCriteria: { criteriaList: [entry], observationWindow: { priorDays: prior, postDays: 0 }, primaryCriteriaLimit: { type: limit } },
    qualifiedLimit: { type: limit },
    expressionLimit: { type: limit },
    inclusionRules: rules.map((r, i) => ({
      name: `rule ${i}`,
      expression: { type: r.type, count: 1, criteriaList: r.list, ...(r.age !== null && { demographicCriteriaList: [{ age: { op: 'gte', value: r.age } }] }) },
    })),
    ...(exit !== null && { endStrategy: { type: 'DateOffset', dateField: 'StartDate', offset: exit } }),
    collapseSettings: { collapseType: 'ERA', eraPad },
  }));

  it('gives the same periods on both engines for random definitions', async () => {
    await fc.assert(
      fc.asyncProperty(definition, async (d) => {
        const [duck, postgres] = await Promise.all([periodsOf(engines.duck!, d), periodsOf(engines.postgres!, d)]);
        expect(postgres).toEqual(duck);
      }),
      { numRuns: 60 },
    );
  }, 240_000);

  it('answers the same attrition, masks, sketches and groups once it knows the observation periods do not overlap (random definitions, both engines)', async () => {
    // Known disjoint periods with one first-occurrence entry event and a first / last limit put every
    // step at one event per person: the answer is then compiled as yes/no columns per person.
    const onePerPerson = definition.map((d) => ({ ...d, primaryCriteria: { ...d.primaryCriteria, criteriaList: [{ ...d.primaryCriteria.criteriaList[0]!, first: true }] } }));
    const withRestriction = fc.tuple(onePerPerson, fc.option(correlated, { nil: null }), fc.constantFrom('First' as const, 'Last' as const)).map(([d, restriction, limit]) => ({
      ...d,
      primaryCriteria: { ...d.primaryCriteria, primaryCriteriaLimit: { type: limit } },
      ...(restriction && { additionalCriteria: { type: 'ALL' as const, criteriaList: [restriction] } }),
    }));
    for (const warehouse of [engines.duck!, engines.postgres!]) {
      const facts = await factsFound(warehouse);
      expect(facts.observationPeriodsDisjoint).toBe(true);
      await fc.assert(
        fc.asyncProperty(fc.oneof(withRestriction, definition), async (d) => {
          const [assumingNothing, knowing] = await Promise.all([answerWith(warehouse, d, NO_FACTS), answerWith(warehouse, d, facts)]);
          expect(knowing).toEqual(assumingNothing);
        }),
        { numRuns: 40 },
      );
    }
  }, 240_000);

  it("sketches the last attrition row from exactly the cohort's persons (random definitions, both engines)", async () => {
    for (const warehouse of [engines.duck!, engines.postgres!]) {
      const facts = await factsFound(warehouse);
      await fc.assert(
        fc.asyncProperty(definition, fc.boolean(), async (d, knowing) => {
          const answer = await answerWith(warehouse, d, knowing ? facts : NO_FACTS);
          const periods = compileDefinitionPeriods(definitionQuery(d), warehouse.state!.schema)!;
          const keys = await warehouse.query(
            `SELECT p."${RECORD_KEY_COLUMN}" AS k FROM "${warehouse.state!.schema}"."person" p WHERE p.person_id IN (SELECT person_id FROM (${periods.sql}) c)`,
            periods.params,
          );
          const expected = sketchOfKeys(keys.map((r) => Number(r.k)));
          const last = answer.stepSketches.find(([step]) => step === answer.steps.length - 1)?.[1];
          expect(last ?? [expected.counts, expected.keySums, expected.checkSums].map(() => new Array(expected.counts.length).fill(0))).toEqual([expected.counts, expected.keySums, expected.checkSums]);
        }),
        { numRuns: 25 },
      );
    }
  }, 240_000);

  it('narrows a definition by the tree’s own rules, and leaves a tree without one as it was', async () => {
    const rules: QueryGroup = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: C.female }] };
    const everyone: CohortDefinitionInput = { primaryCriteria: { criteriaList: [{ kind: 'ObservationPeriod' }] } };
    for (const warehouse of [engines.duck!, engines.postgres!]) {
      const plain = await runCohortQuery(warehouse, rules, OPEN);
      expect(plain.attrition).toBeUndefined();
      const narrowed = await runCohortQuery(warehouse, { ...rules, cohortDefinition: everyone }, OPEN);
      // Every synthetic person is observed: the definition keeps them all, the rule keeps the women.
      expect(narrowed.person_count).toBe(plain.person_count);
      expect(narrowed.breakdowns).toEqual(plain.breakdowns);
      expect(narrowed.attrition!.steps.at(-1)!.persons.count).toBe(800);
    }
  });

  it('never lets a drop of 1 to 19 persons between two shown attrition rows be read (threshold 20)', async () => {
    const withRule = (age: number): CohortDefinitionInput => ({
      primaryCriteria: { criteriaList: [{ kind: 'ObservationPeriod' }] },
      inclusionRules: [{ name: `age ${age} or less`, expression: { type: 'ALL', demographicCriteriaList: [{ age: { op: 'lte', value: age } }] } }],
    });
    let tested = 0;
    for (let age = 100; age >= 60 && tested < 3; age--) {
      const open = await runCohortQuery(engines.duck!, definitionQuery(withRule(age)), OPEN);
      const counts = open.attrition!.steps.map((s) => s.persons.count!);
      const drops = counts.slice(1).map((n, i) => counts[i]! - n);
      if (!drops.some((d) => d > 0 && d < 20)) continue;
      tested++;
      for (const warehouse of [engines.duck!, engines.postgres!]) {
        const released = await runCohortQuery(warehouse, definitionQuery(withRule(age)), { threshold: 20, perturbation: { maxChange: 0 }, trackerDefence: false, timeoutMs: 60_000 });
        const shown = released.attrition!.steps.map((s) => s.persons.count);
        shown.slice(1).forEach((n, i) => {
          const before = shown[i];
          if (n !== null && before !== null && before !== undefined) expect(before - n === 0 || before - n >= 20, `${before} then ${n}`).toBe(true);
        });
      }
    }
    expect(tested).toBeGreaterThan(0);
  }, 120_000);
});
