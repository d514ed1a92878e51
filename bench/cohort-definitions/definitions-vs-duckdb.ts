/**
 * Cohort definitions on the synthetic dataset: "new users of a drug with 365 days of prior
 * observation and no prior diagnosis" (the "new users of diclofenac with no prior GI bleed";
 * the synthetic data have neither, so lisinopril and chronic kidney disease stand in) through the
 * API's live count (`POST /api/v1/queries/execute/`: HTTP, authentication, the per-user limits,
 * compilation, the warehouse, the attrition, perturbation, the LP-audited suppression, the audit
 * entry), against the same cohort's aggregate written by hand and run directly on DuckDB, alternating.
 * Then the same definition with 5 inclusion rules (the attrition with 5 rule rows and the inclusion
 * report).
 * Usage: npm run bench:cohort-definitions [-- --persons 1000000 --runs 30 --from <warehouse.duckdb>]
 * (`--from` copies a warehouse file generated before, for the same persons, instead of generating one.)
 * Goals (1,000,000 persons): API p50 <= 1 s and within 1.5x of the hand-written SQL; 5 rules p50 <= 1.5 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CohortDefinitionInput, QueryResult } from '@hdp/contract';
import { DuckDbWarehouse } from '../../apps/api/src/warehouse/duckdb-warehouse';
import { syntheticDataset } from '../../apps/api/src/warehouse/synthetic-generator';
import { CONCEPT as C } from '../../apps/api/src/warehouse/synthetic-vocabulary';
import { percentile, signIn, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const persons = arg('persons', 1_000_000);
const runs = arg('runs', 30);
const warmups = 3;
const out = (line: string) => process.stdout.write(`${line}\n`);
const fromIndex = process.argv.indexOf('--from');
const from = fromIndex > 0 ? process.argv[fromIndex + 1] : undefined;

const ALL_BEFORE = { start: { coeff: -1 as const }, end: { days: 1, coeff: -1 as const } };
const YEAR_BEFORE = { start: { days: 365, coeff: -1 as const }, end: { days: 0, coeff: 1 as const } };
const noPrior = (codesetId: number) => ({ criteria: { kind: 'ConditionOccurrence' as const, codesetId }, startWindow: ALL_BEFORE, occurrence: { type: 'EXACTLY' as const, count: 0 } });

/** New users of lisinopril (first exposure in their history), 365 days observed before it, no chronic kidney disease before it. */
const NEW_USERS: CohortDefinitionInput = {
  conceptSets: [
    { id: 0, name: 'Lisinopril', expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } },
    { id: 1, name: 'Chronic kidney disease', expression: { items: [{ conceptId: C.ckd, includeDescendants: true }] } },
    { id: 2, name: 'Essential hypertension', expression: { items: [{ conceptId: C.essentialHypertension, includeDescendants: true }] } },
    { id: 3, name: 'Systolic blood pressure', expression: { items: [{ conceptId: C.systolic }] } },
    { id: 4, name: 'Insulin glargine', expression: { items: [{ conceptId: C.insulinGlargine, includeDescendants: true }] } },
    { id: 5, name: 'Myocardial infarction', expression: { items: [{ conceptId: C.myocardialInfarction, includeDescendants: true }] } },
  ],
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0, first: true }], observationWindow: { priorDays: 365, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
  inclusionRules: [{ name: 'No prior chronic kidney disease', expression: { type: 'ALL', criteriaList: [noPrior(1)] } }],
};

/** The same with 5 inclusion rules: the attrition has a row per rule and the inclusion report a line per rule. */
const FIVE_RULES: CohortDefinitionInput = {
  ...NEW_USERS,
  inclusionRules: [
    ...NEW_USERS.inclusionRules!,
    { name: 'Aged 40 or over', expression: { type: 'ALL', demographicCriteriaList: [{ age: { op: 'gte', value: 40 } }] } },
    {
      name: 'Hypertension in the year before',
      expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 2 }, startWindow: YEAR_BEFORE, occurrence: { type: 'AT_LEAST', count: 1 } }] },
    },
    {
      name: 'A systolic blood pressure measured before',
      expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'Measurement', codesetId: 3 }, startWindow: ALL_BEFORE, occurrence: { type: 'AT_LEAST', count: 1 } }] },
    },
    {
      name: 'No prior insulin or myocardial infarction',
      expression: {
        type: 'ALL',
        criteriaList: [{ criteria: { kind: 'DrugExposure', codesetId: 4 }, startWindow: ALL_BEFORE, occurrence: { type: 'EXACTLY', count: 0 } }, noPrior(5)],
      },
    },
  ],
};

const query = (definition: CohortDefinitionInput) => ({ combinator: 'and', rules: [], cohortDefinition: definition });

/** NEW_USERS written by hand: persons by sex, age band, race and ethnicity, as the API's aggregate counts them. */
const handSql = (s: string) => `
WITH first_use AS (
  SELECT person_id, MIN(drug_exposure_start_date) AS index_date FROM "${s}".drug_exposure
  WHERE drug_concept_id IN (SELECT descendant_concept_id FROM "${s}".concept_ancestor WHERE ancestor_concept_id = ${C.lisinopril})
  GROUP BY person_id
), eligible AS (
  SELECT f.person_id, f.index_date, op.observation_period_start_date AS op_start
  FROM first_use f JOIN "${s}".observation_period op
    ON op.person_id = f.person_id AND f.index_date BETWEEN op.observation_period_start_date AND op.observation_period_end_date
  WHERE op.observation_period_start_date + 365 <= f.index_date
)
SELECT p.gender_concept_id AS sex,
       CAST(LEAST(GREATEST(FLOOR((year(current_date) - p.year_of_birth) / 10.0), 0), 9) AS INTEGER) AS age_band,
       p.race_concept_id AS race, p.ethnicity_concept_id AS ethnicity, COUNT(*) AS n
FROM eligible e JOIN "${s}".person p ON p.person_id = e.person_id
WHERE NOT EXISTS (
  SELECT 1 FROM "${s}".condition_occurrence c
  WHERE c.person_id = e.person_id
    AND c.condition_concept_id IN (SELECT descendant_concept_id FROM "${s}".concept_ancestor WHERE ancestor_concept_id = ${C.ckd})
    AND c.condition_start_date >= e.op_start AND c.condition_start_date <= e.index_date - 1)
GROUP BY 1, 2, 3, 4`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-definitions-'));
const dataDir = path.join(work, 'data');
fs.mkdirSync(dataDir);
const password = 'bench-admin-password';
let api: Awaited<ReturnType<typeof startApi>> | undefined;
try {
  out(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  if (from) {
    fs.copyFileSync(from, path.join(dataDir, 'warehouse.duckdb'));
    out(`warehouse: copied from ${from}`);
  } else {
    const started = performance.now();
    const generated = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
    const report = await generated.load(`synthetic: ${persons} persons, seed 1`, syntheticDataset({ persons, seed: 1 }));
    await generated.close();
    const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
    out(`generator: ${persons.toLocaleString('en')} persons, ${rows.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // The API owns its file (one writer); the hand-written SQL runs on a copy, the same bytes.
  fs.copyFileSync(path.join(dataDir, 'warehouse.duckdb'), path.join(work, 'direct.duckdb'));
  const direct = await DuckDbWarehouse.open(path.join(work, 'direct.duckdb'));
  const schema = direct.state!.schema;

  api = await startApi({ DATA_DIR: dataDir, ADMIN_PASSWORD: password, DEMO_PERSONS: '0', QUERY_TIMEOUT_MS: '120000' });
  const token = await signIn(api.url, 'admin@example.org', password);
  const throughApi = async (definition: CohortDefinitionInput) => {
    const t0 = performance.now();
    const response = await fetch(`${api!.url}/api/v1/queries/execute/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: query(definition) }),
    });
    const body = (await response.json()) as QueryResult & { detail?: string };
    if (response.status !== 200) throw new Error(`API answered ${response.status}: ${body.detail}`);
    return { ms: performance.now() - t0, serverMs: body.execution_time_ms, body };
  };
  const onDuckDb = async () => {
    const t0 = performance.now();
    const result = await direct.query(handSql(schema));
    return { ms: performance.now() - t0, count: result.reduce((sum, r) => sum + Number(r.n), 0) };
  };

  for (let i = 0; i < warmups; i++) {
    await throughApi(NEW_USERS);
    await onDuckDb();
  }
  const apiMs: number[] = [];
  const serverMs: number[] = [];
  const directMs: number[] = [];
  let last = { api: null as number | null, direct: 0 };
  for (let i = 0; i < runs; i++) {
    const a = await throughApi(NEW_USERS);
    const d = await onDuckDb();
    apiMs.push(a.ms);
    serverMs.push(a.serverMs);
    directMs.push(d.ms);
    last = { api: a.body.person_count, direct: d.count };
  }
  // Where the run's time went, from its audit entries: the LP audit of the small-count suppression and the release ledger's check.
  const logs = await fetch(`${api.url}/api/v1/logs/?event_type=QUERY_EXECUTED&limit=${runs}`, { headers: { authorization: `Bearer ${token}` } });
  const entries = ((await logs.json()) as { entries: { details: { suppression_audit_ms?: number; tracker_check_ms?: number } }[] }).entries;
  const auditMs = entries.map((e) => e.details.suppression_audit_ms ?? 0);
  const ledgerMs = entries.map((e) => e.details.tracker_check_ms ?? 0);
  // The API's count is perturbed (at most 2 away by default).
  if (last.api === null || Math.abs(last.api - last.direct) > 2) throw new Error(`the API counted ${last.api} persons, the hand-written SQL ${last.direct}`);

  const fiveMs: number[] = [];
  let five: QueryResult | undefined;
  for (let i = 0; i < warmups; i++) await throughApi(FIVE_RULES);
  for (let i = 0; i < runs; i++) {
    const r = await throughApi(FIVE_RULES);
    fiveMs.push(r.ms);
    five = r.body;
  }
  await direct.close();

  const p50 = percentile(apiMs, 50);
  const p95 = percentile(apiMs, 95);
  const directP50 = percentile(directMs, 50);
  const ratio = p50 / directP50;
  const fiveP50 = percentile(fiveMs, 50);
  out(`definition: new users of lisinopril, 365 days prior observation, no prior chronic kidney disease: ${last.direct.toLocaleString('en')} persons; ${runs} runs each, alternating, after ${warmups} warm-ups`);
  out(`through the API (HTTP, end to end, with the attrition): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (goal p50 <= 1000 ms)`);
  out(`  of which the warehouse and disclosure control (execution_time_ms): p50 ${percentile(serverMs, 50).toFixed(0)} ms`);
  out(`    suppression's LP audit p50 ${percentile(auditMs, 50).toFixed(1)} ms, release ledger's check p50 ${percentile(ledgerMs, 50).toFixed(1)} ms (from the runs' audit entries)`);
  out(`hand-written SQL on DuckDB (the persons' aggregate only): p50 ${directP50.toFixed(0)} ms, p95 ${percentile(directMs, 95).toFixed(0)} ms`);
  out(`ratio API / hand-written (p50): ${ratio.toFixed(2)} (goal <= 1.50)`);
  out(`5 inclusion rules: p50 ${fiveP50.toFixed(0)} ms, p95 ${percentile(fiveMs, 95).toFixed(0)} ms (goal p50 <= 1500 ms); attrition rows ${five!.attrition!.steps.length}:`);
  for (const step of five!.attrition!.steps) out(`  ${step.label}: ${step.persons.display} persons, ${step.events.display} events`);
  out(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const ok = p50 <= 1000 && ratio <= 1.5 && fiveP50 <= 1500;
  out(ok ? 'all goals met' : 'GOAL MISSED');
  process.exitCode = ok ? 0 : 1;
} finally {
  if (api) await stop(api.child);
  fs.rmSync(work, { recursive: true, force: true });
}
