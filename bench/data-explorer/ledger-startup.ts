/**
 * How long an API process takes to read a dataset's ledger the first time it answers on that
 * dataset (release-ledger.ts keeps every kept answer's count and the first part of its sketch in
 * memory, and reads the whole ledger once per process and dataset), and what it holds after.
 * A fresh PostgreSQL database gets `--answers` kept answers with sketches of random cells (their
 * size on disk is what matters), then one answer is settled cold (the ledger read) and three warm.
 * Usage: npm run bench:ledger-startup [-- --answers 200000]
 */
import type { QueryResult } from '@hdp/contract';
import { migrateDatabase, openDatabase } from '../../apps/api/src/db/database';
import { settleRelease } from '../../apps/api/src/warehouse/release-ledger';
import { SKETCH_CELLS, sketchOfKeys } from '../../apps/api/src/warehouse/person-set-sketch';
import { createBenchDatabase, runSql } from '../support/postgres';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const answers = arg('answers', 200_000);
const out = (line: string) => process.stdout.write(`${line}\n`);
const held = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};

const database = await createBenchDatabase();
const handle = await openDatabase({ databaseUrl: database.url, dataDir: null });
try {
  await migrateDatabase(handle);
  const t0 = performance.now();
  // Cells as a kept answer of a few thousand persons has them: counts in tens, key sums in the hundreds of millions.
  const cells = (scale: number) => `(select jsonb_agg(floor(random() * ${scale})::bigint + 0 * g) from generate_series(1, ${SKETCH_CELLS}) as g where a.i > 0)`;
  for (let from = 0; from < answers; from += 10_000) {
    await runSql(database.url, [
      `insert into released_answers (dataset, kind, reference, person_count, sketch, result)
       select 'bench', 'explorer', 'unsaved', 20 + floor(random() * 5000)::int,
              jsonb_build_object('counts', ${cells(40)}, 'keySums', ${cells(2 ** 24 * 40)}, 'checkSums', ${cells(65_521 * 40)}), '{}'::jsonb
       from generate_series(${from + 1}, ${Math.min(answers, from + 10_000)}) as a(i)`,
    ]);
  }
  out(`${answers.toLocaleString('en')} kept answers written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const times: number[] = [];
  const before = held();
  for (let run = 0; run < 4; run++) {
    const keys = Array.from({ length: 3000 }, () => Math.floor(Math.random() * 2 ** 24));
    const result = { person_count: 3000, person_count_display: '3000', suppression_threshold: 20 } as unknown as QueryResult;
    const t = performance.now();
    await settleRelease({ dataset: 'bench', result, personCount: 3000, sketch: sketchOfKeys(keys) }, { db: handle.db, kind: 'bench', reference: null, audit: {} });
    times.push(performance.now() - t);
    if (run === 0) out(`first answer on the dataset (the ledger read): ${(times[0]! / 1000).toFixed(1)} s; held in memory after: ${((held() - before) / 2 ** 20).toFixed(0)} MiB (${((held() - before) / answers).toFixed(0)} bytes an answer)`);
  }
  out(`the next three: ${times.slice(1).map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
} finally {
  await handle.close();
  await database.drop();
}
