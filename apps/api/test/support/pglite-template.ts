import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../../src/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite database, which every in-memory test app starts from. */
    pgliteTemplatePath: string;
  }
}

/**
 * Global setup: one migrated PGlite database, dumped to a file once per run. A new PGlite cluster
 * takes seconds to make (initdb in WebAssembly) and the suite starts a hundred and more test apps;
 * loading a dump takes a fraction of that. Each app still runs the migrations (none are left to
 * apply), so a template that is out of date fails like a database would.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const handle = await openDatabase({ dataDir: null });
  await migrateDatabase(handle);
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplatePath', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
