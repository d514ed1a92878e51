/**
 * How long an API process takes to read a dataset's ledger (release-ledger.ts keeps every kept set's
 * count and the first part of its sketch in memory, and reads the whole ledger once per process and
 * dataset), and what it holds after: read ahead, as a process does when it starts
 * (`readLedgerAhead`), then one answer settled right after (what it still reads under the lock),
 * then three more; and, for comparison, the first answer of a process that did not read ahead.
 * A fresh PostgreSQL database gets `--answers` kept answers with sketches of random cells (their
 * size on disk is what matters), then one answer is settled cold (the ledger read) and three warm.
 * Usage: npm run bench:ledger-startup [-- --answers 200000]
 */
import type { QueryResult } from '@hdp/contract';
import { migrateDatabase, openDatabase } from '../../apps/api/src/db/database';
import { readLedgerAhead, settleRelease } from '../../apps/api/src/warehouse/release-ledger';
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
  // The first part's column as the ledger writes it (and migration 0018 fills it): 128 counts, then their key sums modulo 2^32.
  const firstPart = `array(select case when i < 128 then (sketch->'counts'->>i)::integer
    else (case when m >= 2147483648 then m - 4294967296 else m end)::integer end
    from generate_series(0, 255) as i, lateral (select (((sketch->'keySums'->>(i - 128))::numeric % 4294967296) + 4294967296) % 4294967296 as m) as k order by i)`;
  for (let from = 0; from < answers; from += 10_000) {
    await runSql(database.url, [
      `insert into released_answers (dataset, kind, reference, person_count, sketch, sketch_first_part, result)
       select 'bench', 'explorer', 'unsaved', count, sketch, ${firstPart}, '{}'::jsonb from (
         select 20 + floor(random() * 5000)::int as count,
                jsonb_build_object('counts', ${cells(40)}, 'keySums', ${cells(2 ** 24 * 40)}, 'checkSums', ${cells(65_521 * 40)}) as sketch
         from generate_series(${from + 1}, ${Math.min(answers, from + 10_000)}) as a(i)) s`,
    ]);
  }
  out(`${answers.toLocaleString('en')} kept answers written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const settle = async (db: typeof handle.db) => {
    const keys = Array.from({ length: 3000 }, () => Math.floor(Math.random() * 2 ** 24));
    const result = { person_count: 3000, person_count_display: '3000', suppression_threshold: 20 } as unknown as QueryResult;
    const t = performance.now();
    await settleRelease({ dataset: 'bench', result, personCount: 3000, sketch: sketchOfKeys(keys) }, { db, kind: 'bench', reference: null, audit: {} });
    return performance.now() - t;
  };
  const before = held();
  const t1 = performance.now();
  await readLedgerAhead(handle.db, 'bench', { ownConnection: true });
  out(`read ahead (when the process starts, no lock held): ${((performance.now() - t1) / 1000).toFixed(1)} s; held in memory after: ${((held() - before) / 2 ** 20).toFixed(0)} MiB (${((held() - before) / answers).toFixed(0)} bytes an answer)`);
  const times: number[] = [];
  for (let run = 0; run < 4; run++) times.push(await settle(handle.db));
  out(`then the first answer: ${times[0]!.toFixed(0)} ms; the next three: ${times.slice(1).map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
  // A second process (its own connection pool, its own held ledger) that did not read ahead.
  const cold = await openDatabase({ databaseUrl: database.url, dataDir: null });
  try {
    out(`first answer of a process that did not read ahead (the ledger read under the lock): ${((await settle(cold.db)) / 1000).toFixed(1)} s`);
  } finally {
    await cold.close();
  }
} finally {
  await handle.close();
  await database.drop();
}
