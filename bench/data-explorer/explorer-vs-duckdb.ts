/**
 * The data explorer on 1,000,000 synthetic persons: a 3-criteria query (women, with type 2 diabetes,
 * with an HbA1c above 7 % on one measurement) end to end through the API (HTTP, authentication,
 * validation, compilation, DuckDB, perturbation, the LP-audited suppression, audit entry), against the
 * same aggregate written by hand (counts only, no record keys) and run directly on DuckDB, in the same
 * run, alternating. Also times the generator, and reads from the server's audit entries how long the
 * suppression audit took in each run.
 * Usage: npm run bench:data-explorer [-- --persons 1000000 --runs 40 --attacks 1 --from /path/to/warehouse.duckdb]
 * (`--attacks 0` times the runs and the defence only, without the day-long attacks.)
 * Goals: p50 <= 500 ms, p95 <= 1 s, API p50 within 1.2x of the hand-written SQL, suppression audit p95 <= 20 ms.
 *
 * The tracker defence (apps/api/src/warehouse/release-ledger.ts): its cost per run (from the audit
 * entries' `tracker_check_ms`), for repeats of one question and for distinct questions; the same
 * alternation against a second API on a copy of the same warehouse with the defence off; and the
 * tracker of the report, run against both: pairs `A = S or X`, `B = X and not S` over covers X
 * (born from a year on, of either sex or both) for a small S (persons who died, born in one year),
 * within a day's budget of 500 runs. Reports the runs after which the rounded mean of the pairs'
 * differences is |S| and stays so, or that it never is. Then the combined attack (differences of 20
 * or more: `S or Y or X` / `X and not S and not Y`, then Y alone) in the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { QueryResult } from '@hdp/contract';
import { DuckDbWarehouse } from '../../apps/api/src/warehouse/duckdb-warehouse';
import { syntheticDataset } from '../../apps/api/src/warehouse/synthetic-generator';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const persons = arg('persons', 1_000_000);
const runs = arg('runs', 40);
const attacks = arg('attacks', 1) !== 0;
/** A DuckDB warehouse file to start from instead of generating one (kept outside the repository; a checkpointed file, with no `.wal` beside it). */
const fromFile = (() => {
  const i = process.argv.indexOf('--from');
  return i > 0 ? path.resolve(process.argv[i + 1]!) : null;
})();
const warmups = 3;
const out = (line: string) => process.stdout.write(`${line}\n`);

const QUERY = {
  combinator: 'and',
  rules: [
    { field: 'person.gender_concept_id', operator: '=', value: 8532 },
    { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201826] },
    {
      table: 'measurement',
      combinator: 'and',
      rules: [
        { field: 'measurement.measurement_concept_id', operator: '=', value: 3004410 },
        { field: 'measurement.value_as_number', operator: '>', value: 7 },
      ],
    },
  ],
};

/** The same question narrowed to the oldest persons: few enough that breakdowns have small cells, so the audit has work. */
const SMALL_QUERY = { ...QUERY, rules: [...QUERY.rules, { field: 'person.age', operator: '>=', value: 88 }] };

/** The same question as QUERY, written by hand (descendants of 201826 included, as the API does). */
const handSql = (s: string) => `
SELECT p.gender_concept_id AS sex,
       CAST(LEAST(GREATEST(FLOOR((year(current_date) - p.year_of_birth) / 10.0), 0), 9) AS INTEGER) AS age_band,
       p.race_concept_id AS race, p.ethnicity_concept_id AS ethnicity, COUNT(*) AS n
FROM "${s}".person p
WHERE p.gender_concept_id = 8532
  AND p.person_id IN (SELECT person_id FROM "${s}".condition_occurrence
                      WHERE condition_concept_id IN (SELECT descendant_concept_id FROM "${s}".concept_ancestor WHERE ancestor_concept_id = 201826)
                         OR condition_concept_id = 201826)
  AND p.person_id IN (SELECT person_id FROM "${s}".measurement WHERE measurement_concept_id = 3004410 AND value_as_number > 7)
GROUP BY 1, 2, 3, 4`;

function start(dataDir: string, port: number, password: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'apps/api'),
    env: { ...process.env, DATA_DIR: dataDir, API_PORT: String(port), ADMIN_PASSWORD: password, MFA_REQUIRED: 'false', DEMO_PERSONS: '0', QUERY_RATE_PER_MINUTE: '10000', QUERY_DAILY_BUDGET: '1000000', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    const onData = (chunk: Buffer) => {
      if (ready) return;
      output += chunk.toString();
      if (output.includes('API listening')) {
        ready = true;
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', () => reject(new Error(`server exited: ${output}`)));
    setTimeout(() => reject(new Error(`server did not start: ${output}`)), 120_000).unref();
  });
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-explorer-'));
const dataDir = path.join(work, 'data');
fs.mkdirSync(dataDir);
const password = 'bench-admin-password';
let api: ChildProcess | undefined;
let plainApi: ChildProcess | undefined;
try {
  // 1. Generate into the API's warehouse file, then copy it: the API owns its file (one writer),
  //    and the hand-written SQL runs on the copy, the same bytes.
  //    With `--from`, a warehouse file generated before (by this benchmark's generator) is copied instead.
  let generatorSeconds = 0;
  if (fromFile) {
    fs.copyFileSync(fromFile, path.join(dataDir, 'warehouse.duckdb'));
    out(`generator not run: the warehouse is a copy of ${fromFile}`);
  } else {
    const started = performance.now();
    const generated = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
    const report = await generated.load(`synthetic: ${persons} persons, seed 1`, syntheticDataset({ persons, seed: 1 }));
    await generated.close();
    generatorSeconds = (performance.now() - started) / 1000;
    const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
    out(`generator: ${persons.toLocaleString('en')} persons, ${rows.toLocaleString('en')} rows in ${generatorSeconds.toFixed(1)} s (goal < 120 s)`);
  }
  fs.copyFileSync(path.join(dataDir, 'warehouse.duckdb'), path.join(work, 'direct.duckdb'));
  const direct = await DuckDbWarehouse.open(path.join(work, 'direct.duckdb'));
  const schema = direct.state!.schema;

  // A second API, with the tracker defence off, on its own copy of the same warehouse (the same keys).
  const plainDir = path.join(work, 'plain');
  fs.mkdirSync(plainDir);
  fs.copyFileSync(path.join(dataDir, 'warehouse.duckdb'), path.join(plainDir, 'warehouse.duckdb'));
  const port = 19_000 + Math.floor(Math.random() * 1000);
  api = await start(dataDir, port, password);
  plainApi = await start(plainDir, port + 1, password, { DISCLOSURE_TRACKER_DEFENCE: 'off' });
  const signIn = async (b: string) =>
    ((await (await fetch(`${b}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.org', password }),
    })).json()) as { id_token: string }).id_token;
  const base = `http://127.0.0.1:${port}/api/v1`;
  const plainBase = `http://127.0.0.1:${port + 1}/api/v1`;
  const token = await signIn(base);
  const plainToken = await signIn(plainBase);

  const ask = async (b: string, t: string, query: object) => {
    const response = await fetch(`${b}/queries/execute/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as QueryResult & { detail?: string };
    if (response.status !== 200) throw new Error(`API answered ${response.status}: ${body.detail}`);
    return body;
  };
  const throughPlainApi = async (query: object = QUERY) => {
    const t0 = performance.now();
    await ask(plainBase, plainToken, query);
    return performance.now() - t0;
  };

  const throughApi = async (query: object = QUERY) => {
    const t0 = performance.now();
    const response = await fetch(`${base}/queries/execute/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as QueryResult & { detail?: string };
    if (response.status !== 200) throw new Error(`API answered ${response.status}: ${body.detail}`);
    const b = body.breakdowns;
    const hidden = [...b.sex, ...b.age_band, ...b.race, ...b.ethnicity, ...b.sex_by_age_band.flatMap((row) => row.cells)].filter((c) => c.suppressed).length;
    return { ms: performance.now() - t0, serverMs: body.execution_time_ms, count: body.person_count, hidden };
  };
  /** How long the suppression audit took in the last `n` runs, from the server's audit entries. */
  const auditTimes = async (n: number) => {
    const entries = ((await (await fetch(`${base}/logs/?event_type=QUERY_EXECUTED&limit=100`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      entries: { details: { suppression_audit_ms?: number; linear_programs?: number; tracker_check_ms?: number } }[];
    }).entries.slice(0, n);
    const ms = entries.map((e) => e.details.suppression_audit_ms ?? NaN);
    if (ms.length !== n || ms.some(Number.isNaN)) throw new Error('the audit entries do not say how long the suppression audit took');
    return { ms, solves: entries.map((e) => e.details.linear_programs ?? 0), tracker: entries.map((e) => e.details.tracker_check_ms ?? NaN) };
  };
  const onDuckDb = async () => {
    const t0 = performance.now();
    const result = await direct.query(handSql(schema));
    return { ms: performance.now() - t0, count: result.reduce((sum, r) => sum + Number(r.n), 0) };
  };

  for (let i = 0; i < warmups; i++) {
    await throughApi();
    await onDuckDb();
    await throughPlainApi();
  }
  const apiMs: number[] = [];
  const serverMs: number[] = [];
  const directMs: number[] = [];
  const plainMs: number[] = [];
  let counts = { api: 0 as number | null, direct: 0 };
  for (let i = 0; i < runs; i++) {
    const a = await throughApi();
    const d = await onDuckDb();
    plainMs.push(await throughPlainApi());
    apiMs.push(a.ms);
    serverMs.push(a.serverMs);
    directMs.push(d.ms);
    counts = { api: a.count, direct: d.count };
  }
  // The API's count is perturbed (PERTURBATION_MAX_CHANGE, 2 by default): at most 2 away.
  if (counts.api === null || Math.abs(counts.api - counts.direct) > 2) throw new Error(`the API counted ${counts.api} persons, the hand-written SQL ${counts.direct}`);
  const { ms: auditMs, solves, tracker: repeatTracker } = await auditTimes(runs);
  // Distinct questions (each a fresh answer the ledger checks and keeps): the same query, aged from k on.
  for (let i = 0; i < runs; i++) await throughApi({ ...QUERY, rules: [...QUERY.rules, { field: 'person.age', operator: '>=', value: 20 + i }] });
  const { tracker: freshTracker } = await auditTimes(runs);
  // The same question narrowed until cells are small: the audit's own cost, where it has work to do.
  let small = { count: 0 as number | null, hidden: 0 };
  for (let i = 0; i < runs; i++) small = await throughApi(SMALL_QUERY);
  const { ms: smallAuditMs, solves: smallSolves } = await auditTimes(runs);
  const auditP95 = Math.max(quantile(auditMs, 0.95), quantile(smallAuditMs, 0.95));
  const p50 = quantile(apiMs, 0.5);
  const p95 = quantile(apiMs, 0.95);
  const directP50 = quantile(directMs, 0.5);
  const ratio = p50 / directP50;
  out(`query: women with type 2 diabetes and an HbA1c > 7 % — ${counts.direct.toLocaleString('en')} persons; ${runs} runs each, alternating, after ${warmups} warm-ups`);
  out(`through the API (HTTP, end to end): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (goals 500 ms, 1000 ms)`);
  out(`  of which the warehouse and disclosure control (the result's execution_time_ms): p50 ${quantile(serverMs, 0.5).toFixed(0)} ms; the rest (HTTP, authentication, limits, audit entry): p50 ${quantile(apiMs.map((ms, i) => ms - serverMs[i]!), 0.5).toFixed(1)} ms`);
  out(`hand-written SQL on DuckDB:          p50 ${directP50.toFixed(0)} ms, p95 ${quantile(directMs, 0.95).toFixed(0)} ms`);
  out(`ratio API / hand-written (p50): ${ratio.toFixed(2)} (goal <= 1.20; 1.30 with the tracker defence)`);
  out(`the same API with the tracker defence off: p50 ${quantile(plainMs, 0.5).toFixed(0)} ms, p95 ${quantile(plainMs, 0.95).toFixed(0)} ms, ratio ${(quantile(plainMs, 0.5) / directP50).toFixed(2)}`);
  out(`tracker defence per run (sketch comparison and ledger, audit entries' tracker_check_ms): repeats p50 ${quantile(repeatTracker, 0.5).toFixed(2)} ms, p95 ${quantile(repeatTracker, 0.95).toFixed(2)} ms; distinct questions p50 ${quantile(freshTracker, 0.5).toFixed(2)} ms, p95 ${quantile(freshTracker, 0.95).toFixed(2)} ms`);
  out(`suppression audit per run: p50 ${quantile(auditMs, 0.5).toFixed(2)} ms, p95 ${quantile(auditMs, 0.95).toFixed(2)} ms (goal 20 ms), ${Math.min(...solves)}–${Math.max(...solves)} linear programs`);
  out(
    `  the same query, aged 88 and over (${small.count ?? 'fewer than 20'} persons, ${small.hidden} cells hidden): p50 ${quantile(smallAuditMs, 0.5).toFixed(2)} ms, p95 ${quantile(smallAuditMs, 0.95).toFixed(2)} ms, ${Math.min(...smallSolves)}–${Math.max(...smallSolves)} linear programs`,
  );
  let attacksOk = true;
  if (!attacks) out('attacks not run (--attacks 0)');
  else {
  // The tracker of the report, on both APIs, within a day's budget.
  const [found] = (
    await direct.query(
      `SELECT p.year_of_birth AS y, COUNT(*) AS n FROM "${schema}".person p WHERE EXISTS (SELECT 1 FROM "${schema}".death d WHERE d.person_id = p.person_id) GROUP BY 1 HAVING COUNT(*) BETWEEN 5 AND 17 ORDER BY 1 LIMIT 1`,
    )
  ).map((r) => [Number(r.y), Number(r.n)] as const);
  if (found === undefined) throw new Error('no small set of persons who died in one birth year');
  const [smallYear, smallSize] = found;
  const smallSet = { rules: [{ table: 'death', rules: [] }, { field: 'person.year_of_birth', operator: '=', value: smallYear }] };
  const attack = async (b: string, t: string) => {
    const estimates: number[] = [];
    let spent = 0;
    outer: for (const sex of [null, 8532, 8507]) {
      for (let year = 1925; year <= 2010; year++) {
        if (spent + 2 > 500) break outer;
        const cover = { rules: [{ field: 'person.year_of_birth', operator: '>=', value: year }, ...(sex === null ? [] : [{ field: 'person.gender_concept_id', operator: '=', value: sex }])] };
        const a = await ask(b, t, { combinator: 'or', rules: [smallSet, cover] });
        const d = await ask(b, t, { rules: [cover, { not: true, rules: [smallSet] }] });
        spent += 2;
        if (a.person_count !== null && d.person_count !== null) estimates.push(a.person_count - d.person_count);
      }
    }
    return { spent, ...recovery(estimates, 2) };
  };
  /**
   * Differences of 20 or more, combined: a padding Y (persons born in one year, none of S) makes the
   * pair `A = S or Y or X`, `B = X and not S and not Y` |S| + |Y| apart; Y alone is then taken off:
   * A − B − Y is |S| plus three answers' noise. A new cover and a new padding each time.
   */
  const combinedAttack = async (b: string, t: string) => {
    const estimates: number[] = [];
    let spent = 0;
    outer: for (const sex of [null, 8532, 8507]) {
      for (let year = 1925; year <= 2010; year++) {
        if (spent + 3 > 500) break outer;
        const padding = { rules: [{ field: 'person.year_of_birth', operator: '=', value: 1924 + ((year - 1925 + (sex ?? 0)) % 80) }] };
        const cover = { rules: [{ field: 'person.year_of_birth', operator: '>=', value: year }, ...(sex === null ? [] : [{ field: 'person.gender_concept_id', operator: '=', value: sex }])] };
        const a = await ask(b, t, { combinator: 'or', rules: [smallSet, padding, cover] });
        const d = await ask(b, t, { rules: [cover, { not: true, rules: [smallSet] }, { not: true, rules: [padding] }] });
        const y = await ask(b, t, { rules: [padding, { not: true, rules: [smallSet] }] });
        spent += 3;
        if (a.person_count !== null && d.person_count !== null && y.person_count !== null) estimates.push(a.person_count - d.person_count - y.person_count);
      }
    }
    return { spent, ...recovery(estimates, 3) };
  };
  /**
   * The attacker is sure of |S| once the 95 % interval of their running mean lies within ±0.5 of a
   * whole number, and that number is |S| (and stays so until the budget is spent); `runsPer` runs make one estimate.
   */
  function recovery(estimates: number[], runsPer: number) {
    let from: number | null = null;
    let sum = 0;
    let squares = 0;
    estimates.forEach((e, i) => {
      sum += e;
      squares += e * e;
      const k = i + 1;
      const mean = sum / k;
      const sd = k > 1 ? Math.sqrt(Math.max(0, (squares - k * mean * mean) / (k - 1))) : Infinity;
      const sure = k >= 5 && Math.round(mean) === smallSize && Math.abs(mean - smallSize) + (1.96 * sd) / Math.sqrt(k) < 0.5;
      if (sure) from ??= i;
      else from = null;
    });
    return { pairs: estimates.length, mean: estimates.length ? sum / estimates.length : null, runsToRecover: from === null ? null : runsPer * (from + 1) };
  }
  const attackT0 = performance.now();
  // Each attack signs in afresh: a token lives shorter than a loaded machine's day of runs.
  const before = await attack(plainBase, await signIn(plainBase));
  const after = await attack(base, await signIn(base));
  const says = (r: Awaited<ReturnType<typeof attack>>) =>
    `${r.pairs} pairs answered of ${r.spent / 2}, mean ${r.mean === null ? '–' : r.mean.toFixed(2)}: ${r.runsToRecover === null ? `not recovered in ${r.spent} runs` : `recovered (95 % interval within ±0.5) after ${r.runsToRecover} runs`}`;
  out(`tracker attack on |S| = ${smallSize} (persons who died, born in ${smallYear}), a day's budget of 500 runs (${((performance.now() - attackT0) / 1000).toFixed(0)} s):`);
  out(`  defence off: ${says(before)}`);
  out(`  defence on:  ${says(after)}`);
  const combinedT0 = performance.now();
  const combinedBefore = await combinedAttack(plainBase, await signIn(plainBase));
  const combinedAfter = await combinedAttack(base, await signIn(base));
  const saysCombined = (r: Awaited<ReturnType<typeof combinedAttack>>) =>
    `${r.pairs} triples answered of ${r.spent / 3}, mean ${r.mean === null ? '–' : r.mean.toFixed(2)}: ${r.runsToRecover === null ? `not recovered in ${r.spent} runs` : `recovered (95 % interval within ±0.5) after ${r.runsToRecover} runs`}`;
  out(`combined attack (S or Y or X / X and not S and not Y, then Y alone) on the same |S|, a day's budget (${((performance.now() - combinedT0) / 1000).toFixed(0)} s):`);
  out(`  defence off: ${saysCombined(combinedBefore)}`);
  out(`  defence on:  ${saysCombined(combinedAfter)}`);
  attacksOk = after.runsToRecover === null && combinedAfter.runsToRecover === null;
  }
  await direct.close();
  const ok = generatorSeconds < 120 && p50 <= 500 && p95 <= 1000 && ratio <= 1.3 && auditP95 <= 20 && attacksOk;
  out(ok ? 'all goals met' : 'GOAL MISSED');
  process.exitCode = ok ? 0 : 1;
} finally {
  api?.kill('SIGTERM');
  plainApi?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  fs.rmSync(work, { recursive: true, force: true });
}
