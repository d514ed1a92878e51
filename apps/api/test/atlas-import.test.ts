import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CohortDefinitionExpression, type AtlasImportResult, type CohortDefinitionInput, type CorrelatedCriteria, type Criteria, type QueryExecution } from '@hdp/contract';
import { exportCirce } from '../src/queries/atlas/circe-export';
import { importCirce } from '../src/queries/atlas/circe-import';
import { measureAttrition } from '../src/warehouse/cohort-results';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { OHDSI_DEFINITIONS } from './support/ohdsi-definitions';
import { createPostgresDatabase } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';
import { sampleDataset } from './support/warehouse-fixtures';

const EUNOMIA = sampleDataset('eunomia-gibleed-omop-5.3');
const SHARED = path.join(EUNOMIA, '..', 'ohdsi-cohort-definitions');
const LIBRARY = path.join(__dirname, 'fixtures', 'phenotype-library');
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
/** Perturbation, suppression and the tracker defence off: OHDSI's counts are exact counts. */
const OPEN_ENV = { SUPPRESSION_THRESHOLD: '1', PERTURBATION_MAX_CHANGE: '0', DISCLOSURE_TRACKER_DEFENCE: 'off', QUERY_TIMEOUT_MS: '60000', QUERY_RATE_PER_MINUTE: '1000' };

interface Server {
  t: TestApp;
  token: string;
  drop?: () => Promise<void>;
}
const servers: Record<'duckdb' | 'postgres', Server> = {} as Record<'duckdb' | 'postgres', Server>;

beforeAll(async () => {
  const warehouseDb = await createPostgresDatabase();
  const [duck, postgres] = await Promise.all([startTestApp(OPEN_ENV), startTestApp({ ...OPEN_ENV, WAREHOUSE_URL: warehouseDb.url })]);
  await loadWarehouse(duck.services, { kind: 'omop', directory: EUNOMIA }, { actorEmail: 'test' });
  await loadWarehouse(postgres.services, { kind: 'omop', directory: EUNOMIA }, { actorEmail: 'test' });
  servers.duckdb = { t: duck, token: (await duck.userWithRoles(['RESEARCHER'], 'rita@example.org')).token };
  servers.postgres = { t: postgres, token: (await postgres.userWithRoles(['RESEARCHER'], 'rita@example.org')).token, drop: () => warehouseDb.drop() };
}, 300_000);
afterAll(async () => {
  await servers.duckdb?.t.close();
  await servers.postgres?.t.close();
  await servers.postgres?.drop?.();
});

const importAtlas = (s: Server, name: string, definition: unknown, token = s.token) =>
  s.t.request({ method: 'POST', url: '/api/v1/queries/import/atlas/', token, payload: { name, definition } });
const exportAtlas = (s: Server, queryId: string, token = s.token) => s.t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/export/atlas/`, token });

async function runSaved(s: Server, queryId: string): Promise<QueryExecution> {
  const started = await s.t.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token: s.token });
  expect(started.statusCode, started.body).toBe(202);
  for (let i = 0; i < 1200; i++) {
    const execution = (await s.t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${started.json().id}/`, token: s.token })).json() as QueryExecution;
    if (execution.status === 'SUCCEEDED' || execution.status === 'FAILED') return execution;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the execution did not finish');
}

/** OHDSI's published tables for one cohort (mode 1: best event per person). */
function published(cohortId: number) {
  const csv = (name: string) => {
    const [header, ...lines] = fs.readFileSync(path.join(SHARED, name), 'utf8').trim().split('\n');
    const keys = header!.split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i]!, v])));
  };
  const mine = (r: Record<string, string>) => Number(r.cohort_definition_id) === cohortId && r.mode_id === '1';
  return {
    persons: Number(csv('cg_cohort_count.csv').find((r) => Number(r.cohort_id) === cohortId)!.cohort_subjects),
    masks: new Map(csv('cg_cohort_inc_result.csv').filter(mine).map((r) => [Number(r.inclusion_rule_mask), Number(r.person_count)])),
    stats: csv('cg_cohort_inc_stats.csv').filter(mine).map((r) => ({ rule: Number(r.rule_sequence), passing: Number(r.person_count), gain: Number(r.gain_count) })),
    censorLost: csv('cg_cohort_censor_stats.csv').find((r) => Number(r.cohort_definition_id) === cohortId)?.lost_count,
  };
}

/** A group's empty lists mean what absent ones do. */
const withoutEmptyLists = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (['criteriaList', 'demographicCriteriaList', 'groups'].includes(key) && Array.isArray(v) && v.length === 0 ? undefined : v)));

const auditCount = async (s: Server) =>
  Number(((await s.t.services.db.execute(sql`select count(*) as n from audit_log where event_type = 'QUERY_IMPORTED'`)) as unknown as { rows: { n: unknown }[] }).rows[0]!.n);
const queryCount = async (s: Server) => ((await s.t.request({ method: 'GET', url: '/api/v1/queries/', token: s.token })).json() as { count: number }).count;

describe("OHDSI's four definitions imported as files give OHDSI's counts on Eunomia, on both warehouse engines", () => {
  const cases = [
    { file: 'celecoxib', id: 1 },
    { file: 'celecoxibAge40', id: 2 },
    { file: 'celecoxibAge40Male', id: 3 },
    { file: 'celecoxibCensored', id: 4 },
  ] as const;
  for (const engine of ['duckdb', 'postgres'] as const) {
    for (const c of cases) {
      it(`${c.file}.json on ${engine}`, async () => {
        const s = servers[engine];
        const imported = await importAtlas(s, c.file, readJson(path.join(SHARED, `${c.file}.json`)));
        expect(imported.statusCode, imported.body).toBe(201);
        const saved = imported.json() as AtlasImportResult;
        // The import means what the definition written by hand in the model means.
        expect(withoutEmptyLists(saved.query.cohortDefinition)).toEqual(withoutEmptyLists(CohortDefinitionExpression.parse(OHDSI_DEFINITIONS[c.file])));
        expect(saved.warnings.filter((w) => w.rule === 'unknown_concept')).toEqual([]);

        const execution = await runSaved(s, saved.id);
        expect(execution.status, execution.error ?? '').toBe('SUCCEEDED');
        const expected = published(c.id);
        expect(execution.result!.person_count).toBe(expected.persons);
        const attrition = execution.result!.attrition!;
        expect(attrition.steps.at(-1)!.persons.count).toBe(expected.persons);
        expect(attrition.inclusion_rules.map((r) => ({ rule: r.rule, passing: r.persons_passing.count, gain: r.gain.count }))).toEqual(expected.stats);
        const measured = (await measureAttrition(s.t.services.warehouse, s.t.services.warehouse.state!.schema, saved.query, 60_000))!;
        expect(new Map([...measured.masks].map(([mask, m]) => [mask, m.persons]))).toEqual(expected.masks);
        if (expected.censorLost !== undefined) {
          const step = (name: string) => attrition.steps.find((x) => x.step === name)!.persons.count!;
          expect(step('cohort_exit') - step('censor_window')).toBe(Number(expected.censorLost));
        }
      }, 120_000);
    }
  }
});

/** One small Circe definition per construct of the Phenotype Library's coverage list. */
const concept = (id: number) => ({ CONCEPT_ID: id, CONCEPT_NAME: `concept ${id}` });
const base = () => ({
  ConceptSets: [
    { id: 0, name: 'Celecoxib', expression: { items: [{ concept: concept(1118084), includeDescendants: true }] } },
    { id: 1, name: 'GI bleed', expression: { items: [{ concept: concept(192671), includeDescendants: true }, { concept: concept(4280942), isExcluded: true }] } },
  ],
  PrimaryCriteria: { CriteriaList: [{ DrugExposure: { CodesetId: 0 } }], ObservationWindow: { PriorDays: 0, PostDays: 0 }, PrimaryCriteriaLimit: { Type: 'First' } },
  QualifiedLimit: { Type: 'First' },
  ExpressionLimit: { Type: 'First' },
  InclusionRules: [] as unknown[],
  CensoringCriteria: [],
  CollapseSettings: { CollapseType: 'ERA', EraPad: 0 },
  CensorWindow: {},
});
const bleed = (occurrence: { Type: number; Count: number }, extra: Record<string, unknown> = {}, criteria: Record<string, unknown> = {}) => ({
  Criteria: { ConditionOccurrence: { CodesetId: 1, ConditionTypeExclude: false, ...criteria } },
  StartWindow: { Start: { Days: 365, Coeff: -1 }, End: { Days: 0, Coeff: 1 }, UseIndexEnd: false, UseEventEnd: false },
  RestrictVisit: false,
  IgnoreObservationPeriod: false,
  Occurrence: { ...occurrence, IsDistinct: false },
  ...extra,
});
const rule = (name: string, ...criteria: unknown[]) => ({ name, expression: { Type: 'ALL', CriteriaList: criteria, DemographicCriteriaList: [], Groups: [] } });
const CONSTRUCTS: Record<string, Record<string, unknown>> = {
  'exit by date offset': { ...base(), EndStrategy: { DateOffset: { DateField: 'StartDate', Offset: 30 } } },
  'era pad': { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, PrimaryCriteriaLimit: { Type: 'All' } }, QualifiedLimit: { Type: 'All' }, ExpressionLimit: { Type: 'All' }, EndStrategy: { DateOffset: { DateField: 'EndDate', Offset: 0 } }, CollapseSettings: { CollapseType: 'ERA', EraPad: 30 } },
  'at least N': { ...base(), InclusionRules: [rule('two bleeds', bleed({ Type: 2, Count: 2 }))] },
  'inclusion rules': { ...base(), InclusionRules: [rule('a bleed', bleed({ Type: 2, Count: 1 })), { name: 'aged 40+', expression: { Type: 'ALL', CriteriaList: [], DemographicCriteriaList: [{ Age: { Value: 40, Op: 'gte' } }], Groups: [] } }] },
  'excluded concepts': base(),
  'exactly zero': { ...base(), InclusionRules: [rule('no bleed', bleed({ Type: 0, Count: 0 }))] },
  'nested criteria': {
    ...base(),
    InclusionRules: [rule('bleed followed by celecoxib', bleed({ Type: 2, Count: 1 }, {}, {
      CorrelatedCriteria: { Type: 'ALL', CriteriaList: [{ Criteria: { DrugExposure: { CodesetId: 0 } }, StartWindow: { Start: { Days: 0, Coeff: 1 }, End: { Days: 30, Coeff: 1 } }, Occurrence: { Type: 2, Count: 1 } }], DemographicCriteriaList: [], Groups: [] },
    }))],
  },
  'end windows': { ...base(), InclusionRules: [rule('bleed ending after', bleed({ Type: 2, Count: 1 }, { EndWindow: { Start: { Days: 0, Coeff: 1 }, End: { Days: null, Coeff: 1 }, UseEventEnd: true } }))] },
  'first in history': { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ ConditionOccurrence: { CodesetId: 1, First: true } }] } },
  'custom drug era exit': { ...base(), EndStrategy: { CustomEra: { DrugCodesetId: 0, GapDays: 30, Offset: 7 } } },
  'source concepts': { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ ProcedureOccurrence: { CodesetId: 1, ProcedureSourceConcept: 0 } }] } },
  'excluded record types and refills': {
    ...base(),
    PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DrugExposure: { CodesetId: 0, DrugType: [concept(38000177)], DrugTypeExclude: true, Refills: { Value: 1, Op: 'gte' } } }] },
  },
};

describe('each construct of the coverage list imports, exports and re-imports to the same definition', () => {
  const s = () => servers.duckdb;
  for (const [name, definition] of Object.entries(CONSTRUCTS)) {
    it(name, async () => {
      const first = await importAtlas(s(), name, definition);
      expect(first.statusCode, first.body).toBe(201);
      const exported = await exportAtlas(s(), first.json().id);
      expect(exported.statusCode, exported.body).toBe(200);
      const again = await importAtlas(s(), `${name} again`, exported.json());
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().query).toEqual(first.json().query);
      // The saved query runs.
      const execution = await runSaved(s(), first.json().id);
      expect(execution.status, execution.error ?? '').toBe('SUCCEEDED');
    }, 60_000);
  }

  for (const file of ['688.json', '1052.json', '1089.json', '1295.json']) {
    it(`Phenotype Library definition ${file} imports, exports with the vocabulary's concept names and re-imports to the same`, async () => {
      const first = await importAtlas(s(), file, readJson(path.join(LIBRARY, file)));
      expect(first.statusCode, first.body).toBe(201);
      const exported = await exportAtlas(s(), first.json().id);
      expect(exported.statusCode).toBe(200);
      const again = await importAtlas(s(), `${file} again`, exported.json());
      expect(again.json().query).toEqual(first.json().query);
    });
  }

  it('exports concepts with what the vocabulary knows of them, as ATLAS shows them', async () => {
    const saved = (await importAtlas(s(), 'celecoxib', readJson(path.join(SHARED, 'celecoxib.json')))).json();
    const exported = (await exportAtlas(s(), saved.id)).json();
    expect(exported.ConceptSets[0].expression.items[0].concept).toMatchObject({ CONCEPT_ID: 1118084, CONCEPT_NAME: 'celecoxib', VOCABULARY_ID: 'RxNorm', DOMAIN_ID: 'Drug' });
    expect(exported.PrimaryCriteria).toEqual({ CriteriaList: [{ DrugEra: { CodesetId: 0 } }], ObservationWindow: { PriorDays: 0, PostDays: 0 }, PrimaryCriteriaLimit: { Type: 'First' } });
  });
});

describe('random definitions: export then import gives the same definition', () => {
  const range = fc.record({ op: fc.constantFrom('lt' as const, 'gte' as const, 'eq' as const), value: fc.integer({ min: 0, max: 100 }) });
  const criteria: fc.Arbitrary<Criteria> = fc
    .record({
      kind: fc.constantFrom<Criteria['kind']>('ConditionOccurrence', 'DrugExposure', 'DrugEra', 'ConditionEra', 'Measurement', 'ProcedureOccurrence', 'Observation', 'VisitOccurrence'),
      codeset: fc.integer({ min: 0, max: 2 }),
      first: fc.boolean(),
      age: fc.option(range, { nil: undefined }),
      gender: fc.boolean(),
      types: fc.constantFrom('none' as const, 'include' as const, 'exclude' as const),
      refills: fc.option(range, { nil: undefined }),
    })
    .map(({ kind, codeset, first, age, gender, types, refills }) => ({
      kind,
      codesetId: codeset,
      ...(first && { first }),
      ...(age && { age }),
      ...(gender && { gender: [8507] }),
      // Eras have no record type; "exclude" means something only with types listed.
      ...(types !== 'none' && kind !== 'DrugEra' && kind !== 'ConditionEra' && { typeConcepts: [32817, 32810], ...(types === 'exclude' && { typeExclude: true }) }),
      ...(refills && kind === 'DrugExposure' && { refills }),
    }));
  const endpoint = fc.record({ days: fc.option(fc.integer({ min: 0, max: 720 }), { nil: null }), coeff: fc.constantFrom(-1 as const, 1 as const) });
  const correlated: fc.Arbitrary<CorrelatedCriteria> = fc
    .record({
      criteria,
      start: endpoint,
      end: endpoint,
      endWindow: fc.boolean(),
      useIndexEnd: fc.boolean(),
      type: fc.constantFrom('EXACTLY' as const, 'AT_LEAST' as const, 'AT_MOST' as const),
      count: fc.integer({ min: 0, max: 3 }),
      distinct: fc.boolean(),
      restrictVisit: fc.boolean(),
      ignore: fc.boolean(),
    })
    .map((c) => ({
      criteria: c.criteria,
      startWindow: { start: c.start, end: c.end, ...(c.useIndexEnd && { useIndexEnd: true }) },
      ...(c.endWindow && { endWindow: { start: c.start, end: c.end, useEventEnd: false } }),
      occurrence: { type: c.type, count: c.count, ...(c.distinct && { isDistinct: true, countColumn: 'START_DATE' as const }) },
      ...(c.restrictVisit && { restrictVisit: true }),
      ...(c.ignore && { ignoreObservationPeriod: true }),
    }));
  const group = fc.record({
    type: fc.constantFrom('ALL' as const, 'ANY' as const, 'AT_LEAST' as const),
    list: fc.array(correlated, { minLength: 1, maxLength: 3 }),
    age: fc.option(range, { nil: undefined }),
    nested: fc.option(correlated, { nil: undefined }),
  }).map((g) => ({
    type: g.type,
    ...(g.type === 'AT_LEAST' && { count: 1 }),
    criteriaList: g.list,
    ...(g.age && { demographicCriteriaList: [{ age: g.age }] }),
    ...(g.nested && { groups: [{ type: 'ANY' as const, criteriaList: [g.nested] }] }),
  }));
  const definition: fc.Arbitrary<CohortDefinitionInput> = fc
    .record({
      entry: fc.array(criteria, { minLength: 1, maxLength: 2 }),
      limits: fc.tuple(fc.constantFrom('First' as const, 'Last' as const, 'All' as const), fc.constantFrom('First' as const, 'All' as const)),
      prior: fc.integer({ min: 0, max: 400 }),
      additional: fc.option(group, { nil: undefined }),
      rules: fc.array(group, { maxLength: 3 }),
      exit: fc.option(fc.oneof(
        fc.record({ type: fc.constant('DateOffset' as const), dateField: fc.constantFrom('StartDate' as const, 'EndDate' as const), offset: fc.integer({ min: -30, max: 365 }) }),
        fc.record({ type: fc.constant('CustomEra' as const), drugCodesetId: fc.constant(1), gapDays: fc.integer({ min: 0, max: 60 }), offset: fc.integer({ min: 0, max: 30 }) }),
      ), { nil: undefined }),
      censoring: fc.array(criteria, { maxLength: 1 }),
      eraPad: fc.integer({ min: 0, max: 60 }),
      censorStart: fc.option(fc.constant('2005-01-01'), { nil: undefined }),
    })
    .map((d) => ({
      conceptSets: [0, 1, 2].map((id) => ({ id, name: `set ${id}`, expression: { items: [{ conceptId: 1000 + id, includeDescendants: id !== 2, isExcluded: false, includeMapped: id === 2 }] } })),
      primaryCriteria: { criteriaList: d.entry, observationWindow: { priorDays: d.prior, postDays: 0 }, primaryCriteriaLimit: { type: d.limits[0] } },
      ...(d.additional && { additionalCriteria: d.additional }),
      qualifiedLimit: { type: d.limits[1] },
      expressionLimit: { type: d.limits[1] },
      inclusionRules: d.rules.map((r, i) => ({ name: `rule ${i}`, expression: r })),
      ...(d.exit && { endStrategy: d.exit }),
      censoringCriteria: d.censoring,
      collapseSettings: { collapseType: 'ERA' as const, eraPad: d.eraPad },
      censorWindow: d.censorStart ? { startDate: d.censorStart } : {},
    }));

  it('round-trips through Circe JSON (and through JSON text, as a file would)', () => {
    fc.assert(
      fc.property(definition, (input) => {
        const canonical = CohortDefinitionExpression.parse(input);
        const circe = JSON.parse(JSON.stringify(exportCirce(canonical))) as unknown;
        const back = importCirce(circe).definition;
        expect(back).toEqual(canonical);
        expect(importCirce(exportCirce(back)).definition).toEqual(back);
      }),
      { numRuns: 300 },
    );
  });
});

describe('refusals: nothing is written', () => {
  const s = () => servers.duckdb;
  const refusals: [string, unknown, number, string][] = [
    ['a dose era', { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DoseEra: { CodesetId: 0 } }] } }, 422, 'definition.PrimaryCriteria.CriteriaList[0].DoseEra: dose eras are not supported'],
    ['a device exposure in a rule', { ...base(), InclusionRules: [rule('device', { ...bleed({ Type: 2, Count: 1 }), Criteria: { DeviceExposure: { CodesetId: 0 } } })] }, 422, 'definition.InclusionRules[0].expression.CriteriaList[0].Criteria.DeviceExposure: device exposures are not supported'],
    ['a provider specialty', { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DrugExposure: { CodesetId: 0, ProviderSpecialty: [concept(38004446)] } }] } }, 422, 'definition.PrimaryCriteria.CriteriaList[0].DrugExposure.ProviderSpecialty: provider specialties are not supported'],
    ['a measurement attribute on a drug era', { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DrugEra: { CodesetId: 0, ValueAsNumber: { Value: 1, Op: 'gt' } } }] } }, 422, 'definition.PrimaryCriteria.CriteriaList[0].DrugEra.ValueAsNumber: "ValueAsNumber" is not supported'],
    ['an unknown top-level part', { ...base(), Frobnicate: { a: 1 } }, 422, 'definition.Frobnicate: "Frobnicate" is not part of a cohort definition the platform understands'],
    ['a code set id of the wrong type', { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DrugExposure: { CodesetId: 'zero' } }] } }, 400, 'definition.PrimaryCriteria.CriteriaList[0].DrugExposure.CodesetId: must be a whole number'],
    ['a missing concept set', { ...base(), PrimaryCriteria: { ...base().PrimaryCriteria, CriteriaList: [{ DrugExposure: { CodesetId: 7 } }] } }, 400, 'definition.PrimaryCriteria.CriteriaList[0].DrugExposure.CodesetId: no concept set has id 7'],
    ['no entry event', { ...base(), PrimaryCriteria: { CriteriaList: [] } }, 400, 'definition.PrimaryCriteria.CriteriaList: a definition needs at least one entry event criterion'],
    ['a bad range operator', { ...base(), InclusionRules: [{ name: 'age', expression: { Type: 'ALL', DemographicCriteriaList: [{ Age: { Value: 40, Op: 'greater' } }] } }] }, 400, 'definition.InclusionRules[0].expression.DemographicCriteriaList[0].Age.Op: must be one of lt, lte, eq, !eq, gt, gte, bt, !bt'],
    ['a definition that is an array', [1, 2], 400, 'body.definition'],
  ];
  for (const [name, definition, status, detail] of refusals) {
    it(`${name}: ${status}`, async () => {
      const [queries, audits] = [await queryCount(s()), await auditCount(s())];
      const response = await importAtlas(s(), name, definition);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().detail).toContain(detail);
      expect([await queryCount(s()), await auditCount(s())]).toEqual([queries, audits]);
    });
  }

  it('refuses deep nesting and huge bodies before reading them', async () => {
    const [queries, audits] = [await queryCount(s()), await auditCount(s())];
    let deep: Record<string, unknown> = { Type: 'ALL' };
    for (let i = 0; i < 40; i++) deep = { Type: 'ALL', Groups: [deep] };
    const nested = await importAtlas(s(), 'deep', { ...base(), AdditionalCriteria: deep });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().detail).toMatch(/nests objects and arrays more than \d+ deep/);
    // Deep enough for the model's limit but within the body's: refused by the compiler, with the place.
    let six: Record<string, unknown> = { Type: 'ALL', DemographicCriteriaList: [{ Age: { Value: 1, Op: 'gt' } }] };
    for (let i = 0; i < 7; i++) six = { Type: 'ALL', Groups: [six] };
    const tooDeep = await importAtlas(s(), 'deep groups', { ...base(), AdditionalCriteria: six });
    expect(tooDeep.statusCode).toBe(422);
    expect(tooDeep.json().detail).toMatch(/^definition\.additionalCriteria\.groups\[0\].*: groups and nested criteria go more than 6 deep/);
    const huge = await s().t.request({
      method: 'POST', url: '/api/v1/queries/import/atlas/', token: s().token,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'huge', definition: { ...base(), padding: 'x'.repeat(10_000_000) } }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toMatch(/larger than the limit/);
    const notJson = await s().t.request({ method: 'POST', url: '/api/v1/queries/import/atlas/', token: s().token, headers: { 'content-type': 'application/json' }, payload: '{"name": "x", "definition": {' });
    expect(notJson.statusCode).toBe(400);
    expect([await queryCount(s()), await auditCount(s())]).toEqual([queries, audits]);
  });
});

describe('warnings, lint and access', () => {
  const s = () => servers.duckdb;
  it('reports unknown concepts (the query is still made, the concept kept) and circe-be-style lint warnings with their places', async () => {
    const definition = {
      ...base(),
      ConceptSets: [
        ...base().ConceptSets,
        { id: 2, name: 'Nothing', expression: { items: [] } },
        { id: 3, name: 'Made up', expression: { items: [{ concept: concept(999_999_999) }] } },
      ],
      InclusionRules: [
        rule('a bleed', bleed({ Type: 2, Count: 1 })),
        rule('no bleed', bleed({ Type: 0, Count: 0 })),
        rule('dead before', { Criteria: { Death: {} }, StartWindow: { Start: { Days: null, Coeff: -1 }, End: { Days: 1, Coeff: -1 } }, Occurrence: { Type: 2, Count: 1 } }),
        rule('first bleed in the year', bleed({ Type: 2, Count: 1 }, {}, { First: true })),
      ],
      EndStrategy: { DateOffset: { DateField: 'StartDate', Offset: -5 } },
    };
    const response = await importAtlas(s(), 'linted', definition);
    expect(response.statusCode, response.body).toBe(201);
    const saved = response.json() as AtlasImportResult;
    const found = saved.warnings.map((w) => `${w.rule} ${w.path}`);
    expect(found).toEqual(expect.arrayContaining([
      'unknown_concept ConceptSets[3].expression.items[0].concept',
      'empty_concept_set ConceptSets[2]',
      'unused_concept_set ConceptSets[2]',
      'unused_concept_set ConceptSets[3]',
      'contradictory_criteria InclusionRules[1].expression.CriteriaList[0]',
      'death_before_index InclusionRules[2].expression.CriteriaList[0]',
      'first_in_window InclusionRules[3].expression.CriteriaList[0]',
      'exit_before_entry EndStrategy.DateOffset.Offset',
    ]));
    expect(saved.query.cohortDefinition!.conceptSets![3]!.expression.items[0]!.conceptId).toBe(999_999_999);
    // The same lint for the saved query (minus the vocabulary check, which belongs to the import).
    const lint = await s().t.request({ method: 'GET', url: `/api/v1/queries/${saved.id}/lint/`, token: s().token });
    expect(lint.statusCode).toBe(200);
    expect(lint.json().warnings).toEqual(saved.warnings.filter((w) => w.rule !== 'unknown_concept'));
    const audit = ((await s().t.services.db.execute(sql`select actor_email, details from audit_log where event_type = 'QUERY_IMPORTED' and resource_id = ${saved.id}`)) as unknown as { rows: { actor_email: string; details: { format: string } }[] }).rows;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: 'rita@example.org', details: { format: 'ATLAS' } });
  });

  it("answers 404 for another's query, 403 to an auditor, and 422 for a query without a definition", async () => {
    const saved = (await importAtlas(s(), 'mine', base())).json();
    const otto = await s().t.userWithRoles(['RESEARCHER'], 'otto@example.org');
    expect((await exportAtlas(s(), saved.id, otto.token)).statusCode).toBe(404);
    expect((await s().t.request({ method: 'GET', url: `/api/v1/queries/${saved.id}/lint/`, token: otto.token })).statusCode).toBe(404);
    const auditor = await s().t.userWithRoles(['AUDITOR'], 'aud@example.org');
    expect((await importAtlas(s(), 'no', base(), auditor.token)).statusCode).toBe(403);
    const plain = await s().t.request({ method: 'POST', url: '/api/v1/queries/', token: s().token, payload: { name: 'plain', query: { combinator: 'and', rules: [] } } });
    const none = await exportAtlas(s(), plain.json().id);
    expect(none.statusCode).toBe(422);
    expect(none.json().detail).toMatch(/no cohort definition/);
  });
});
