import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReleasedTable } from '@hdp/contract';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { cohortRepository } from '../cohorts/cohort-repository';
import type { Config } from '../config';
import type { DbOrTx } from '../db/database';
import type { JobHandler } from '../jobs/job-worker';
import type { JobRow } from '../jobs/job-repository';
import type { FileStore } from '../storage/file-store';
import { dataDictionaryCsv, PERIOD_FILE, periodSelect, RELEASED_CDM_TABLES, releaseSelect } from '../warehouse/cohort-export';
import { countPeriods, countSnapshot } from '../warehouse/cohort-snapshots';
import { WarehouseTimeoutError, type WarehouseEngine } from '../warehouse/warehouse-engine';
import { workbenchRepository } from './workbench-repository';
import { releasedCohortKey, workbenchKey } from './workbench-storage';
import { cohortLabel, workbenchLabel } from '../audit/audit-labels';

export const PROVISION_JOB = 'workbench-provision';
/** A release is tried this many times (a stopped server, a passing error) before it is FAILED. */
export const PROVISION_ATTEMPTS = 3;

/** Payload of a provisioning job. */
export interface ProvisionPayload {
  releaseId: string;
  workbenchId: string;
  /** Who released the data, for the audit entry written when the files are in place. */
  auditContext: AuditContext;
}

const EXPORTS_AT_ONCE = 2;
/** The released tables by their usual size in OMOP data, largest first. */
const TYPICAL_SIZE_ORDER = ['measurement', 'drug_exposure', 'condition_occurrence', 'visit_occurrence', 'observation', 'procedure_occurrence'];
const LARGEST_FIRST = [...RELEASED_CDM_TABLES].sort((a, b) => rank(a.name) - rank(b.name));
function rank(table: string): number {
  const i = TYPICAL_SIZE_ORDER.indexOf(table);
  return i < 0 ? TYPICAL_SIZE_ORDER.length : i;
}

/** Runs `work` on every item, at most `limit` at a time; the first failure rejects (after the others settle). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  const results = await Promise.allSettled(lanes);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/** A release that cannot succeed however often it is tried; it fails at once with this reason. */
class ReleaseRefused extends Error {}

const UNEXPECTED = 'The files could not be written; the reason is in the server log. Remove the cohort and add it again, or ask an administrator.';

function readme(facts: { cohort: string; version: number; personCount: number; releasedAt: Date; counts: Record<string, number> }): string {
  const lines = [
    `Cohort "${facts.cohort}", version ${facts.version}: ${facts.personCount} persons.`,
    `Released ${facts.releasedAt.toISOString()}. These files do not change; a newer version of the cohort is released into a folder of its own.`,
    '',
    'One gzip-compressed CSV file per OMOP CDM v5.4 table, with a header row, holding the records of',
    'the persons of this cohort version. Each *_concept_id column is followed by the concept name',
    '(*_concept_name). data_dictionary.csv describes every column.',
    ...(facts.counts[PERIOD_FILE] !== undefined
      ? ['', `${PERIOD_FILE}.csv.gz holds each person's cohort periods (person_id, cohort_start_date, cohort_end_date),`, "as the cohort definition's entry event and exit made them: the time at risk."]
      : []),
    '',
    'Rows per file:',
    ...Object.entries(facts.counts).map(([table, n]) => `  ${table}.csv.gz: ${n}`),
    '',
    'Python:  import pandas as pd; person = pd.read_csv("person.csv.gz")',
    'R:       person <- read.csv("person.csv.gz")      # or readr::read_csv("person.csv.gz")',
    '',
    'This is row-level health data released to this workbench only: keep it here.',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Provisioning: writes a released cohort version's row-level records into the workbench's storage
 * as a job of the one queue. Files are built in a staging directory by the warehouse's own bulk
 * export and published as one folder, so a reader never sees half of it; a job cut short (a
 * stopped server) is tried again from the start, at most PROVISION_ATTEMPTS times. The release's
 * READY state, its row counts and the audit entry are written in one transaction with the job's end.
 */
export function provisionHandler(deps: { warehouse: WarehouseEngine; store: FileStore; config: Config }): JobHandler {
  const { warehouse, store, config } = deps;

  async function recordFailure(tx: DbOrTx, job: JobRow, reason: string): Promise<void> {
    const payload = job.payload as unknown as ProvisionPayload;
    const release = await workbenchRepository.findReleaseForUpdate(tx, payload.releaseId);
    if (!release) return;
    await workbenchRepository.updateRelease(tx, release.id, { state: 'FAILED', error: reason });
    await appendAuditEntry(tx, payload.auditContext ?? {}, {
      eventType: 'WORKBENCH_PROVISIONING_FAILED',
      outcome: 'FAILURE',
      message: `Releasing ${await cohortLabel(tx, release.cohortId)} (version ${release.cohortVersion}) to ${await workbenchLabel(tx, release.workbenchId)} failed: ${reason}`,
      resourceType: 'workbench',
      resourceId: release.workbenchId,
      details: { kind: 'cohort', cohort_id: release.cohortId, version: release.cohortVersion, reason, attempts: job.attempts },
    });
  }

  return {
    kind: PROVISION_JOB,
    concurrency: 1,

    async run({ job, db, finish, progress }) {
      const payload = job.payload as unknown as ProvisionPayload;
      const release = await workbenchRepository.findRelease(db, payload.releaseId);
      // Removed from the workbench (or the workbench deleted) before its turn came.
      if (!release) return void (await finish('SUCCEEDED', async () => undefined));
      const [cohort, version] = await Promise.all([
        cohortRepository.findById(db, release.cohortId),
        cohortRepository.findVersionById(db, release.cohortVersionId),
      ]);
      const key = releasedCohortKey(release.workbenchId, release.directory);
      let staged: string | undefined;
      try {
        const state = warehouse.state;
        if (!cohort || !version) throw new ReleaseRefused('The cohort version no longer exists.');
        if (!state || state.schema !== version.datasetSchema) {
          throw new ReleaseRefused('The data this cohort version was taken from is no longer served (the warehouse was reloaded); refresh the cohort and release its new version.');
        }
        await workbenchRepository.updateRelease(db, release.id, { state: 'PROVISIONING', progress: 0, error: null });
        staged = await store.stagingDir();
        const counts: Partial<Record<ReleasedTable | typeof PERIOD_FILE, number>> = {};
        // A version of a query with a cohort definition also holds each person's cohort periods.
        const periods = await countPeriods(warehouse, version.id);
        const steps = RELEASED_CDM_TABLES.length + (periods > 0 ? 2 : 1);
        let done = 0;
        const into = staged;
        // Two tables at a time (one is exported while another is compressed), the largest first so that
        // no big table is left to run alone at the end.
        await eachLimited(LARGEST_FIRST, EXPORTS_AT_ONCE, async (table) => {
          const select = releaseSelect(state.schema, table, version.id);
          counts[table.name as ReleasedTable] = await warehouse.exportCsvGzip(select, path.join(into, `${table.name}.csv.gz`), { timeoutMs: config.queryTimeoutMs * 10 });
          const fraction = ++done / steps;
          await progress(fraction);
          await workbenchRepository.updateRelease(db, release.id, { progress: fraction });
        });
        if (periods > 0) {
          counts[PERIOD_FILE] = await warehouse.exportCsvGzip(periodSelect(version.id), path.join(into, `${PERIOD_FILE}.csv.gz`), { timeoutMs: config.queryTimeoutMs * 10 });
          const fraction = ++done / steps;
          await progress(fraction);
          await workbenchRepository.updateRelease(db, release.id, { progress: fraction });
        }
        // The version's stored size is the released (perturbed) count; the snapshot holds the exact one.
        const persons = await countSnapshot(warehouse, version.id);
        if (counts.person !== persons) {
          throw new Error(`person.csv.gz holds ${counts.person} persons, the cohort version's snapshot ${persons}`);
        }
        await fs.writeFile(path.join(staged, 'data_dictionary.csv'), dataDictionaryCsv());
        await fs.writeFile(
          path.join(staged, 'README.txt'),
          readme({ cohort: cohort.name, version: version.version, personCount: persons, releasedAt: release.releasedAt, counts }),
        );
        await store.publish(staged, key);
        staged = undefined;
        let gone = false;
        await finish('SUCCEEDED', async (tx) => {
          const current = await workbenchRepository.findReleaseForUpdate(tx, release.id);
          if (!current) {
            gone = true;
            return;
          }
          await workbenchRepository.updateRelease(tx, release.id, { state: 'READY', progress: 1, error: null, rowCounts: counts });
          const total = Object.values(counts).reduce((a, b) => a + b, 0);
          await appendAuditEntry(tx, payload.auditContext ?? {}, {
            eventType: 'WORKBENCH_DATA_RELEASED',
            outcome: 'SUCCESS',
            message: `Cohort "${cohort.name}" (version ${version.version}, ${persons} persons) was released to ${await workbenchLabel(tx, release.workbenchId)}: ${total} rows in ${RELEASED_CDM_TABLES.length} tables`,
            resourceType: 'workbench',
            resourceId: release.workbenchId,
            details: { kind: 'cohort', cohort_id: cohort.id, version: version.version, person_count: persons, row_counts: counts, directory: `released/cohorts/${release.directory}` },
          });
        });
        // Taken out while its files were being written: they go too (with the whole folder if the workbench was deleted).
        if (gone) await store.remove((await workbenchRepository.findById(db, release.workbenchId)) ? key : workbenchKey(release.workbenchId));
      } catch (error) {
        if (staged) await store.discard(staged).catch(() => undefined);
        if (error instanceof ReleaseRefused) {
          await finish('FAILED', (tx) => recordFailure(tx, job, error.message), error.message);
          return;
        }
        throw error;
      }
    },

    failed: recordFailure,

    describeError: (error) => (error instanceof WarehouseTimeoutError ? error.message : UNEXPECTED),
  };
}
