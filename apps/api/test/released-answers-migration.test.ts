import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../src/db/database';
import { sketchOfKeys } from '../src/warehouse/person-set-sketch';
import type { QueryResult } from '@hdp/contract';
import { readLedgerAhead, settleRelease, sketchFirstPart, WITHHELD_LABEL } from '../src/warehouse/release-ledger';
import { createPostgresDatabase, testDbKind } from './support/test-database';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');

/** A copy of the migrations that stops before `tag`. */
function migrationsBefore(tag: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-migrations-'));
  fs.cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return folder;
}

describe('kept answers from before the first part had a column of its own (migration 0018)', () => {
  it('get it from their sketches: the first 128 counts, then their key sums modulo 2^32, as the ledger writes it', async () => {
    const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
    const handle = await openDatabase({ databaseUrl: postgres?.url, dataDir: null });
    const folder = migrationsBefore('0018_sketch_first_part');
    try {
      if (handle.kind === 'pglite') await migratePglite(handle.db as never, { migrationsFolder: folder });
      else await migratePg(handle.db as never, { migrationsFolder: folder });
      // A large set (key sums past 2^32 in every cell, some within 2^31 of a multiple of it) and a small one (most cells empty).
      const large = sketchOfKeys(Array.from({ length: 130_000 }, (_k, i) => (i * 2_654_435_761) % 2 ** 24));
      const small = sketchOfKeys([5, 77_777, 16_000_000]);
      for (const [count, sketch] of [[130_000, large], [3, small]] as const) {
        await handle.db.execute(
          sql`insert into released_answers (dataset, kind, person_count, sketch, result, cell) values ('cdm_x', 'explorer', ${count}, ${JSON.stringify(sketch)}::jsonb, null, '{"breakdown":"sex","key":"8532","label":"Female","shown":130000}'::jsonb)`,
        );
      }
      await migrateDatabase(handle);
      const rows = (await handle.db.execute(sql`select person_count, sketch_first_part from released_answers order by id`)) as unknown as { rows: { person_count: number; sketch_first_part: number[] }[] };
      expect(rows.rows.map((r) => r.sketch_first_part)).toEqual([sketchFirstPart(large), sketchFirstPart(small)]);
      expect(sketchFirstPart(large).slice(128).some((sum) => sum < 0)).toBe(true);
      expect(large.keySums.slice(0, 128).some((sum) => sum >= 2 ** 32)).toBe(true);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await handle.close();
      await postgres?.drop();
    }
  });
});

describe('the ledger read ahead, when a process starts', () => {
  it('holds what was kept before it and reads what was kept after: near answers are still withheld, the same persons answer the same', async () => {
    const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
    const handle = await openDatabase({ databaseUrl: postgres?.url, dataDir: null });
    // Two processes on one database: one keeps answers, the other reads the ledger ahead, then answers.
    const other = postgres ? await openDatabase({ databaseUrl: postgres.url, dataDir: null }) : handle;
    try {
      await migrateDatabase(handle);
      const keys = (from: number, count: number) => Array.from({ length: count }, (_k, i) => ((from + i) * 2_654_435_761) % 2 ** 24);
      const answer = (persons: number[], db = handle.db) => {
        const result = { person_count: persons.length, person_count_display: String(persons.length), suppression_threshold: 20 } as unknown as QueryResult;
        return settleRelease({ dataset: 'cdm_x', result, personCount: persons.length, sketch: sketchOfKeys(persons) }, { db, kind: 'explorer', reference: null, audit: {} });
      };
      const x = keys(0, 400);
      expect((await answer(x, other.db)).person_count).toBe(400);
      await readLedgerAhead(handle.db, 'cdm_x', { ownConnection: handle.kind === 'postgres' });
      const y = keys(1000, 300);
      expect((await answer(y, other.db)).person_count).toBe(300);
      // Near the answer kept before the read and near the one kept after it: both withheld.
      expect((await answer(x.slice(5))).person_count_display).toBe(WITHHELD_LABEL);
      expect((await answer([...y, ...keys(5000, 3)])).person_count_display).toBe(WITHHELD_LABEL);
      // Unrelated persons of the same count are released; the same persons answer the same.
      expect((await answer(keys(9000, 400))).person_count).toBe(400);
      expect((await answer([...x].reverse())).person_count).toBe(400);
    } finally {
      if (other !== handle) await other.close();
      await handle.close();
      await postgres?.drop();
    }
  });
});
