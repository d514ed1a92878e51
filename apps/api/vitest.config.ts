import { defineConfig } from 'vitest/config';

/**
 * The API suite runs twice: on the embedded PGlite and on a real PostgreSQL server
 * (TEST_POSTGRES_URL, default the local server), where each test file creates and drops its own database.
 */
/** Files that must not share a process with another file. */
const OWN_PROCESS = ['test/error-reporting.test.ts', 'test/error-reporting-traces.test.ts'];
/**
 * The attacks on the tracker defence run once, on the PostgreSQL server: what they test is the
 * ledger's decisions, which are the same on both databases, and only the server runs requests
 * really at the same time (the embedded database serialises them), so only there does the parallel
 * attack test the dataset's lock. The ledger's storage is tested on both (ledger and honest-use files).
 */
const POSTGRES_ONLY = ['test/tracker-attack.test.ts', 'test/tracker-cell-attack.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time: much of a file's time is spent waiting (PostgreSQL, child processes,
    // notebooks, sockets), and vitest's default on two cores is one worker. Files never share a
    // database, a data directory or a port (each makes its own), so they may run side by side.
    maxWorkers: 2,
    // A worker keeps its loaded modules from one file to the next: importing the API (Fastify, drizzle,
    // the routes) again for each of some seventy file runs cost about a second each. Every file still
    // builds its own apps and databases; nothing in the suite relies on a fresh module state.
    isolate: false,
    globalSetup: ['test/support/pglite-template.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'api-pglite', include: ['test/**/*.test.ts'], exclude: [...OWN_PROCESS, ...POSTGRES_ONLY], env: { HDP_TEST_DB: 'pglite' } },
      },
      // Sentry's SDK keeps its client, scopes and handlers (unhandled rejections, HTTP instrumentation)
      // in process-wide state: in a worker shared with other files, the 5xx test once received an event
      // without its tags in the whole suite. These files each get a process of their own, once; they do
      // not depend on the platform database.
      { extends: true, test: { name: 'api-own-process', include: OWN_PROCESS, isolate: true, env: { HDP_TEST_DB: 'pglite' } } },
      {
        extends: true,
        test: {
          name: 'api-postgres',
          include: ['test/**/*.test.ts'],
          // The data-directory lock, the access log and the hdp commands' own runs start the API on the
          // embedded database.
          // The warehouse and compiler suites do not use the platform database: they test both
          // warehouse engines (DuckDB and PostgreSQL) themselves, once; the request logger and the
          // notebook runtime use no database.
          exclude: [
            ...OWN_PROCESS,
            'test/data-dir-lock.test.ts',
            'test/access-log.test.ts',
            'test/hdp-data-commands.test.ts',
            'test/warehouse.test.ts',
            'test/cohort-compiler.test.ts',
            'test/cohort-definitions.test.ts',
            'test/request-logger.test.ts',
            'test/notebook-runtime.test.ts',
            // It makes its own PostgreSQL database whichever project runs it: once is enough.
            'test/notebook-restart.test.ts',
            // No database at all: the disclosure-control arithmetic, its LP audits and the sketches.
            'test/suppression.test.ts',
            'test/perturbation.test.ts',
            'test/person-set-sketch.test.ts',
            'test/ledger-combinations.test.ts',
            'test/ledger-first-parts.test.ts',
            'test/output-table-checks.test.ts',
            // The explorer's answers through HTTP: the warehouse's and the disclosure path's, the same
            // on either platform database (the ledger's storage is tested on both by the honest-use file).
            'test/disclosure.test.ts',
          ],
          env: { HDP_TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
